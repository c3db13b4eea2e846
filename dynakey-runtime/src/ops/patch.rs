//! A patch: the item read, changed by a closure, and written back in one
//! UpdateItem that sets what changed and rebuilds every index key whose
//! inputs changed, under the item's version (or its key inputs as read).
//!
//! What a PATCH handler needs when a request may change one input of a key
//! of several (`zone` of `"<zone>#<aisle>"`): the key is rebuilt from the
//! whole item, so there is no input to forget, and the write is refused
//! when the item changed in between.

use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use aws_sdk_dynamodb::types::AttributeValue;

use super::BoxFuture;
use crate::check::bump_version;
use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta, IndexKey, KeyMeta};
use crate::error::{Error, RefusedReason};
use crate::expr::{Condition, Update};
use crate::key::Key;
use crate::write::decode_opt;

/// How many times a patch writes before a race is an error, unless
/// [`PatchItem::attempts`] says otherwise.
const ATTEMPTS: u32 = 3;

/// A patch of one item, from [`Db::patch`]: `.await` it for the item as
/// written (`Ok(None)` when no item has the key).
///
/// It reads the item (strongly consistent), hands it to the closure to
/// change, and sends **one** UpdateItem that sets the attributes whose
/// values changed, removes those that became absent, and rewrites (or, in
/// a sparse index, removes) exactly the index keys whose inputs changed:
/// the keys are rebuilt from the whole item, as a put writes them, so a
/// patch that changes one input of a key of several keeps it right. The
/// write is conditioned on the item as read:
///
/// - with a `#[dynamo(version)]` field, on the version read (the patch
///   writes the next one: the closure's own change of it is ignored);
/// - otherwise, on every input of every index key the patch rewrites or
///   whose inputs it changes holding the value read (the other attributes
///   it changes are written as a typed update writes them, last writer
///   wins: give the entity a version field to lock them too).
///
/// **On a race** (the condition fails because the item changed after the
/// read) the patch reads the item again and runs the closure again on it,
/// up to [`PatchItem::attempts`] writes (3 unless set); then it is
/// [`Error::ConditionFailed`]. So the closure may run more than once: it
/// changes what it is given and clones what it moves in
/// (`if let Some(z) = &p.zone { s.zone = z.clone() }`). A condition added
/// with [`PatchItem::condition`] that fails on the item as read is
/// [`Error::ConditionFailed`] at once, not retried.
///
/// A closure that changes nothing sends nothing and returns the item as
/// read. One that changes a table-key field is refused before sending
/// ([`Error::Refused`]: a key is the item's identity; move the item with
/// [`Db::move_item`](crate::Db::move_item)), as a typed update's setter of
/// one does not compile (DYNA227). The item is validated
/// (`#[dynamo(validate = ..)]`), checked (size, numbers) and timestamped
/// (`updated_at`) as a put of it would be. An update of a `#[dynamo(unique)]` field goes through its
/// guards' transaction, whose failures are not retried.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// #[dynamo(crate = "dynakey_runtime", entity = "STOCK")]
/// #[pk("SKU#<sku>")]
/// #[gsi("GSI1", pk = "SITE#<site>", sk = "<zone>#<aisle:d3>")]
/// struct Stock { sku: String, site: String, zone: String, aisle: u32, qty: u32, #[dynamo(version)] version: u64 }
///
/// /// A PATCH request's body: each field optional.
/// struct StockPatch { zone: Option<String>, aisle: Option<u32>, qty: Option<u32> }
///
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("stock");
/// db.create_table(&[Stock::META]).await.unwrap();
/// let s = Stock { sku: "k1".into(), site: "s1".into(), zone: "A".into(), aisle: 7, qty: 5, version: 0 };
/// db.put(&s).await.unwrap();
///
/// // The zone alone: the index key "<zone>#<aisle>" is rebuilt from the item.
/// let p = StockPatch { zone: Some("B".into()), aisle: None, qty: None };
/// let after = db
///     .patch(Stock::key("k1").unwrap(), |s| {
///         if let Some(z) = &p.zone { s.zone = z.clone() }
///         if let Some(a) = p.aisle { s.aisle = a }
///         if let Some(q) = p.qty { s.qty = q }
///     })
///     .await
///     .unwrap()
///     .expect("the item exists");
/// assert_eq!((after.zone.as_str(), after.aisle, after.version), ("B", 7, 2));
/// let in_b = Stock::gsi1_sk().zone("B").begins_with().unwrap();
/// let moved = db.query(Stock::gsi1_pk("s1").unwrap()).sk(in_b);
/// assert_eq!(moved.all().await.unwrap(), [after]);
///
/// // No item at the key: `None`, and nothing is written.
/// let gone = db.patch(Stock::key("k9").unwrap(), |s| s.qty = 0).await.unwrap();
/// assert_eq!(gone, None);
/// # });
/// ```
#[must_use = "a patch does nothing until awaited"]
pub struct PatchItem<E, F> {
    db: Db,
    key: Key<E>,
    change: F,
    cond: Option<Condition>,
    attempts: u32,
}

impl<E: Entity, F> fmt::Debug for PatchItem<E, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatchItem")
            .field("table", &self.db.table)
            .field("key", &self.key)
            .field("condition", &self.cond)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

impl<E: Entity, F: FnMut(&mut E)> PatchItem<E, F> {
    /// Only when `cond` holds too (and-ed with the patch's own condition),
    /// e.g. an HTTP `If-Match` on the version the client holds:
    /// `.condition(Stock::attrs().version.eq(v))`. It fails with
    /// [`Error::ConditionFailed`] when it does not hold on the item read,
    /// without retrying.
    #[must_use = "a patch does nothing until awaited"]
    pub fn condition(mut self, cond: Condition) -> Self {
        self.cond = Some(Condition::join(self.cond.take(), cond));
        self
    }

    /// How many times the patch writes before a race (the item changed
    /// between the read and the write) is [`Error::ConditionFailed`]: 3
    /// unless set; `1` fails on the first race. At least 1.
    #[must_use = "a patch does nothing until awaited"]
    pub fn attempts(mut self, n: u32) -> Self {
        self.attempts = n.max(1);
        self
    }

    /// Reads, changes and writes the item; the same as `.await`.
    pub fn send(self) -> PatchFuture<E, F> {
        let read = read(&self.db, &self.key);
        PatchFuture {
            db: self.db,
            key: self.key.erase(),
            change: Box::new(self.change),
            cond: self.cond,
            attempts: self.attempts,
            state: State::Read(read, None),
            _e: PhantomData,
        }
    }
}

impl<E: Entity, F: FnMut(&mut E)> IntoFuture for PatchItem<E, F> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = PatchFuture<E, F>;
    fn into_future(self) -> Self::IntoFuture {
        self.send()
    }
}

/// A [`PatchItem`] under way (`Send` when its closure is). It borrows
/// nothing but what the closure does: the closure runs between the read
/// and the write, on this future's task.
#[must_use = "a patch does nothing until awaited"]
pub struct PatchFuture<E, F> {
    db: Db,
    key: Key<()>,
    // Boxed, so the future is `Unpin` whatever the closure.
    change: Box<F>,
    cond: Option<Condition>,
    /// Writes left.
    attempts: u32,
    state: State,
    _e: PhantomData<fn() -> E>,
}

impl<E: Entity, F> fmt::Debug for PatchFuture<E, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatchFuture")
            .field("entity", &E::META.type_name)
            .field("key", &self.key)
            .field("attempts_left", &self.attempts)
            .finish_non_exhaustive()
    }
}

type Request = BoxFuture<'static, Result<Option<Item>, Error>>;

enum State {
    /// Reading the item; after a failed write, with the item that write
    /// was based on and its error.
    Read(Request, Option<(Item, Error)>),
    /// Writing what the closure changed in the item read (kept).
    Write(Request, Item),
    Done,
}

/// A strongly consistent read of the item at `key`.
fn read<E: Entity>(db: &Db, key: &Key<E>) -> Request {
    super::get::read_item(db.clone(), E::META.type_name, key.to_attributes())
}

impl<E: Entity, F: FnMut(&mut E)> PatchFuture<E, F> {
    /// The closure applied to the item read: the write it makes, or the
    /// item when nothing changed.
    fn change(&mut self, raw: &Item) -> Result<Result<Request, E>, Error> {
        let mut e = E::from_item(raw)?;
        let before = e.to_item()?;
        (self.change)(&mut e);
        e.validate()?;
        let after = e.to_item()?;
        let Some((update, cond)) = plan(E::META, raw, &before, &after, self.cond.as_ref())? else {
            return Ok(Err(e));
        };
        let key = self.key.clone();
        Ok(Ok(super::update::send_patch(
            self.db.clone(),
            E::META,
            key,
            update,
            cond,
        )))
    }
}

impl<E: Entity, F: FnMut(&mut E)> Future for PatchFuture<E, F> {
    type Output = Result<Option<E>, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        loop {
            match &mut this.state {
                State::Read(req, failed) => {
                    let read = ready!(req.as_mut().poll(cx));
                    let failed = failed.take();
                    let raw = match read {
                        Ok(Some(raw)) => raw,
                        // Gone (before the first write, or since).
                        Ok(None) => return this.finish(Ok(None)),
                        Err(e) => return this.finish(Err(e)),
                    };
                    if let Some((was, err)) = failed {
                        // Unchanged since: the caller's own condition
                        // failed, and would again. Changed: a race.
                        if was == raw || this.attempts == 0 {
                            return this.finish(Err(err));
                        }
                    }
                    this.attempts -= 1;
                    match this.change(&raw) {
                        Ok(Ok(write)) => this.state = State::Write(write, raw),
                        Ok(Err(same)) => return this.finish(Ok(Some(same))),
                        Err(e) => return this.finish(Err(e)),
                    }
                }
                State::Write(req, raw) => match ready!(req.as_mut().poll(cx)) {
                    Ok(item) => return this.finish(decode_opt(item.as_ref())),
                    Err(err @ Error::ConditionFailed { .. }) => {
                        let was = std::mem::take(raw);
                        let again = super::get::read_item(
                            this.db.clone(),
                            E::META.type_name,
                            this.key.to_attributes(),
                        );
                        this.state = State::Read(again, Some((was, err)));
                    }
                    Err(e) => return this.finish(Err(e)),
                },
                State::Done => panic!("a PatchFuture polled after it completed"),
            }
        }
    }
}

impl<E, F> PatchFuture<E, F> {
    fn finish<T>(&mut self, out: T) -> Poll<T> {
        self.state = State::Done;
        Poll::Ready(out)
    }
}

/// The update and condition that write `after` over `before` (both
/// encoded by the entity), conditioned on `raw` (the item as stored and
/// read); `None` when nothing changed. Not generic: one copy serves every
/// entity.
fn plan(
    meta: &'static EntityMeta,
    raw: &Item,
    before: &Item,
    after: &Item,
    extra: Option<&Condition>,
) -> Result<Option<(Update, Condition)>, Error> {
    for k in std::iter::once(&meta.pk).chain(meta.sk.as_ref()) {
        let (was, now) = (before.get(k.attr), after.get(k.attr));
        if was != now {
            return Err(Error::refused(RefusedReason::TableKeyChanged, format!(
                "a patch of `{}` changed its table key `{}` (\"{}\") from {} to {}: a key is the item's identity, so move the item with db.move_item(..)",
                meta.type_name,
                k.attr,
                k.template,
                shown(was),
                shown(now)
            )));
        }
    }
    // What a put of the item would refuse (over 400 KB, a number DynamoDB
    // cannot store, a value too deep), the patch refuses too.
    crate::check::check_item(meta, after)?;
    let version = meta.version_attr;
    let mut changed: Vec<&str> = after
        .iter()
        .filter(|(a, v)| before.get(*a) != Some(*v))
        .map(|(a, _)| a.as_str())
        .chain(
            before
                .keys()
                .filter(|a| !after.contains_key(*a))
                .map(String::as_str),
        )
        .filter(|a| Some(*a) != version)
        .collect();
    if changed.is_empty() {
        return Ok(None);
    }
    // One order, so one patch always renders the same expression.
    changed.sort_unstable();
    let mut update = Update::new();
    for a in &changed {
        update = match after.get(*a) {
            Some(v) => update.set_value(*a, v.clone()),
            None => update.remove(*a),
        };
    }
    let mut cond = Condition::attr(meta.pk.attr).exists();
    match version {
        Some(v) => {
            let (_, next) = bump_version(raw, v)?;
            update = update.set_value(v, next);
            cond = cond.and(held(raw, v));
        }
        None => {
            for a in key_inputs(meta, &changed) {
                cond = cond.and(held(raw, a));
            }
        }
    }
    if let Some(c) = extra {
        cond = cond.and(c.clone());
    }
    let update = crate::rules::stamp_update(meta, update, time::OffsetDateTime::now_utc());
    Ok(Some((update, cond)))
}

/// `attr` still holds what `raw` read (or is still absent).
fn held(raw: &Item, attr: &str) -> Condition {
    match raw.get(attr) {
        Some(v) => Condition::attr(attr).eq(v.clone()),
        None => Condition::attr(attr).not_exists(),
    }
}

/// The attributes of the inputs of every index key (a template's) that
/// `changed` rewrites or feeds, sorted: what a patch without a version
/// conditions its write on.
fn key_inputs<'m>(meta: &'m EntityMeta, changed: &[&str]) -> Vec<&'m str> {
    let attr_of = |name: &'m str| -> &'m str {
        meta.fields
            .iter()
            .find(|f| f.name == name)
            .map_or(name, |f| f.attr)
    };
    let keys = meta.indexes.iter().flat_map(|ix| match &ix.key {
        IndexKey::Template { pk, sk } => vec![Some(pk), sk.as_ref()],
        IndexKey::Native(_) => Vec::new(),
    });
    let mut inputs: Vec<&str> = Vec::new();
    for k in keys.flatten() {
        let k: &KeyMeta = k;
        let feeds =
            changed.contains(&k.attr) || k.fields.iter().any(|n| changed.contains(&attr_of(n)));
        if feeds {
            inputs.extend(k.fields.iter().map(|n| attr_of(n)));
        }
    }
    inputs.sort_unstable();
    inputs.dedup();
    inputs
}

/// A key attribute's value for a message, or "nothing".
fn shown(v: Option<&AttributeValue>) -> String {
    match v {
        Some(AttributeValue::S(s)) => format!("{s:?}"),
        Some(other) => format!("{other:?}"),
        None => "nothing".to_owned(),
    }
}

impl Db {
    /// Changes the item at `key` with `change` and writes back what changed
    /// in one UpdateItem, every index key its inputs feed rebuilt; resolves
    /// to the item as written, or `None` when no item has the key. The
    /// one-call form of a PATCH handler: see [`PatchItem`].
    pub fn patch<E: Entity, F: FnMut(&mut E)>(&self, key: Key<E>, change: F) -> PatchItem<E, F> {
        PatchItem {
            db: self.clone(),
            key,
            change,
            cond: None,
            attempts: ATTEMPTS,
        }
    }
}
