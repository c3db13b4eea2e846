//! Reads: a query of one partition (of the table or an index), a fan-out
//! over several partitions, and a scan in segments, all read through one
//! pager (`query/pager.rs`) with the same methods: `all()`, `stream()`,
//! `page(cursor)`, `count()`.
//!
//! Two sizes, the same on every read: `limit(n)` caps the items a read
//! returns in all (`all`, `stream`, `count` and the pages together stop
//! after `n`); `page_size(n)` is the items per page and the `Limit` of each
//! request. A page holds `page_size` items unless the read ends first,
//! however many items the filters leave out, and its cursor resumes right
//! after its last item.
//!
//! A typed query reads only its own entity: it filters on the
//! discriminator (DynamoDB still reads and charges for the other items; a
//! sort-key condition such as the generated `begins_with()` avoids that).
//! An [`EntityUnion`] reads every type of a partition.

mod cursor;
mod decode;
mod fanout;
mod hydrate;
mod lane;
mod page;
mod pager;
mod plan;
mod project;
mod scan;

use std::fmt;

use aws_sdk_dynamodb::operation::query::QueryInput;
use futures_core::Stream;
use futures_util::future::BoxFuture;
use futures_util::TryStreamExt;

pub use crate::cursor_key::{CursorKey, ShortCursorKey, MIN_CURSOR_KEY_BYTES};
pub use decode::{AnyOf, Decoder, KeysOnly, ReadFrom, ReadsThrough, Typed};
pub use fanout::FanOut;
pub use hydrate::Hydrated;
pub use page::Page;
pub use project::{Projected, Projection, SameField};
pub use scan::Scan;

use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, RefusedReason};
use crate::explain::Explain;
use crate::expr::Condition;
use crate::key::{KeyKind, Local, PartitionKey, SortKeyCondition, Table};
use crate::union::EntityUnion;
use lane::{first_limit, Input, Lane};
use pager::Pager;
use plan::Untyped;

/// A query of one partition of the table or of an index. Build it with
/// [`Db::query`].
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::Entity;
/// use futures_util::TryStreamExt;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 1..=5 {
///     db.put(&Note { user: "ann".into(), id, tag: None, text: String::new() }).await.unwrap();
/// }
/// let q = db.query(Note::pk("ann").unwrap()).sk(Note::sk().between(2u32, 4u32).unwrap()).descending();
/// let ids: Vec<u32> = q.all().await.unwrap().into_iter().map(|n| n.id).collect();
/// assert_eq!(ids, [4, 3, 2]);
/// assert_eq!(q.count().await.unwrap(), 3);
/// // `limit` caps the items in all; `page_size` sizes each page.
/// assert_eq!(q.clone().limit(2).all().await.unwrap().len(), 2);
/// let first = q.clone().page_size(2).page(None).await.unwrap();
/// assert_eq!(first.items.len(), 2);
/// let rest = q.clone().page_size(2).page(first.cursor.as_deref()).await.unwrap();
/// assert_eq!(rest.items[0].id, 2);
/// let streamed: Vec<Note> = q.clone().page_size(1).stream().try_collect().await.unwrap();
/// assert_eq!(streamed.len(), 3);
/// let keys = db.query(Note::pk("ann").unwrap()).keys_only().all().await.unwrap();
/// assert_eq!(keys[0], Note::key("ann", 1).unwrap());
/// # });
/// ```
///
/// A consistent read exists only on the table and local indexes; on a
/// global index it does not compile:
///
/// ```compile_fail
/// # async fn f(db: dynakey_runtime::Db) {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// db.query(Note::gsi1_pk("x").unwrap()).consistent();
/// # }
/// ```
#[must_use = "a query does nothing until read (.await, all, stream, page, count)"]
pub struct Query<E, K: KeyKind, D> {
    db: Db,
    pk: PartitionKey<E, K>,
    sk: Option<SortKeyCondition<E, K>>,
    forward: bool,
    limit: Option<usize>,
    page_size: Option<u32>,
    consistent: bool,
    filter: Option<Condition>,
    decoder: D,
}

impl<E, K: KeyKind, D: Clone> Clone for Query<E, K, D> {
    fn clone(&self) -> Self {
        Self {
            db: self.db.clone(),
            pk: self.pk.clone(),
            sk: self.sk.clone(),
            forward: self.forward,
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            filter: self.filter.clone(),
            decoder: self.decoder.clone(),
        }
    }
}

impl<E, K: KeyKind, D: fmt::Debug> fmt::Debug for Query<E, K, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Query")
            .field("table", &self.db.table)
            .field("pk", &self.pk)
            .field("sk", &self.sk)
            .field("forward", &self.forward)
            .field("limit", &self.limit)
            .field("page_size", &self.page_size)
            .field("consistent", &self.consistent)
            .field("filter", &self.filter)
            .field("decoder", &self.decoder)
            .finish()
    }
}

impl Db {
    /// A query of the partition `pk` (of the table or an index), reading
    /// entity `E`; see [`Query`].
    pub fn query<E: Entity, K: KeyKind>(&self, pk: PartitionKey<E, K>) -> Query<E, K, Typed<E>> {
        Query {
            db: self.clone(),
            pk,
            sk: None,
            forward: true,
            limit: None,
            page_size: None,
            consistent: false,
            filter: None,
            decoder: Typed::default(),
        }
    }
}

impl<E: Entity, K: KeyKind> Query<E, K, Typed<E>> {
    /// Read only the table keys.
    pub fn keys_only(self) -> Query<E, K, KeysOnly<E>> {
        self.with_decoder(KeysOnly::default())
    }

    /// Read every type of the partition as the union `U`; an unknown
    /// discriminator is an error (see [`Query::skip_unknown`]).
    pub fn of<U: EntityUnion>(self) -> Query<E, K, AnyOf<U>> {
        self.with_decoder(AnyOf::default())
    }
}

impl<E: Entity, K: KeyKind, U: EntityUnion> Query<E, K, AnyOf<U>> {
    /// Skip items whose discriminator names no variant instead of failing.
    pub fn skip_unknown(mut self) -> Self {
        self.decoder.skip_unknown = true;
        self
    }
}

/// Keys a strongly consistent read can go through: the table's and a local
/// index's. A global index is eventually consistent, so
/// `query(E::gsi1_pk(..)).consistent()` does not compile (DYNA401; see the
/// example on [`Query`]).
#[diagnostic::on_unimplemented(
    message = "DYNA401: a global secondary index cannot be read consistently",
    label = "this query reads a global index, which DynamoDB keeps eventually consistent",
    note = "read the table (or a local index) when the read must see the latest write; the item enters, moves in or leaves a global index a moment after the write"
)]
pub trait ConsistentRead: KeyKind {}
#[diagnostic::do_not_recommend]
impl ConsistentRead for Table {}
#[diagnostic::do_not_recommend]
impl ConsistentRead for Local {}

impl<E: Entity, K: KeyKind, D: Decoder> Query<E, K, D> {
    /// A strongly consistent read (table and local indexes only).
    pub fn consistent(mut self) -> Self
    where
        K: ConsistentRead,
    {
        self.consistent = true;
        self
    }
}

impl<E: Entity, K: KeyKind, D: Decoder> Query<E, K, D> {
    fn with_decoder<D2>(self, decoder: D2) -> Query<E, K, D2> {
        Query {
            db: self.db,
            pk: self.pk,
            sk: self.sk,
            forward: self.forward,
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            filter: self.filter,
            decoder,
        }
    }

    /// Only sort keys matching `cond` (the generated sort-key conditions).
    pub fn sk(mut self, cond: SortKeyCondition<E, K>) -> Self {
        self.sk = Some(cond);
        self
    }

    /// Highest sort key first.
    pub fn descending(mut self) -> Self {
        self.forward = false;
        self
    }

    /// At most `n` items in all: `all()`, `stream()` and `count()` stop
    /// after `n`, and so do the pages together.
    pub fn limit(mut self, n: u32) -> Self {
        self.limit = Some(n as usize);
        self
    }

    /// `n` items per page, and the `Limit` (items evaluated) of each
    /// request. Without it a request reads up to DynamoDB's 1 MB.
    pub fn page_size(mut self, n: u32) -> Self {
        self.page_size = Some(n.max(1));
        self
    }

    /// An extra filter on the items read (and-ed with any given before).
    pub fn filter(mut self, cond: Condition) -> Self {
        self.filter = Some(Condition::join(self.filter.take(), cond));
        self
    }

    /// The query without its types, for the planning code (one copy of
    /// which serves every entity).
    fn untyped(&self) -> Untyped<'_> {
        Untyped {
            db: &self.db,
            meta: E::META,
            consistent_read: K::CONSISTENT_READ,
            index: self.pk.index,
            pk: &self.pk.value,
            sk: self.sk.as_ref().map(|c| (c.index, c.attr, &c.op)),
            forward: self.forward,
            consistent: self.consistent,
            filter: self.filter.as_ref(),
        }
    }

    /// The sort-key attributes the query orders by (see
    /// [`Untyped::sort_attrs`]).
    pub(crate) fn sort_attrs(&self) -> Vec<&'static str> {
        self.untyped().sort_attrs()
    }

    /// The request of this query (`Select = COUNT` when `count`), as a lane
    /// of a pager. An empty sort-key range sends nothing.
    pub(crate) fn lane(&self, count: bool) -> Result<Lane, Error> {
        let filter = self.decoder.filter(E::META);
        let projection = self.decoder.projection(E::META, self.pk.index);
        self.untyped().lane(filter, projection, count)
    }

    /// The SDK input of the query's first request, without sending it
    /// (its `Limit` is the page size, or the limit when smaller). A query
    /// whose sort-key range is empty sends nothing: [`Error::Refused`].
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let q = db.query(Note::gsi1_pk("red").unwrap()).descending().page_size(10);
    /// let input = q.to_input().unwrap();
    /// assert_eq!((input.index_name(), input.limit()), (Some("GSI1"), Some(10)));
    /// ```
    pub fn to_input(&self) -> Result<QueryInput, Error> {
        match self
            .lane(false)?
            .first_input(first_limit(self.page_size, self.limit))?
        {
            Some(Input::Query(q)) => Ok(q),
            _ => Err(Error::refused(
                RefusedReason::Unsupported,
                "the sort-key range is empty, so the query sends no request",
            )),
        }
    }

    /// The query's first request in readable form, without sending it.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let x = db.query(Note::pk("ann").unwrap()).sk(Note::sk().begins_with().unwrap()).explain().unwrap();
    /// assert_eq!(x.key_condition.as_deref(), Some("#n0 = :v0 AND begins_with(#n1, :v1)"));
    /// assert!(x.to_string().contains("begins_with(sk, \"NOTE#\")"));
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        self.lane(false)?
            .explain(&self.db.table, first_limit(self.page_size, self.limit))
    }

    fn pager(&self, count: bool) -> Result<Pager<D>, Error> {
        let filter = self.decoder.filter(E::META);
        let projection = self.decoder.projection(E::META, self.pk.index);
        let raw = self
            .untyped()
            .pager(filter, projection, count, self.limit, self.page_size)?;
        Ok(Pager::from_raw(raw, self.decoder.clone()))
    }

    /// One page, starting at `cursor` (`None` for the first; then the
    /// cursor of the page before). See [`Page`].
    ///
    /// A boxed future, not an `async fn`: the read's bound (DYNA402) is
    /// then checked at the call alone, one error for one mistake.
    pub fn page<'a>(&'a self, cursor: Option<&'a str>) -> BoxFuture<'a, Result<Page<D::Out>, Error>>
    where
        D: ReadFrom<K>,
    {
        let pager = self.pager(false);
        Box::pin(async move { pager?.page(cursor).await })
    }

    /// Every item, up to the limit (a boxed future, as [`page`](Self::page)).
    pub fn all(&self) -> BoxFuture<'_, Result<Vec<D::Out>, Error>>
    where
        D: ReadFrom<K>,
    {
        self.read_all()
    }

    /// Sends the query: every item, up to the limit, as [`all`](Self::all).
    /// Awaiting the query does the same, as with the write builders
    /// (`db.query(pk).limit(10).await`).
    pub fn send(self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>>
    where
        D: ReadFrom<K>,
    {
        self.read_all()
    }

    /// What `all` and `send` read: the pager is built first, so the
    /// future owns everything it needs.
    fn read_all(&self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>> {
        match self.pager(false) {
            Ok(pager) => pager.all(),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        }
    }

    /// How many items match (`Select = COUNT`, every page), at most the
    /// limit.
    pub async fn count(&self) -> Result<u64, Error> {
        self.pager(true)?.count().await
    }

    /// The items as a stream, fetching pages as it is read; it ends after
    /// the first error.
    pub fn stream(self) -> impl Stream<Item = Result<D::Out, Error>> + Send + 'static
    where
        D: ReadFrom<K>,
    {
        futures_util::stream::iter(Some(self.pager(false)))
            .map_ok(Pager::stream)
            .try_flatten()
    }
}

/// `.await` sends the query ([`Query::send`]: every item up to the limit).
impl<E: Entity, K: KeyKind, D: ReadFrom<K>> std::future::IntoFuture for Query<E, K, D> {
    type Output = Result<Vec<D::Out>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        self.send()
    }
}
