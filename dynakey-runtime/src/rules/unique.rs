//! Unique values (`#[dynamo(unique)]`): each value an item holds is also
//! the key of a guard item, written in the same transaction as the item.
//!
//! A guard's partition key is `_UNIQUE#<discriminator>#<attribute>#<value>`
//! (its sort key, when the table has one, `_UNIQUE`). A scoped value
//! (`#[dynamo(unique(scope = tenant))]`: one email per tenant) is guarded
//! per value of its scope: `_UNIQUE#<discriminator>#<attribute>@<scope
//! attribute>#<length of the scope's text>:<scope's text>#<value>` (the
//! length keeps a scope holding `#` apart from a value holding it), so two
//! tenants may hold one email and one tenant may not hold it twice; an
//! update of either the value or its scope moves the guard, and a delete
//! releases it. A guard holds the
//! discriminator `_UNIQUE` and the owner's key text in `_owner`. A write of
//! an entity with unique fields reads the item's current values
//! (consistently), then sends one transaction: the item's own action, on
//! condition that it still holds the values read (so two writers cannot
//! both move a guard); a put of each new value's guard, on condition that
//! none exists ([`Error::Unique`] when one does); and a delete of each old
//! value's guard. A put, a typed update that sets or removes a unique field,
//! and a delete go this way; a write that lost a race with another writer
//! of the same item reads again and retries (three attempts).
//!
//! In `db.transact_write()`, a put, a delete and an update that sets or
//! removes a unique field of a unique entity get their guards when the
//! transaction is sent: the items are read then, each action is conditioned
//! on the values read and the guard moves join the transaction (a taken
//! value is [`Error::Unique`]; a concurrent change of such an item cancels
//! the transaction, which is not retried). Batches and `db.move_item`
//! cannot, so they refuse a unique entity's writes ([`Error::Refused`]);
//! `db.update_raw` with a raw expression writes what it is given.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! use dynakey_runtime::{Entity, Error};
//!
//! #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! #[dynamo(crate = "dynakey_runtime", entity = "USER")]
//! #[pk("USER#<id>")]
//! struct User {
//!     id: String,
//!     #[dynamo(unique)]
//!     email: String,
//! }
//!
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("users");
//! db.create_table(&[User::META]).await.unwrap();
//! db.put(&User { id: "ann".into(), email: "a@x.io".into() }).await.unwrap();
//! let err = db.put(&User { id: "bob".into(), email: "a@x.io".into() }).await.unwrap_err();
//! assert!(matches!(err, Error::Unique { entity: "User", field: "email", .. }));
//!
//! // Ann changes her email: hers moves, the old one is free again.
//! db.update(User::update("ann").set_email("ann@x.io")).await.unwrap();
//! db.put(&User { id: "bob".into(), email: "a@x.io".into() }).await.unwrap();
//! // Deleting Bob frees his.
//! db.delete(User::key("bob").unwrap()).await.unwrap();
//! db.put(&User { id: "cat".into(), email: "a@x.io".into() }).await.unwrap();
//! # });
//! ```
//!
//! Scoped: one email per tenant.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! use dynakey_runtime::{Entity, Error};
//!
//! #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! #[dynamo(crate = "dynakey_runtime", entity = "MEMBER")]
//! #[pk("TENANT#<tenant>#MEMBER#<id>")]
//! struct Member {
//!     tenant: String,
//!     id: String,
//!     #[dynamo(unique(scope = tenant))]
//!     email: String,
//! }
//!
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("members");
//! db.create_table(&[Member::META]).await.unwrap();
//! let m = |tenant: &str, id: &str| Member { tenant: tenant.into(), id: id.into(), email: "a@x.io".into() };
//! db.put(&m("acme", "ann")).await.unwrap();
//! // Another tenant may hold the same email...
//! db.put(&m("globex", "ann")).await.unwrap();
//! // ...one tenant may not hold it twice.
//! let err = db.put(&m("acme", "bob")).await.unwrap_err();
//! assert!(matches!(err, Error::Unique { field: "email", .. }));
//! # });
//! ```

use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta};
use crate::error::{Error, ItemRef, RefusedReason, MAX_PARTITION_KEY_BYTES};
use crate::explain::WriteCost;
use crate::expr::{Condition, Update};
use crate::send::{send, To};
use crate::write::{Action, Write, WriteOpts};

/// The discriminator of guard items.
pub const GUARD: &str = "_UNIQUE";

/// How often a write that lost a race with another writer is tried.
const ATTEMPTS: usize = 3;

/// The text a guard holds for a stored value; `None` (no guard) for an
/// absent value, `NULL` or an empty string.
pub fn value_text(v: Option<&AttributeValue>) -> Option<String> {
    match v? {
        AttributeValue::S(s) if !s.is_empty() => Some(s.clone()),
        AttributeValue::N(n) => Some(n.clone()),
        AttributeValue::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The partition key of the guard of `value` of attribute `attr`, in
/// `scope` (its attribute and text) when the value is scoped.
fn guard_pk(meta: &EntityMeta, attr: &str, scope: Option<(&str, &str)>, value: &str) -> String {
    let d = meta.discriminator;
    match scope {
        None => format!("{GUARD}#{d}#{attr}#{value}"),
        Some((s, text)) => format!("{GUARD}#{d}#{attr}@{s}#{}:{text}#{value}", text.len()),
    }
}

/// The key of the guard of `value` of a table-wide unique attribute
/// `attr` (see [`scoped_guard_key`] for a scoped one).
pub fn guard_key(meta: &EntityMeta, attr: &str, value: &str) -> Item {
    guard_item_key(meta, guard_pk(meta, attr, None, value))
}

/// The key of the guard of `value` of unique attribute `attr` scoped by
/// the text `scope` (its scope attribute's stored text, as
/// [`value_text`] gives it; empty for an item without one).
pub fn scoped_guard_key(meta: &EntityMeta, attr: &str, scope: &str, value: &str) -> Item {
    let scope = meta.unique_scope(attr).map(|s| (s, scope));
    guard_item_key(meta, guard_pk(meta, attr, scope, value))
}

/// The key of the guard whose partition key is `pk`.
fn guard_item_key(meta: &EntityMeta, pk: String) -> Item {
    let mut key = Item::new();
    key.insert(meta.pk.attr.to_owned(), AttributeValue::S(pk));
    if let Some(sk) = &meta.sk {
        key.insert(sk.attr.to_owned(), AttributeValue::S(GUARD.to_owned()));
    }
    key
}

/// The guard of unique attribute `attr` holding `v` in an item whose
/// scope attribute holds `scope` (for a scoped `attr`): its partition key
/// and the value's text; `None` when the value holds no guard.
fn guard_of(
    meta: &EntityMeta,
    attr: &str,
    v: Option<&AttributeValue>,
    scope: Option<&AttributeValue>,
) -> Option<(String, String)> {
    let value = value_text(v)?;
    let text = value_text(scope).unwrap_or_default();
    let scope = meta.unique_scope(attr).map(|s| (s, text.as_str()));
    Some((guard_pk(meta, attr, scope, &value), value))
}

/// The unique attributes of `meta`, then the scope attributes that are
/// not unique themselves: what a guarded write reads and conditions on.
fn guarded_attrs(meta: &'static EntityMeta) -> impl Iterator<Item = &'static str> {
    let scopes = meta
        .unique_scopes
        .iter()
        .map(|(_, s)| *s)
        .enumerate()
        .filter(move |(i, s)| {
            !meta.unique.contains(s) && !meta.unique_scopes[..*i].iter().any(|(_, t)| t == s)
        })
        .map(|(_, s)| s);
    meta.unique.iter().copied().chain(scopes)
}

/// Whether `update` sets or removes a unique attribute of `meta` or the
/// scope of one (its guards move).
pub(crate) fn touches_guards(meta: &'static EntityMeta, update: &Update) -> bool {
    guarded_attrs(meta).any(|a| update.touches(a))
}

/// Refuses a unique value whose guard's partition key would be longer than
/// DynamoDB holds (before anything is read or written): the value in
/// `item`'s scope, or (an update, the scope not read yet) in an empty one.
fn guard_fits(
    meta: &EntityMeta,
    attr: &str,
    v: Option<&AttributeValue>,
    item: Option<&Item>,
) -> Result<(), Error> {
    let scope = meta
        .unique_scope(attr)
        .and_then(|s| item.and_then(|i| i.get(s)));
    let Some((pk, value)) = guard_of(meta, attr, v, scope) else {
        return Ok(());
    };
    fits(meta, attr, &pk, &value)
}

/// Refuses a guard partition key `pk` (of `value` of `attr`) over the
/// limit.
fn fits(meta: &EntityMeta, attr: &str, pk: &str, value: &str) -> Result<(), Error> {
    if pk.len() <= MAX_PARTITION_KEY_BYTES {
        return Ok(());
    }
    let room = MAX_PARTITION_KEY_BYTES - (pk.len() - value.len());
    Err(Error::refused(RefusedReason::KeyTooLong, format!(
        "{}: the unique value of `{attr}` is {} bytes, and its guard's partition key `{GUARD}#{}#{attr}#…` would be {} bytes, over the {MAX_PARTITION_KEY_BYTES} DynamoDB allows (a unique `{attr}` holds at most {room} bytes)",
        meta.type_name,
        value.len(),
        meta.discriminator,
        pk.len()
    )))
}

/// Refuses a write of a unique entity where the guards cannot be kept.
pub(crate) fn refuse_in<E: Entity>(what: &str) -> Result<(), Error> {
    if E::META.unique.is_empty() {
        return Ok(());
    }
    Err(Error::refused(RefusedReason::Unsupported, format!(
        "{} has #[dynamo(unique)] fields, whose guards need the stored values read first: {what} cannot do that; write it with db.put, db.update or db.delete",
        E::META.type_name
    )))
}

/// The new value of a unique attribute that `update` sets or removes:
/// `None` when the update leaves it alone.
pub(crate) fn updated_value(
    update: &Update,
    attr: &str,
    old: Option<&AttributeValue>,
) -> Option<Result<Option<AttributeValue>, Error>> {
    update.touches(attr).then(|| {
        update.assigned(attr, old).ok_or_else(|| {
            Error::refused(RefusedReason::Unsupported, format!(
                "the unique attribute (or unique value's scope) {attr} can only be set or removed by an update"
            ))
        })
    })
}

/// What one guarded write does to the item, given its stored form.
#[derive(Clone)]
pub(crate) struct Plan {
    /// The item's own action.
    pub action: Action,
    /// Each unique attribute the write changes, with its new value.
    pub values: Vec<(&'static str, Option<AttributeValue>)>,
}

/// Runs a guarded write of the item at `key`: reads it, asks `plan` what
/// to write, and sends the item's action with the guard moves in one
/// transaction. Resolves to the item as it was read.
///
/// Not generic over the entity (its metadata is a value, the plan a trait
/// object): one copy of this loop serves every entity, instead of one per
/// entity in each user's crate.
pub(crate) async fn write(
    db: &Db,
    meta: &'static EntityMeta,
    key: Item,
    target: ItemRef,
    cond: Option<Condition>,
    plan: &(dyn Fn(Option<&Item>) -> Result<Plan, Error> + Send + Sync),
) -> Result<Option<Item>, Error> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let old = read_item(db, meta, &key).await?;
        let p = plan(old.as_ref())?;
        let user_cond = cond.is_some();
        let mut opts = WriteOpts {
            cond: cond.clone(),
            ..WriteOpts::default()
        };
        let (conds, moves, puts) = guard_moves(meta, old.as_ref(), &p.values, &target)?;
        for c in conds {
            opts.and(c);
        }
        // The item's action first, its guards after it.
        let guards: Vec<Taken> = puts
            .into_iter()
            .map(|(i, attr, value)| (1 + i, meta, attr, value))
            .collect();
        let mut tx = db.transact_write();
        tx = tx.push(Write {
            cost: WriteCost::of(meta, &p.action),
            target: target.clone(),
            action: p.action,
            opts,
        });
        for m in moves {
            tx = tx.push(m);
        }
        let err = match tx.send().await {
            Ok(()) => return Ok(old),
            Err(e) => e,
        };
        let Error::TransactionCanceled { reasons } = &err else {
            return Err(err);
        };
        // The item's own condition first: its values moved since they
        // were read (another writer: read again), or the caller's failed.
        let item_failed = reasons
            .first()
            .filter(|r| r.code == "ConditionalCheckFailed");
        if let Some(r) = item_failed {
            let now = |a: &str| r.item.as_ref().and_then(|i| i.get(a));
            let moved = p
                .values
                .iter()
                .any(|(a, _)| now(a) != old.as_ref().and_then(|o| o.get(*a)));
            if user_cond && !moved {
                let item = r.item.clone();
                return Err(Error::ConditionFailed {
                    item,
                    source: Box::new(err),
                });
            }
        } else if let Some(e) = unique_error(reasons, &guards) {
            return Err(e);
        } else if attempt >= ATTEMPTS || !reasons.iter().any(|r| r.code == "TransactionConflict") {
            // Another writer won every race, or the cancellation is not a race.
            return Err(err);
        }
    }
}

/// A guard put of a transaction: its position, the entity, the attribute
/// and the value.
pub(crate) type Taken = (usize, &'static EntityMeta, &'static str, String);

/// The guard moves of one write of an item read as `old` that writes
/// `values` (unique and scope attributes, each with its new value): the
/// conditions that those attributes are still those read, the guard puts
/// and deletes, and each guard put's (position among the moves,
/// attribute, value). A guard moves when its value or its scope changes.
#[allow(clippy::type_complexity)]
fn guard_moves(
    meta: &'static EntityMeta,
    old: Option<&Item>,
    values: &[(&'static str, Option<AttributeValue>)],
    target: &ItemRef,
) -> Result<
    (
        Vec<Condition>,
        Vec<Write>,
        Vec<(usize, &'static str, String)>,
    ),
    Error,
> {
    let (mut conds, mut moves, mut puts) = (Vec::new(), Vec::new(), Vec::new());
    let stored = |a: &str| old.and_then(|o| o.get(a));
    // `Some(new)` when the write writes `a`.
    let written = |a: &str| {
        values
            .iter()
            .find(|(x, _)| *x == a)
            .map(|(_, v)| v.as_ref())
    };
    for (attr, _) in values {
        conds.push(match stored(attr) {
            Some(v) => Condition::attr(*attr).eq(v.clone()),
            None => Condition::attr(*attr).not_exists(),
        });
    }
    for attr in meta.unique {
        let scope = meta.unique_scope(attr);
        let (new, new_scope) = (written(attr), scope.and_then(written));
        if new.is_none() && new_scope.is_none() {
            continue;
        }
        let was = guard_of(meta, attr, stored(attr), scope.and_then(stored));
        let now = guard_of(
            meta,
            attr,
            new.unwrap_or_else(|| stored(attr)),
            new_scope.unwrap_or_else(|| scope.and_then(stored)),
        );
        if was == now {
            continue;
        }
        if let Some((pk, v)) = now {
            fits(meta, attr, &pk, &v)?;
            puts.push((moves.len(), *attr, v));
            moves.push(guard_put(meta, pk, target));
        }
        if let Some((pk, _)) = was {
            moves.push(guard_write(meta, pk, Action::Delete, None));
        }
    }
    Ok((conds, moves, puts))
}

/// [`Error::Unique`] when a guard put of the cancelled transaction failed
/// its condition.
fn unique_error(reasons: &[crate::error::CancelReason], guards: &[Taken]) -> Option<Error> {
    let (_, meta, attr, value) = guards.iter().find(|(i, ..)| {
        reasons
            .get(*i)
            .is_some_and(|r| r.code == "ConditionalCheckFailed")
    })?;
    let field = meta
        .fields
        .iter()
        .find(|f| f.attr == *attr)
        .map_or(*attr, |f| f.name);
    Some(Error::Unique {
        entity: meta.type_name,
        field,
        value: value.clone(),
    })
}

/// A cancelled transaction's error, as [`Error::Unique`] when a guard was
/// taken.
pub(crate) fn taken(err: Error, guards: &[Taken]) -> Error {
    match &err {
        Error::TransactionCanceled { reasons } => unique_error(reasons, guards).unwrap_or(err),
        _ => err,
    }
}

/// Adds the guards of the transaction's actions on unique entities (at
/// `guarded`): reads each item, conditions its action on the values read,
/// and appends the guard puts and deletes. Returns the guard puts.
pub(crate) async fn add_guards(
    db: &Db,
    writes: &mut Vec<Write>,
    guarded: &[(usize, &'static EntityMeta)],
) -> Result<Vec<Taken>, Error> {
    let mut out = Vec::new();
    for &(i, meta) in guarded {
        match writes.get(i).map(|w| &w.action) {
            Some(Action::Put(item)) => {
                for a in meta.unique {
                    guard_fits(meta, a, item.get(*a), Some(item))?;
                }
            }
            Some(Action::Update(_, u)) => check_update_guards(meta, u)?,
            _ => {}
        }
    }
    for &(i, meta) in guarded {
        let Some(w) = writes.get(i) else { continue };
        let key = match &w.action {
            Action::Put(item) => key_of(meta, item),
            Action::Update(key, _) | Action::Delete(key) | Action::Check(key) => key.clone(),
        };
        let old = read_item(db, meta, &key).await?;
        let mut values = Vec::new();
        for a in guarded_attrs(meta) {
            let v = match &w.action {
                Action::Put(item) => item.get(a).cloned(),
                Action::Update(_, u) => {
                    match updated_value(u, a, old.as_ref().and_then(|o| o.get(a))) {
                        Some(v) => v?,
                        None => continue,
                    }
                }
                _ => None,
            };
            values.push((a, v));
        }
        let target = w.target.clone();
        let (conds, moves, puts) = guard_moves(meta, old.as_ref(), &values, &target)?;
        for c in conds {
            writes[i].opts.and(c);
        }
        let base = writes.len();
        out.extend(puts.into_iter().map(|(p, a, v)| (base + p, meta, a, v)));
        writes.extend(moves);
    }
    Ok(out)
}

/// The put of the guard at partition key `pk`, on condition that none
/// holds the value.
fn guard_put(meta: &EntityMeta, pk: String, owner: &ItemRef) -> Write {
    let mut item = guard_item_key(meta, pk.clone());
    item.insert(
        meta.discriminator_attr.to_owned(),
        AttributeValue::S(GUARD.to_owned()),
    );
    let owner = match &owner.sk {
        Some(sk) => format!("{} / {sk}", owner.pk),
        None => owner.pk.clone(),
    };
    item.insert("_owner".to_owned(), AttributeValue::S(owner));
    guard_write(
        meta,
        pk,
        |_| Action::Put(item),
        Some(Condition::attr(meta.pk.attr).not_exists()),
    )
}

fn guard_write(
    meta: &EntityMeta,
    pk: String,
    action: impl FnOnce(Item) -> Action,
    cond: Option<Condition>,
) -> Write {
    let key = guard_item_key(meta, pk);
    let s = |a: &str| match key.get(a) {
        Some(AttributeValue::S(s)) => s.clone(),
        _ => String::new(),
    };
    let target = ItemRef::new(GUARD, s(meta.pk.attr), meta.sk.as_ref().map(|k| s(k.attr)));
    Write {
        cost: WriteCost::plain(),
        target,
        action: action(key),
        opts: WriteOpts {
            cond,
            ..WriteOpts::default()
        },
    }
}

/// The item at `key`, read consistently (an item of `meta`, or one of its
/// guards): before a guarded write, and after a guarded update asked for
/// the new item.
pub(crate) async fn read_item(
    db: &Db,
    meta: &EntityMeta,
    key: &Item,
) -> Result<Option<Item>, Error> {
    let req = GetItemInput::builder()
        .table_name(&*db.table)
        .set_key(Some(key.clone()))
        .consistent_read(true);
    let out = send(&To::db(db).entity(meta.type_name), req).await?;
    Ok(crate::write::non_empty(out.item()).cloned())
}

/// The table key attributes of `item`.
fn key_of(meta: &EntityMeta, item: &Item) -> Item {
    let attrs = std::iter::once(meta.pk.attr).chain(meta.sk.as_ref().map(|k| k.attr));
    attrs
        .filter_map(|a| Some((a.to_owned(), item.get(a)?.clone())))
        .collect()
}

/// A put of a unique entity; resolves to the item it replaced.
pub(crate) async fn put(
    db: &Db,
    meta: &'static EntityMeta,
    item: Item,
    cond: Option<Condition>,
) -> Result<Option<Item>, Error> {
    for a in meta.unique {
        guard_fits(meta, a, item.get(*a), Some(&item))?;
    }
    let (key, target) = (key_of(meta, &item), crate::check::key_text(meta, &item));
    let values = guarded_attrs(meta).map(|a| (a, item.get(a).cloned()));
    let plan = Plan {
        action: Action::Put(item.clone()),
        values: values.collect(),
    };
    write(db, meta, key, target, cond, &|_| Ok(plan.clone())).await
}

/// Refuses an update setting a unique value whose guard would not fit.
fn check_update_guards(meta: &EntityMeta, update: &Update) -> Result<(), Error> {
    for a in meta.unique {
        if let Some(Some(v)) = update.assigned(a, None) {
            guard_fits(meta, a, Some(&v), None)?;
        }
    }
    Ok(())
}

/// A typed update that sets or removes a unique field; resolves to the
/// item before it.
pub(crate) async fn update(
    db: &Db,
    meta: &'static EntityMeta,
    key: Item,
    target: ItemRef,
    update: Update,
    cond: Option<Condition>,
) -> Result<Option<Item>, Error> {
    check_update_guards(meta, &update)?;
    write(db, meta, key.clone(), target, cond, &|old| {
        let mut values = Vec::new();
        for a in guarded_attrs(meta) {
            if let Some(v) = updated_value(&update, a, old.and_then(|o| o.get(a))) {
                values.push((a, v?));
            }
        }
        let action = Action::Update(key.clone(), update.clone());
        Ok(Plan { action, values })
    })
    .await
}

/// A delete of a unique entity, with its guards; resolves to the item
/// deleted.
pub(crate) async fn delete(
    db: &Db,
    meta: &'static EntityMeta,
    key: Item,
    target: ItemRef,
    cond: Option<Condition>,
) -> Result<Option<Item>, Error> {
    let plan = Plan {
        action: Action::Delete(key.clone()),
        values: guarded_attrs(meta).map(|a| (a, None)).collect(),
    };
    write(db, meta, key, target, cond, &|_| Ok(plan.clone())).await
}
