//! Unique values (`#[dynamo(unique)]`): each value an item holds is also
//! the key of a guard item, written in the same transaction as the item.
//!
//! A guard's partition key is `_UNIQUE#<discriminator>#<attribute>#<value>`
//! (its sort key, when the table has one, `_UNIQUE`); it holds the
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

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta};
use crate::error::{Error, ItemRef};
use crate::explain::WriteCost;
use crate::expr::{Condition, Update};
use crate::ops::{Action, Write, WriteOpts};

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

/// The key of the guard of `value` of attribute `attr`.
pub fn guard_key(meta: &EntityMeta, attr: &str, value: &str) -> Item {
    let mut key = Item::new();
    let pk = format!("{GUARD}#{}#{attr}#{value}", meta.discriminator);
    key.insert(meta.pk.attr.to_owned(), AttributeValue::S(pk));
    if let Some(sk) = &meta.sk {
        key.insert(sk.attr.to_owned(), AttributeValue::S(GUARD.to_owned()));
    }
    key
}

/// Refuses a write of a unique entity where the guards cannot be kept.
pub(crate) fn refuse_in<E: Entity>(what: &str) -> Result<(), Error> {
    if E::META.unique.is_empty() {
        return Ok(());
    }
    Err(Error::refused(format!(
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
            Error::refused(format!(
                "the unique attribute {attr} can only be set or removed by an update"
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
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let old = read(db, &key).await?;
        let p = plan(old.as_ref())?;
        let user_cond = cond.is_some();
        let mut opts = WriteOpts {
            cond: cond.clone(),
            ..WriteOpts::default()
        };
        let (conds, moves, puts) = guard_moves(meta, old.as_ref(), &p.values, &target);
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
        } else if !reasons.iter().any(|r| r.code == "TransactionConflict") {
            return Err(err);
        }
        last = Some(err);
    }
    Err(last.unwrap_or_else(|| Error::refused("a guarded write found no attempt")))
}

/// A guard put of a transaction: its position, the entity, the attribute
/// and the value.
pub(crate) type Taken = (usize, &'static EntityMeta, &'static str, String);

/// The guard moves of one write of an item read as `old`: the conditions
/// that its values are still those read, the guard puts and deletes, and
/// each guard put's (position among the moves, attribute, value).
#[allow(clippy::type_complexity)]
fn guard_moves(
    meta: &'static EntityMeta,
    old: Option<&Item>,
    values: &[(&'static str, Option<AttributeValue>)],
    target: &ItemRef,
) -> (
    Vec<Condition>,
    Vec<Write>,
    Vec<(usize, &'static str, String)>,
) {
    let (mut conds, mut moves, mut puts) = (Vec::new(), Vec::new(), Vec::new());
    for (attr, new) in values {
        let was = old.and_then(|o| o.get(*attr));
        conds.push(match was {
            Some(v) => Condition::attr(*attr).eq(v.clone()),
            None => Condition::attr(*attr).not_exists(),
        });
        let (was, now) = (value_text(was), value_text(new.as_ref()));
        if was == now {
            continue;
        }
        if let Some(v) = now {
            puts.push((moves.len(), *attr, v.clone()));
            moves.push(guard_put(meta, attr, &v, target));
        }
        if let Some(v) = was {
            moves.push(guard_write(meta, attr, &v, Action::Delete, None));
        }
    }
    (conds, moves, puts)
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
        let Some(w) = writes.get(i) else { continue };
        let key = match &w.action {
            Action::Put(item) => key_of(meta, item),
            Action::Update(key, _) | Action::Delete(key) | Action::Check(key) => key.clone(),
        };
        let old = read(db, &key).await?;
        let mut values = Vec::new();
        for a in meta.unique {
            let v = match &w.action {
                Action::Put(item) => item.get(*a).cloned(),
                Action::Update(_, u) => {
                    match updated_value(u, a, old.as_ref().and_then(|o| o.get(*a))) {
                        Some(v) => v?,
                        None => continue,
                    }
                }
                _ => None,
            };
            values.push((*a, v));
        }
        let target = w.target.clone();
        let (conds, moves, puts) = guard_moves(meta, old.as_ref(), &values, &target);
        for c in conds {
            writes[i].opts.and(c);
        }
        let base = writes.len();
        out.extend(puts.into_iter().map(|(p, a, v)| (base + p, meta, a, v)));
        writes.extend(moves);
    }
    Ok(out)
}

/// The put of a guard, on condition that none holds the value.
fn guard_put(meta: &EntityMeta, attr: &str, value: &str, owner: &ItemRef) -> Write {
    let mut item = guard_key(meta, attr, value);
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
        attr,
        value,
        |_| Action::Put(item),
        Some(Condition::attr(meta.pk.attr).not_exists()),
    )
}

fn guard_write(
    meta: &EntityMeta,
    attr: &str,
    value: &str,
    action: impl FnOnce(Item) -> Action,
    cond: Option<Condition>,
) -> Write {
    let key = guard_key(meta, attr, value);
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

/// The item at `key`, read consistently.
async fn read(db: &Db, key: &Item) -> Result<Option<Item>, Error> {
    let out = db
        .client
        .get_item()
        .table_name(&*db.table)
        .set_key(Some(key.clone()))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| Error::from_sdk(e, db.sdk_attempts()))?;
    Ok(crate::ops::non_empty(out.item()).cloned())
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
    let (key, target) = (key_of(meta, &item), crate::check::key_text(meta, &item));
    let values = meta.unique.iter().map(|a| (*a, item.get(*a).cloned()));
    let plan = Plan {
        action: Action::Put(item.clone()),
        values: values.collect(),
    };
    write(db, meta, key, target, cond, &|_| Ok(plan.clone())).await
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
    write(db, meta, key.clone(), target, cond, &|old| {
        let mut values = Vec::new();
        for a in meta.unique {
            if let Some(v) = updated_value(&update, a, old.and_then(|o| o.get(*a))) {
                values.push((*a, v?));
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
        values: meta.unique.iter().map(|a| (*a, None)).collect(),
    };
    write(db, meta, key, target, cond, &|_| Ok(plan.clone())).await
}

/// Reads the item at `key` (after a guarded update asked for the new one).
pub(crate) async fn read_item(db: &Db, key: &Item) -> Result<Option<Item>, Error> {
    read(db, key).await
}
