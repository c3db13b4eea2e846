//! What a migration step writes for one stored item ([`plan`]), and the
//! item as that write leaves it (what a dry run carries to the next step).

use aws_sdk_dynamodb::types::AttributeValue;

use super::marks::Marks;
use super::migration::{Kind, Migration, Rekeyed};
use crate::changes::same_value;
use crate::codec::Item;
use crate::entity::{EntityMeta, IndexKey, IndexKind};
use crate::error::Error;
use crate::expr::{Condition, Update};

/// Write units of an item (1 KB each, at least one).
fn units(item: &Item) -> u64 {
    (crate::size::item_size(item) as u64).div_ceil(1024).max(1)
}

/// One write a step makes for one item.
pub(super) enum Write {
    Update {
        key: Item,
        // Boxed: an update is large beside a delete's key.
        update: Box<Update>,
        cond: Condition,
        /// The item as the update leaves it.
        after: Item,
    },
    Delete {
        key: Item,
        cond: Condition,
    },
    Move {
        old: Item,
        new: Item,
    },
}

impl Write {
    pub(super) fn units(&self) -> u64 {
        match self {
            Write::Update { key, .. } | Write::Delete { key, .. } => units(key),
            Write::Move { old, new } => 2 * (units(old) + units(new)),
        }
    }
}

/// The key attributes of a stored item.
pub(super) fn key_of(item: &Item, marks: &Marks) -> Item {
    let mut k = Item::new();
    for a in std::iter::once(&marks.pk).chain(marks.sk.iter()) {
        if let Some(v) = item.get(a) {
            k.insert(a.clone(), v.clone());
        }
    }
    k
}

/// An update and the item it leaves, built together.
struct Edit {
    update: Update,
    after: Item,
}

impl Edit {
    fn of(item: &Item) -> Self {
        Edit {
            update: Update::new(),
            after: item.clone(),
        }
    }

    fn set(&mut self, attr: &str, v: AttributeValue) {
        self.after.insert(attr.to_owned(), v.clone());
        self.update = std::mem::take(&mut self.update).set_value(attr, v);
    }

    fn remove(&mut self, attr: &str) {
        self.after.remove(attr);
        self.update = std::mem::take(&mut self.update).remove(attr);
    }

    fn write(self, key: Item, cond: Condition) -> Write {
        Write::Update {
            key,
            update: Box::new(self.update),
            cond,
            after: self.after,
        }
    }
}

/// What a backfill writes to `item` of `entity` so that its index keys are
/// what `to_item()` writes (`want`), on condition that what they were made
/// from is still what was read; `None` when nothing differs.
///
/// The attributes reconciled: the key attributes of the entity's template
/// indexes (rewritten from their inputs), its native key attributes (the
/// fields themselves, kept in the form `to_item()` writes, so that the
/// index orders them as values), and the key attributes of the live
/// table's other indexes that are none of the entity's fields — synthetic
/// keys `to_item()` no longer writes (an index moved to a native key, or
/// dropped from the entity), which are removed.
fn backfill(
    entity: &EntityMeta,
    item: &Item,
    want: &Item,
    marks: &Marks,
) -> Option<(Edit, Condition)> {
    let mut update = Edit::of(item);
    let mut cond = Condition::attr(marks.pk.as_str()).exists();
    let mut any = false;
    let reconcile = |attr: &str, update: &mut Edit| -> bool {
        match (item.get(attr), want.get(attr)) {
            // By value: an index key another client wrote as `1E+2`
            // needs no rewrite to `100`.
            (a, Some(b)) if !a.is_some_and(|a| same_value(a, b)) => {
                update.set(attr, b.clone());
                true
            }
            (Some(_), None) => {
                update.remove(attr);
                true
            }
            _ => false,
        }
    };
    let mut done: Vec<&str> = Vec::new();
    for ix in entity.indexes {
        match &ix.key {
            IndexKey::Template { pk, sk } => {
                // A local index's partition key is the table's.
                let global = matches!(ix.kind, IndexKind::Global);
                for k in global.then_some(pk).into_iter().chain(sk) {
                    any |= reconcile(k.attr, &mut update);
                    done.push(k.attr);
                    // The inputs read are still the stored ones.
                    for name in k.fields {
                        if let Some(f) = entity.fields.iter().find(|f| f.name == *name) {
                            cond = cond.and(unchanged(item, f.attr));
                        }
                    }
                }
            }
            IndexKey::Native(n) => {
                for a in n.attrs() {
                    if !done.contains(&a.attr) && reconcile(a.attr, &mut update) {
                        any = true;
                        cond = cond.and(unchanged(item, a.attr));
                    }
                    done.push(a.attr);
                }
            }
        }
    }
    for attr in &marks.index_attrs {
        let field = entity.fields.iter().any(|f| f.attr == attr);
        if !field && !done.contains(&attr.as_str()) && reconcile(attr, &mut update) {
            any = true;
            cond = cond.and(unchanged(item, attr));
        }
    }
    any.then_some((update, cond))
}

/// "`attr` still holds what was read": equal, or still absent.
fn unchanged(item: &Item, attr: &str) -> Condition {
    match item.get(attr) {
        Some(v) => Condition::attr(attr).eq(v.clone()),
        None => Condition::attr(attr).not_exists(),
    }
}

/// What `step` writes for `item`, if anything.
pub(super) fn plan(step: &Migration, item: &Item, marks: &Marks) -> Result<Option<Write>, Error> {
    let key = key_of(item, marks);
    Ok(match step.kind {
        Kind::Rekey { convert, .. } => match convert(item)? {
            Rekeyed::Old(new) => Some(Write::Move { old: key, new }),
            Rekeyed::Skip => None,
        },
        Kind::Backfill { entity, reencode } => {
            let Some(want) = reencode(item)? else {
                return Ok(None);
            };
            backfill(entity, item, &want, marks).map(|(edit, cond)| edit.write(key, cond))
        }
        Kind::Rename { from, to, .. } => {
            let Some(value) = item.get(from) else {
                return Ok(None);
            };
            let mut edit = Edit::of(item);
            let cond = if item.contains_key(to) {
                // A newer write holds the new name: the old one goes.
                Condition::attr(from)
                    .exists()
                    .and(Condition::attr(to).exists())
            } else {
                edit.set(to, value.clone());
                unchanged(item, from).and(Condition::attr(to).not_exists())
            };
            edit.remove(from);
            Some(edit.write(key, cond))
        }
        Kind::FillDefault { attr, reencode, .. } => {
            if item.contains_key(attr) {
                return Ok(None);
            }
            let Some(value) = reencode(item)?.and_then(|mut i| i.remove(attr)) else {
                return Ok(None);
            };
            let mut edit = Edit::of(item);
            edit.set(attr, value);
            let cond = Condition::attr(attr)
                .not_exists()
                .and(Condition::attr(marks.pk.as_str()).exists());
            Some(edit.write(key, cond))
        }
        Kind::Drop {
            discriminator,
            attr,
        } => Some(Write::Delete {
            key,
            cond: Condition::attr(attr).eq(discriminator),
        }),
        Kind::DropIndex { entity, index } => {
            let Some((pk, sk)) = entity.index(index).and_then(|ix| {
                let global = matches!(ix.kind, crate::entity::IndexKind::Global);
                ix.template().map(|(pk, sk)| (global.then_some(pk), sk))
            }) else {
                return Ok(None);
            };
            let held: Vec<&str> = pk
                .into_iter()
                .chain(sk)
                .map(|k| k.attr)
                .filter(|a| item.contains_key(*a))
                .collect();
            if held.is_empty() {
                return Ok(None);
            }
            let mut edit = Edit::of(item);
            held.iter().for_each(|a| edit.remove(a));
            Some(edit.write(key, Condition::attr(marks.pk.as_str()).exists()))
        }
    })
}
