//! A query of several partitions (write shards, time buckets), read
//! concurrently and merged in sort-key order.

use std::fmt;

use futures_core::Stream;
use futures_util::future::BoxFuture;
use futures_util::TryStreamExt;

use aws_sdk_dynamodb::operation::query::QueryInput;

use super::lane::{first_limit, Input};
use super::pager::{Order, Pager};
use super::{AnyOf, Decoder, KeysOnly, Page, Query, Typed};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, RefusedReason};
use crate::explain::Explain;
use crate::expr::Condition;
use crate::key::{KeyKind, PartitionKey, SortKeyCondition};
use crate::union::EntityUnion;

/// A query of several partitions, run concurrently and merged in sort-key
/// order (descending too; equal sort keys keep partition order). Build it
/// with [`Db::query_many`]. `limit`, `page_size` and pages mean what they
/// mean on a [`Query`]; a page's cursor holds every partition's position.
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
/// for id in 1..=6 {
///     let user = if id % 2 == 0 { "even" } else { "odd" };
///     db.put(&Note { user: user.into(), id, tag: None, text: String::new() }).await.unwrap();
/// }
/// let shards = || ["even", "odd"].map(|u| Note::pk(u).unwrap());
/// let top = db.query_many(shards()).descending().limit(4).all().await.unwrap();
/// assert_eq!(top.iter().map(|n| n.id).collect::<Vec<_>>(), [6, 5, 4, 3]);
/// assert_eq!(db.query_many(shards()).count().await.unwrap(), 6);
/// // Read a page at a time, or as a stream.
/// let page = db.query_many(shards()).page_size(4).page(None).await.unwrap();
/// assert_eq!(page.items.iter().map(|n| n.id).collect::<Vec<_>>(), [1, 2, 3, 4]);
/// let rest = db.query_many(shards()).page_size(4).page(page.cursor.as_deref()).await.unwrap();
/// assert_eq!(rest.items.iter().map(|n| n.id).collect::<Vec<_>>(), [5, 6]);
/// let ids: Vec<u32> = db.query_many(shards()).page_size(1).stream().map_ok(|n| n.id).try_collect().await.unwrap();
/// assert_eq!(ids, [1, 2, 3, 4, 5, 6]);
/// # });
/// ```
#[must_use = "a query does nothing until read (.await, all, stream, page, count)"]
pub struct FanOut<E, K: KeyKind, D> {
    queries: Vec<Query<E, K, D>>,
    concurrent: bool,
}

impl<E, K: KeyKind, D: Clone> Clone for FanOut<E, K, D> {
    fn clone(&self) -> Self {
        Self {
            queries: self.queries.clone(),
            concurrent: self.concurrent,
        }
    }
}

impl<E, K: KeyKind, D: fmt::Debug> fmt::Debug for FanOut<E, K, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FanOut")
            .field("queries", &self.queries)
            .field("concurrent", &self.concurrent)
            .finish()
    }
}

impl Db {
    /// A query of several partitions at once (write shards, time buckets),
    /// merged in sort-key order; see [`FanOut`].
    pub fn query_many<E: Entity, K: KeyKind>(
        &self,
        pks: impl IntoIterator<Item = PartitionKey<E, K>>,
    ) -> FanOut<E, K, Typed<E>> {
        FanOut {
            queries: pks.into_iter().map(|pk| self.query(pk)).collect(),
            concurrent: true,
        }
    }
}

impl<E: Entity, K: KeyKind> FanOut<E, K, Typed<E>> {
    /// Read only the table keys.
    pub fn keys_only(self) -> FanOut<E, K, KeysOnly<E>> {
        FanOut {
            queries: self.queries.into_iter().map(Query::keys_only).collect(),
            concurrent: self.concurrent,
        }
    }

    /// Read every type as the union `U` (see [`FanOut::skip_unknown`]).
    pub fn of<U: EntityUnion>(self) -> FanOut<E, K, AnyOf<U>> {
        FanOut {
            queries: self.queries.into_iter().map(Query::of::<U>).collect(),
            concurrent: self.concurrent,
        }
    }
}

impl<E: Entity, K: KeyKind, U: EntityUnion> FanOut<E, K, AnyOf<U>> {
    /// Skip items whose discriminator names no variant instead of failing.
    pub fn skip_unknown(self) -> Self {
        self.map(Query::skip_unknown)
    }
}

impl<E: Entity, K: KeyKind, D: Decoder> FanOut<E, K, D> {
    fn map(mut self, f: impl Fn(Query<E, K, D>) -> Query<E, K, D>) -> Self {
        self.queries = self.queries.into_iter().map(f).collect();
        self
    }

    /// The same sort-key condition in every partition.
    pub fn sk(self, cond: SortKeyCondition<E, K>) -> Self {
        self.map(|q| q.sk(cond.clone()))
    }

    /// Highest sort key first, across partitions.
    pub fn descending(self) -> Self {
        self.map(Query::descending)
    }

    /// An extra filter in every partition.
    pub fn filter(self, cond: Condition) -> Self {
        self.map(|q| q.filter(cond.clone()))
    }

    /// At most `n` items in all (the first `n` in merged order).
    pub fn limit(self, n: u32) -> Self {
        self.map(|q| q.limit(n))
    }

    /// `n` items per page, and the `Limit` of each partition's requests.
    pub fn page_size(self, n: u32) -> Self {
        self.map(|q| q.page_size(n))
    }

    /// Read the partitions one after another instead of concurrently (for
    /// comparison).
    pub fn sequential(mut self) -> Self {
        self.concurrent = false;
        self
    }

    /// The SDK input of each partition's first request, without sending
    /// them (a partition whose sort-key range is empty sends none).
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
    /// let shards = ["a", "b"].map(|u| Note::pk(u).unwrap());
    /// let inputs = db.query_many(shards).to_input().unwrap();
    /// assert_eq!(inputs.len(), 2);
    /// ```
    pub fn to_input(&self) -> Result<Vec<QueryInput>, Error> {
        let mut out = Vec::new();
        for q in &self.queries {
            let lane = q.lane(false)?;
            if let Some(Input::Query(i)) = lane.first_input(first_limit(q.page_size, q.limit))? {
                out.push(i);
            }
        }
        Ok(out)
    }

    /// The fan-out in readable form: one action per partition.
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
    /// let shards = ["a", "b"].map(|u| Note::pk(u).unwrap());
    /// let x = db.query_many(shards).explain().unwrap();
    /// assert_eq!((x.operation.as_str(), x.actions.len()), ("FanOut", 2));
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let table = self.queries.first().map_or("", |q| q.db.table_name());
        let mut x = Explain::new("FanOut", table);
        for q in &self.queries {
            x.actions.push(q.explain()?);
        }
        Ok(x)
    }

    fn pager(&self, count: bool) -> Result<Pager<D>, Error> {
        let first = self.queries.first();
        let order = Order::Sorted {
            attrs: first.map(Query::sort_attrs).unwrap_or_default(),
            forward: first.is_none_or(|q| q.forward),
        };
        let lanes = self
            .queries
            .iter()
            .map(|q| q.lane(count))
            .collect::<Result<_, _>>()?;
        let pager = match first {
            Some(q) => Pager::new(
                q.db.clone(),
                lanes,
                order,
                q.decoder.clone(),
                q.limit,
                q.page_size,
            ),
            None => {
                return Err(Error::refused(
                    RefusedReason::ActionCount,
                    "a fan-out over no partition",
                ))
            }
        };
        Ok(if self.concurrent {
            pager
        } else {
            pager.sequential()
        })
    }

    /// Every matching item, merged in sort-key order, up to the limit.
    ///
    /// A boxed future, not an `async fn`: the read's bound (DYNA402) is
    /// then checked at the call alone, one error for one mistake.
    pub fn all(&self) -> BoxFuture<'_, Result<Vec<D::Out>, Error>>
    where
        D: super::ReadFrom<K>,
    {
        self.read_all()
    }

    /// Sends the fan-out: every item, merged, up to the limit, as
    /// [`all`](Self::all); awaiting it does the same.
    pub fn send(self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>>
    where
        D: super::ReadFrom<K>,
    {
        self.read_all()
    }

    /// What `all` and `send` read: the pager is built first, so the
    /// future owns everything it needs.
    fn read_all(&self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>> {
        if self.queries.is_empty() {
            return Box::pin(std::future::ready(Ok(Vec::new())));
        }
        match self.pager(false) {
            Ok(pager) => pager.all(),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        }
    }

    /// One page in merged order, starting at `cursor` (`None` first; a
    /// boxed future, as [`all`](Self::all)).
    pub fn page<'a>(&'a self, cursor: Option<&'a str>) -> BoxFuture<'a, Result<Page<D::Out>, Error>>
    where
        D: super::ReadFrom<K>,
    {
        let pager = (!self.queries.is_empty()).then(|| self.pager(false));
        Box::pin(async move {
            match pager {
                None => Ok(Page {
                    items: Vec::new(),
                    cursor: None,
                }),
                Some(pager) => pager?.page(cursor).await,
            }
        })
    }

    /// The items of every partition as one stream, merged in sort-key
    /// order without reading everything first: each partition is read a
    /// page at a time, when the merge needs its next item, and the first
    /// pages are fetched concurrently.
    pub fn stream(self) -> impl Stream<Item = Result<D::Out, Error>> + Send + 'static
    where
        D: super::ReadFrom<K>,
    {
        let pager = if self.queries.is_empty() {
            None
        } else {
            Some(self.pager(false))
        };
        futures_util::stream::iter(pager)
            .map_ok(Pager::stream)
            .try_flatten()
    }

    /// The sum of the partitions' counts, at most the limit.
    pub async fn count(&self) -> Result<u64, Error> {
        if self.queries.is_empty() {
            return Ok(0);
        }
        self.pager(true)?.count().await
    }
}

/// `.await` sends the fan-out ([`FanOut::send`]).
impl<E: Entity, K: KeyKind, D: super::ReadFrom<K>> std::future::IntoFuture for FanOut<E, K, D> {
    type Output = Result<Vec<D::Out>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        self.send()
    }
}
