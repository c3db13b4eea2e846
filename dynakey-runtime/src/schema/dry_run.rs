//! A dry run: every step in order, each against what the steps before it
//! would have left, writing nothing.
//!
//! The table is read as the run reads it (a scan per step, in segments,
//! from the same checkpoints); what the earlier steps would have changed
//! is kept beside it — the items they would rewrite, delete or create, by
//! key — and each stored item is looked up there before the step plans
//! its write. So a `rename_attribute` followed by a `fill_default` of the
//! renamed attribute counts the items the fill then finds without it, and
//! a rekey's moved items are read by the steps after it at their new keys.
//! Memory holds the changed items, not the table.
//!
//! What no dry run can foresee is a writer racing the run: the report is
//! what the run changes when nothing else writes meanwhile.

use std::collections::HashMap;
use std::sync::Mutex;

use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::types::AttributeValue;

use super::marks::Marks;
use super::plan::{key_of, Write};
use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;
use crate::send::{send, To};

/// What the steps so far would have changed.
#[derive(Default)]
pub(super) struct Sim {
    changed: Mutex<HashMap<String, Entry>>,
}

/// An item as the steps so far would have left it.
struct Entry {
    /// `None`: deleted (or moved away).
    item: Option<Item>,
    /// Whether the table holds an item at this key today (else the key is
    /// one a step would create).
    stored: bool,
}

/// A key as text: its attributes' types and values, partition key first
/// (two keys are the same item exactly when their texts are equal).
fn ident(key: &Item, marks: &Marks) -> String {
    let mut s = String::new();
    for a in std::iter::once(&marks.pk).chain(marks.sk.iter()) {
        let part = match key.get(a) {
            Some(AttributeValue::S(v)) => format!("S{}:{v}", v.len()),
            Some(AttributeValue::N(v)) => format!("N{}:{v}", v.len()),
            Some(AttributeValue::B(v)) => format!("B{:?}", v.as_ref()),
            Some(other) => format!("?{other:?}"),
            None => "-".to_owned(),
        };
        s.push_str(&part);
        s.push('|');
    }
    s
}

impl Sim {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A panic elsewhere cannot leave the map half-written: every
        // change is one insert.
        self.changed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The item a step reads where the table holds `stored`; `None` when
    /// an earlier step would have deleted or moved it.
    pub(super) fn current(&self, stored: &Item, marks: &Marks) -> Option<Item> {
        match self.lock().get(&ident(stored, marks)) {
            Some(e) => e.item.clone(),
            None => Some(stored.clone()),
        }
    }

    /// The items earlier steps would have created at keys the table does
    /// not hold (a step reads them after the table's).
    pub(super) fn created(&self) -> Vec<Item> {
        let map = self.lock();
        let mut out: Vec<(&String, &Item)> = map
            .iter()
            .filter(|(_, e)| !e.stored)
            .filter_map(|(k, e)| e.item.as_ref().map(|i| (k, i)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(b.0));
        out.into_iter().map(|(_, i)| i.clone()).collect()
    }

    /// Records the key `key` as holding `item`.
    fn set(map: &mut HashMap<String, Entry>, key: String, item: Option<Item>, stored: bool) {
        let stored = map.get(&key).map_or(stored, |e| e.stored);
        map.insert(key, Entry { item, stored });
    }

    /// What the run's write `w` would do: `true` when it changes the item,
    /// `false` when it would find the place taken (a move onto a key that
    /// holds an item: the old item goes and the one there stays, as the
    /// run counts it, raced).
    pub(super) async fn apply(&self, db: &Db, marks: &Marks, w: Write) -> Result<bool, Error> {
        match w {
            Write::Update { key, after, .. } => {
                Self::set(&mut self.lock(), ident(&key, marks), Some(after), true);
                Ok(true)
            }
            Write::Delete { key, .. } => {
                Self::set(&mut self.lock(), ident(&key, marks), None, true);
                Ok(true)
            }
            Write::Move { old, new } => {
                let target = key_of(&new, marks);
                let at = ident(&target, marks);
                let known = self.lock().get(&at).map(|e| e.item.is_some());
                let in_table = match known {
                    Some(_) => true,
                    None => stored(db, target).await?,
                };
                let mut map = self.lock();
                // Another segment may have written it meanwhile.
                let taken = map.get(&at).map_or(in_table, |e| e.item.is_some());
                Self::set(&mut map, ident(&old, marks), None, true);
                if taken {
                    return Ok(false);
                }
                Self::set(&mut map, at, Some(new), in_table);
                Ok(true)
            }
        }
    }
}

/// Whether the table holds an item at `key` (read consistently).
async fn stored(db: &Db, key: Item) -> Result<bool, Error> {
    let req = GetItemInput::builder()
        .table_name(db.table_name())
        .set_key(Some(key))
        .consistent_read(true);
    let out = send(&To::db(db), req).await?;
    Ok(out.item.is_some_and(|i| !i.is_empty()))
}
