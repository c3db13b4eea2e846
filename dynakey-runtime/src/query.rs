//! Queries (table, global or local index), fan-out over several partitions,
//! and scans.
//!
//! A typed query reads only its own entity: it filters on the
//! discriminator (DynamoDB still reads and charges for the other items; a
//! sort-key condition such as the generated `begins_with()` avoids that).
//! An [`EntityUnion`] reads every type of a partition.

use std::collections::VecDeque;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::{AttributeValue, Select};
use futures_core::Stream;
use futures_util::future::try_join_all;

use crate::client::Db;
use crate::codec::Item;
use crate::entity::{Entity, EntityMeta};
use crate::error::Error;
use crate::expr::{Condition, Placeholders};
use crate::key::{Key, KeyKind, Local, PartitionKey, SortKeyCondition, SortKeyOp, Table};
use crate::union::EntityUnion;

/// Turns the items a read returns into results.
pub trait Decoder: Clone + Send + Sync + 'static {
    /// What each item becomes.
    type Out: Send + 'static;
    /// A filter the read adds (e.g. the discriminator of a typed read).
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition>;
    /// The attributes to read, or `None` for all.
    fn projection(
        &self,
        meta: &'static EntityMeta,
        index: Option<&str>,
    ) -> Option<Vec<&'static str>>;
    /// Decodes one item; `Ok(None)` skips it.
    fn decode(&self, item: &Item) -> Result<Option<Self::Out>, Error>;
}

/// Reads items as entity `E`, skipping other types.
pub struct Typed<E>(PhantomData<fn() -> E>);

impl<E> Clone for Typed<E> {
    fn clone(&self) -> Self {
        Typed(PhantomData)
    }
}

fn discriminator_filter(meta: &'static EntityMeta) -> Condition {
    Condition::attr(meta.discriminator_attr).eq(meta.discriminator)
}

impl<E: Entity> Decoder for Typed<E> {
    type Out = E;
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition> {
        Some(discriminator_filter(meta))
    }
    fn projection(&self, _: &'static EntityMeta, _: Option<&str>) -> Option<Vec<&'static str>> {
        None
    }
    fn decode(&self, item: &Item) -> Result<Option<E>, Error> {
        E::from_item(item).map(Some).map_err(Error::from)
    }
}

/// Reads only the table keys of entity `E` (`ProjectionExpression` of the
/// key attributes).
pub struct KeysOnly<E>(PhantomData<fn() -> E>);

impl<E> Clone for KeysOnly<E> {
    fn clone(&self) -> Self {
        KeysOnly(PhantomData)
    }
}

impl<E: Entity> Decoder for KeysOnly<E> {
    type Out = Key<E>;
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition> {
        Some(discriminator_filter(meta))
    }
    fn projection(
        &self,
        meta: &'static EntityMeta,
        index: Option<&str>,
    ) -> Option<Vec<&'static str>> {
        let mut v = vec![meta.pk.attr];
        v.extend(meta.sk.as_ref().map(|k| k.attr));
        if let Some(ix) = index.and_then(|n| meta.index(n)) {
            for a in std::iter::once(ix.pk.attr).chain(ix.sk.as_ref().map(|k| k.attr)) {
                if !v.contains(&a) {
                    v.push(a);
                }
            }
        }
        Some(v)
    }
    fn decode(&self, item: &Item) -> Result<Option<Key<E>>, Error> {
        let meta = E::META;
        let s = |a: &'static str| -> Result<String, Error> {
            match item.get(a) {
                Some(AttributeValue::S(s)) => Ok(s.clone()),
                other => Err(Error::Decode(crate::codec::DecodeError {
                    path: a.to_owned(),
                    expected: "S".into(),
                    found: other.map_or("nothing".into(), crate::codec::describe_value),
                })),
            }
        };
        let pk = s(meta.pk.attr)?;
        let sk = match &meta.sk {
            Some(k) => Some((k.attr, s(k.attr)?)),
            None => None,
        };
        Ok(Some(Key::__new(meta.pk.attr, pk, sk)))
    }
}

/// Reads items as a union of entities, by discriminator.
pub struct AnyOf<U> {
    skip_unknown: bool,
    _u: PhantomData<fn() -> U>,
}

impl<U> Clone for AnyOf<U> {
    fn clone(&self) -> Self {
        AnyOf {
            skip_unknown: self.skip_unknown,
            _u: PhantomData,
        }
    }
}

impl<U: EntityUnion> Decoder for AnyOf<U> {
    type Out = U;
    fn filter(&self, _: &'static EntityMeta) -> Option<Condition> {
        None
    }
    fn projection(&self, _: &'static EntityMeta, _: Option<&str>) -> Option<Vec<&'static str>> {
        None
    }
    fn decode(&self, item: &Item) -> Result<Option<U>, Error> {
        match U::from_item(item) {
            Ok(u) => Ok(Some(u)),
            Err(Error::UnknownDiscriminator { .. }) if self.skip_unknown => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// One page of results and the cursor of the next (`None` on the last).
///
/// ```
/// let p: dynakey_runtime::Page<u8> = dynakey_runtime::Page { items: vec![1], cursor: None };
/// assert!(p.is_last());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The items.
    pub items: Vec<T>,
    /// An opaque cursor for [`Query::page`]; `None` when nothing follows.
    pub cursor: Option<String>,
}

impl<T> Page<T> {
    /// Whether this is the last page.
    pub fn is_last(&self) -> bool {
        self.cursor.is_none()
    }
}

pub(crate) struct RawPage {
    pub(crate) items: Vec<Item>,
    pub(crate) last: Option<Item>,
    pub(crate) count: u64,
}

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
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 1..=5 {
///     db.put(&Note { user: "ann".into(), id, tag: None, text: String::new() }).await.unwrap();
/// }
/// let q = db.query(Note::pk("ann").unwrap()).sk(Note::sk().between(2u32, 4u32).unwrap()).descending();
/// let ids: Vec<u32> = q.all().await.unwrap().into_iter().map(|n| n.id).collect();
/// assert_eq!(ids, [4, 3, 2]);
/// assert_eq!(q.count().await.unwrap(), 3);
/// let first = q.clone().limit(2).page(None).await.unwrap();
/// assert_eq!(first.items.len(), 2);
/// let rest = q.clone().limit(2).page(first.cursor.as_deref()).await.unwrap();
/// assert_eq!(rest.items[0].id, 2);
/// let streamed: Vec<Note> = q.clone().limit(1).stream().try_collect().await.unwrap();
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
pub struct Query<E, K: KeyKind, D> {
    db: Db,
    pk: PartitionKey<E, K>,
    sk: Option<SortKeyCondition<E, K>>,
    forward: bool,
    limit: Option<i32>,
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
            consistent: self.consistent,
            filter: self.filter.clone(),
            decoder: self.decoder.clone(),
        }
    }
}

impl Db {
    /// A query of the partition `pk` (of the table or an index), reading
    /// entity `E`.
    pub fn query<E: Entity, K: KeyKind>(&self, pk: PartitionKey<E, K>) -> Query<E, K, Typed<E>> {
        Query {
            db: self.clone(),
            pk,
            sk: None,
            forward: true,
            limit: None,
            consistent: false,
            filter: None,
            decoder: Typed(PhantomData),
        }
    }

    /// A query of several partitions at once (write shards, time buckets),
    /// merged in sort-key order.
    pub fn query_many<E: Entity, K: KeyKind>(
        &self,
        pks: impl IntoIterator<Item = PartitionKey<E, K>>,
    ) -> FanOut<E, K, Typed<E>> {
        FanOut {
            queries: pks.into_iter().map(|pk| self.query(pk)).collect(),
            concurrent: true,
            total: None,
        }
    }

    /// A scan of the table, reading entity `E`.
    pub fn scan<E: Entity>(&self) -> Scan<E, Typed<E>> {
        Scan {
            db: self.clone(),
            segments: 1,
            limit: None,
            consistent: false,
            filter: None,
            decoder: Typed(PhantomData),
            _e: PhantomData,
        }
    }
}

impl<E: Entity, K: KeyKind> Query<E, K, Typed<E>> {
    /// Read only the table keys.
    pub fn keys_only(self) -> Query<E, K, KeysOnly<E>> {
        self.with_decoder(KeysOnly(PhantomData))
    }

    /// Read every type of the partition as the union `U`; an unknown
    /// discriminator is an error (see [`Query::skip_unknown`]).
    pub fn of<U: EntityUnion>(self) -> Query<E, K, AnyOf<U>> {
        self.with_decoder(AnyOf {
            skip_unknown: false,
            _u: PhantomData,
        })
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
/// `query(E::gsi1_pk(..)).consistent()` does not compile (DYNA401).
#[diagnostic::on_unimplemented(
    message = "DYNA401: a global secondary index cannot be read consistently",
    label = "this query reads a global index, which DynamoDB keeps eventually consistent",
    note = "read the table (or a local index) when the read must see the latest write; the item enters, moves in or leaves a global index a moment after the write"
)]
pub trait ConsistentRead: KeyKind {}
impl ConsistentRead for Table {}
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

    /// Items evaluated per page (`Limit`); pages still follow.
    pub fn limit(mut self, n: u32) -> Self {
        self.limit = Some(n.min(i32::MAX as u32) as i32);
        self
    }

    /// An extra filter on the items read.
    pub fn filter(mut self, cond: Condition) -> Self {
        self.filter = Some(Condition::join(self.filter.take(), cond));
        self
    }

    /// The sort-key attribute the query orders by.
    fn sort_attr(&self) -> Option<&'static str> {
        if let Some(c) = &self.sk {
            return Some(c.attr());
        }
        match self.pk.index() {
            None => E::META.sk.as_ref().map(|k| k.attr),
            Some(ix) => E::META
                .index(ix)
                .and_then(|i| i.sk.as_ref())
                .map(|k| k.attr),
        }
    }

    pub(crate) async fn fetch(&self, start: Option<Item>, count: bool) -> Result<RawPage, Error> {
        if self.consistent && !K::CONSISTENT_READ {
            return Err(Error::ConsistentReadOnGlobalIndex);
        }
        let mut cx = Placeholders::default();
        let pkn = cx.name(self.pk.attr());
        let pkv = cx.value(AttributeValue::S(self.pk.value().to_owned()));
        let mut kc = format!("{pkn} = {pkv}");
        if let Some(c) = &self.sk {
            let n = cx.name(c.attr());
            let mut v = |s: &String| cx.value(AttributeValue::S(s.clone()));
            let part = match c.op() {
                SortKeyOp::Eq(s) => Some(format!("{n} = {}", v(s))),
                SortKeyOp::Lt(s) => Some(format!("{n} < {}", v(s))),
                SortKeyOp::Le(s) => Some(format!("{n} <= {}", v(s))),
                SortKeyOp::Gt(s) => Some(format!("{n} > {}", v(s))),
                SortKeyOp::Ge(s) => Some(format!("{n} >= {}", v(s))),
                SortKeyOp::Between(a, b) => {
                    let a = v(a);
                    Some(format!("{n} BETWEEN {a} AND {}", v(b)))
                }
                SortKeyOp::BeginsWith(s) => Some(format!("begins_with({n}, {})", v(s))),
                SortKeyOp::All => None,
                SortKeyOp::Empty => {
                    // Nothing can match: no request.
                    return Ok(RawPage {
                        count: 0,
                        last: None,
                        items: Vec::new(),
                    });
                }
            };
            if let Some(part) = part {
                kc.push_str(" AND ");
                kc.push_str(&part);
            }
        }
        let filter = match (self.decoder.filter(E::META), &self.filter) {
            (Some(a), Some(b)) => Some(a.and(b.clone())),
            (a, b) => a.or_else(|| b.clone()),
        };
        let filter = filter.map(|f| f.render(&mut cx)).transpose()?;
        let projection = if count {
            None
        } else {
            self.decoder
                .projection(E::META, self.pk.index())
                .map(|attrs| {
                    attrs
                        .iter()
                        .map(|a| cx.name(a))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
        };
        let mut req = self
            .db
            .client
            .query()
            .table_name(&*self.db.table)
            .set_index_name(self.pk.index().map(str::to_owned))
            .key_condition_expression(kc)
            .set_filter_expression(filter)
            .set_projection_expression(projection)
            .scan_index_forward(self.forward)
            .set_limit(self.limit)
            .set_consistent_read(self.consistent.then_some(true))
            .set_exclusive_start_key(start)
            .set_expression_attribute_names(cx.names())
            .set_expression_attribute_values(cx.values());
        if count {
            req = req.select(Select::Count);
        }
        let out = req
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, self.db.sdk_attempts()))?;
        Ok(RawPage {
            count: out.count().max(0) as u64,
            last: out.last_evaluated_key().filter(|k| !k.is_empty()).cloned(),
            items: out.items.unwrap_or_default(),
        })
    }

    fn decode_all(&self, items: &[Item]) -> Result<Vec<D::Out>, Error> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            if let Some(x) = self.decoder.decode(it)? {
                out.push(x);
            }
        }
        Ok(out)
    }

    /// One page, starting at `cursor` (`None` for the first).
    pub async fn page(&self, cursor: Option<&str>) -> Result<Page<D::Out>, Error> {
        let start = cursor.map(crate::cursor::decode).transpose()?;
        let raw = self.fetch(start, false).await?;
        Ok(Page {
            items: self.decode_all(&raw.items)?,
            cursor: raw.last.as_ref().map(crate::cursor::encode),
        })
    }

    /// The raw items of every page, stopping once `max` are read.
    async fn collect_raw(&self, max: Option<usize>) -> Result<Vec<Item>, Error> {
        let mut out = Vec::new();
        let mut start = None;
        loop {
            let raw = self.fetch(start, false).await?;
            out.extend(raw.items);
            if raw.last.is_none() || max.is_some_and(|m| out.len() >= m) {
                return Ok(out);
            }
            start = raw.last;
        }
    }

    /// Every item of every page.
    pub async fn all(&self) -> Result<Vec<D::Out>, Error> {
        let raw = self.collect_raw(None).await?;
        self.decode_all(&raw)
    }

    /// How many items match (`Select = COUNT`, every page).
    pub async fn count(&self) -> Result<u64, Error> {
        let mut n = 0;
        let mut start = None;
        loop {
            let raw = self.fetch(start, true).await?;
            n += raw.count;
            match raw.last {
                Some(l) => start = Some(l),
                None => return Ok(n),
            }
        }
    }

    /// The items as a stream, fetching pages as it is read.
    pub fn stream(self) -> impl Stream<Item = Result<D::Out, Error>> + Send + 'static {
        struct St<Q> {
            q: Q,
            buf: VecDeque<Item>,
            start: Option<Item>,
            done: bool,
        }
        let st = St {
            q: self,
            buf: VecDeque::new(),
            start: None,
            done: false,
        };
        futures_util::stream::unfold(st, |mut st| async move {
            loop {
                if let Some(item) = st.buf.pop_front() {
                    match st.q.decoder.decode(&item) {
                        Ok(Some(x)) => return Some((Ok(x), st)),
                        Ok(None) => continue,
                        Err(e) => {
                            st.done = true;
                            st.buf.clear();
                            return Some((Err(e), st));
                        }
                    }
                }
                if st.done {
                    return None;
                }
                match st.q.fetch(st.start.take(), false).await {
                    Ok(raw) => {
                        st.buf = raw.items.into();
                        st.done = raw.last.is_none();
                        st.start = raw.last;
                    }
                    Err(e) => {
                        st.done = true;
                        return Some((Err(e), st));
                    }
                }
            }
        })
    }
}

/// A query of several partitions, run concurrently and merged in sort-key
/// order (descending too). Build it with [`Db::query_many`].
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
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 1..=6 {
///     let user = if id % 2 == 0 { "even" } else { "odd" };
///     db.put(&Note { user: user.into(), id, tag: None, text: String::new() }).await.unwrap();
/// }
/// let shards = || ["even", "odd"].map(|u| Note::pk(u).unwrap());
/// let all = db.query_many(shards()).descending().limit(4).all().await.unwrap();
/// assert_eq!(all.iter().map(|n| n.id).collect::<Vec<_>>(), [6, 5, 4, 3]);
/// assert_eq!(db.query_many(shards()).count().await.unwrap(), 6);
/// # });
/// ```
pub struct FanOut<E, K: KeyKind, D> {
    queries: Vec<Query<E, K, D>>,
    concurrent: bool,
    total: Option<usize>,
}

impl<E: Entity, K: KeyKind> FanOut<E, K, Typed<E>> {
    /// Read only the table keys.
    pub fn keys_only(self) -> FanOut<E, K, KeysOnly<E>> {
        FanOut {
            queries: self.queries.into_iter().map(Query::keys_only).collect(),
            concurrent: self.concurrent,
            total: self.total,
        }
    }

    /// Read every type as the union `U`.
    pub fn of<U: EntityUnion>(self) -> FanOut<E, K, AnyOf<U>> {
        FanOut {
            queries: self.queries.into_iter().map(Query::of::<U>).collect(),
            concurrent: self.concurrent,
            total: self.total,
        }
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

    /// At most `n` items in all (the first `n` in merged order); each
    /// partition reads at most `n`.
    pub fn limit(mut self, n: u32) -> Self {
        self.total = Some(n as usize);
        self.map(|q| q.limit(n))
    }

    /// Items each partition reads per page (`Limit`), without capping the
    /// total: pages still follow.
    pub fn page_size(self, n: u32) -> Self {
        self.map(|q| q.limit(n))
    }

    /// Run the partitions one after another instead of concurrently (for
    /// comparison).
    pub fn sequential(mut self) -> Self {
        self.concurrent = false;
        self
    }

    /// Every matching item, merged in sort-key order.
    pub async fn all(&self) -> Result<Vec<D::Out>, Error> {
        let Some(first) = self.queries.first() else {
            return Ok(Vec::new());
        };
        let forward = first.forward;
        let attr = first.sort_attr();
        let lists = if self.concurrent {
            try_join_all(self.queries.iter().map(|q| q.collect_raw(self.total))).await?
        } else {
            let mut v = Vec::with_capacity(self.queries.len());
            for q in &self.queries {
                v.push(q.collect_raw(self.total).await?);
            }
            v
        };
        let sort_key = |it: &Item| -> String {
            match attr.and_then(|a| it.get(a)) {
                Some(AttributeValue::S(s)) => s.clone(),
                _ => String::new(),
            }
        };
        let mut tagged: Vec<(String, Item)> = lists
            .into_iter()
            .flatten()
            .map(|it| (sort_key(&it), it))
            .collect();
        // Stable: equal sort keys keep partition order.
        if forward {
            tagged.sort_by(|a, b| a.0.cmp(&b.0));
        } else {
            tagged.sort_by(|a, b| b.0.cmp(&a.0));
        }
        let mut out = Vec::with_capacity(tagged.len());
        for (_, it) in &tagged {
            if self.total.is_some_and(|n| out.len() >= n) {
                break;
            }
            if let Some(x) = first.decoder.decode(it)? {
                out.push(x);
            }
        }
        Ok(out)
    }

    /// The items of every partition as one stream, merged in sort-key order
    /// (descending too) without reading everything first: each partition is
    /// read a page at a time, when the merge needs its next item, and the
    /// first pages are fetched concurrently. Equal sort keys keep partition
    /// order, as in [`FanOut::all`].
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
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("notes");
    /// db.create_table(&[Note::META]).await.unwrap();
    /// for (user, id) in [("ann", 3), ("bob", 1), ("ann", 2)] {
    ///     db.put(&Note { user: user.into(), id, tag: None, text: String::new() }).await.unwrap();
    /// }
    /// let pks = vec![Note::pk("ann").unwrap(), Note::pk("bob").unwrap()];
    /// let ids: Vec<u32> = db.query_many(pks).page_size(1).stream().map_ok(|n| n.id).try_collect().await.unwrap();
    /// assert_eq!(ids, [1, 2, 3]);
    /// # });
    /// ```
    pub fn stream(self) -> impl Stream<Item = Result<D::Out, Error>> + Send + 'static {
        struct Part<E, K: KeyKind, D> {
            q: Query<E, K, D>,
            buf: VecDeque<Item>,
            start: Option<Item>,
            done: bool,
        }
        async fn fill<E: Entity, K: KeyKind, D: Decoder>(
            p: &mut Part<E, K, D>,
        ) -> Result<(), Error> {
            while p.buf.is_empty() && !p.done {
                let raw = p.q.fetch(p.start.take(), false).await?;
                p.buf = raw.items.into();
                p.done = raw.last.is_none();
                p.start = raw.last;
            }
            Ok(())
        }
        struct St<E, K: KeyKind, D> {
            parts: Vec<Part<E, K, D>>,
            attr: Option<&'static str>,
            forward: bool,
            total: Option<usize>,
            emitted: usize,
            started: bool,
            failed: bool,
        }
        let (attr, forward) = match self.queries.first() {
            Some(q) => (q.sort_attr(), q.forward),
            None => (None, true),
        };
        let st = St {
            parts: self
                .queries
                .into_iter()
                .map(|q| Part {
                    q,
                    buf: VecDeque::new(),
                    start: None,
                    done: false,
                })
                .collect(),
            attr,
            forward,
            total: self.total,
            emitted: 0,
            started: false,
            failed: false,
        };
        futures_util::stream::unfold(st, |mut st| async move {
            if st.failed || st.total.is_some_and(|n| st.emitted >= n) {
                return None;
            }
            if !st.started {
                st.started = true;
                if let Err(e) = try_join_all(st.parts.iter_mut().map(fill)).await {
                    st.failed = true;
                    return Some((Err(e), st));
                }
            }
            loop {
                let key = |it: &Item| match st.attr.and_then(|a| it.get(a)) {
                    Some(AttributeValue::S(s)) => s.clone(),
                    _ => String::new(),
                };
                // The partition whose next item sorts first; ties go to the
                // earlier partition.
                let mut best: Option<(usize, String)> = None;
                for (i, p) in st.parts.iter().enumerate() {
                    if let Some(it) = p.buf.front() {
                        let k = key(it);
                        let better = match &best {
                            None => true,
                            Some((_, b)) => {
                                if st.forward {
                                    k < *b
                                } else {
                                    k > *b
                                }
                            }
                        };
                        if better {
                            best = Some((i, k));
                        }
                    }
                }
                let (i, _) = best?;
                let item = st.parts[i].buf.pop_front()?;
                if let Err(e) = fill(&mut st.parts[i]).await {
                    st.failed = true;
                    return Some((Err(e), st));
                }
                match st.parts[i].q.decoder.decode(&item) {
                    Ok(Some(x)) => {
                        st.emitted += 1;
                        return Some((Ok(x), st));
                    }
                    Ok(None) => continue,
                    Err(e) => {
                        st.failed = true;
                        return Some((Err(e), st));
                    }
                }
            }
        })
    }

    /// The sum of the partitions' counts.
    pub async fn count(&self) -> Result<u64, Error> {
        let counts = if self.concurrent {
            try_join_all(self.queries.iter().map(Query::count)).await?
        } else {
            let mut v = Vec::new();
            for q in &self.queries {
                v.push(q.count().await?);
            }
            v
        };
        Ok(counts.into_iter().sum())
    }
}

/// A scan of the table, optionally in parallel segments. Build it with
/// [`Db::scan`].
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
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 0..10 {
///     db.put(&Note { user: format!("u{id}"), id, tag: None, text: String::new() }).await.unwrap();
/// }
/// assert_eq!(db.scan::<Note>().segments(4).all().await.unwrap().len(), 10);
/// assert_eq!(db.scan::<Note>().segments(3).count().await.unwrap(), 10);
/// # });
/// ```
pub struct Scan<E, D> {
    db: Db,
    segments: u32,
    limit: Option<i32>,
    consistent: bool,
    filter: Option<Condition>,
    decoder: D,
    _e: PhantomData<fn() -> E>,
}

impl<E: Entity> Scan<E, Typed<E>> {
    /// Read every entity of the union `U`.
    pub fn of<U: EntityUnion>(self, skip_unknown: bool) -> Scan<E, AnyOf<U>> {
        Scan {
            db: self.db,
            segments: self.segments,
            limit: self.limit,
            consistent: self.consistent,
            filter: self.filter,
            decoder: AnyOf {
                skip_unknown,
                _u: PhantomData,
            },
            _e: PhantomData,
        }
    }
}

impl<E: Entity, D: Decoder> Scan<E, D> {
    /// Scan in `n` parallel segments (1 to 1,000,000).
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n.clamp(1, 1_000_000);
        self
    }

    /// Items evaluated per page.
    pub fn limit(mut self, n: u32) -> Self {
        self.limit = Some(n.min(i32::MAX as u32) as i32);
        self
    }

    /// A strongly consistent scan.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// An extra filter.
    pub fn filter(mut self, cond: Condition) -> Self {
        self.filter = Some(Condition::join(self.filter.take(), cond));
        self
    }

    async fn segment(&self, seg: u32, count: bool) -> Result<(Vec<Item>, u64), Error> {
        let mut items = Vec::new();
        let mut n = 0;
        let mut start: Option<Item> = None;
        loop {
            let mut cx = Placeholders::default();
            let filter = match (self.decoder.filter(E::META), &self.filter) {
                (Some(a), Some(b)) => Some(a.and(b.clone())),
                (a, b) => a.or_else(|| b.clone()),
            };
            let filter = filter.map(|f| f.render(&mut cx)).transpose()?;
            let mut req = self
                .db
                .client
                .scan()
                .table_name(&*self.db.table)
                .set_filter_expression(filter)
                .set_limit(self.limit)
                .set_consistent_read(self.consistent.then_some(true))
                .set_exclusive_start_key(start.take())
                .set_expression_attribute_names(cx.names())
                .set_expression_attribute_values(cx.values());
            if self.segments > 1 {
                req = req.segment(seg as i32).total_segments(self.segments as i32);
            }
            if count {
                req = req.select(Select::Count);
            }
            let out = req
                .send()
                .await
                .map_err(|e| Error::from_sdk(e, self.db.sdk_attempts()))?;
            n += out.count().max(0) as u64;
            start = out.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            items.extend(out.items.unwrap_or_default());
            if start.is_none() {
                return Ok((items, n));
            }
        }
    }

    /// Every item, the segments read concurrently.
    pub async fn all(&self) -> Result<Vec<D::Out>, Error> {
        let parts = try_join_all((0..self.segments).map(|s| self.segment(s, false))).await?;
        let mut out = Vec::new();
        for (items, _) in parts {
            for it in &items {
                if let Some(x) = self.decoder.decode(it)? {
                    out.push(x);
                }
            }
        }
        Ok(out)
    }

    /// How many items match (`Select = COUNT`), summed over segments.
    pub async fn count(&self) -> Result<u64, Error> {
        let parts = try_join_all((0..self.segments).map(|s| self.segment(s, true))).await?;
        Ok(parts.into_iter().map(|(_, n)| n).sum())
    }
}
