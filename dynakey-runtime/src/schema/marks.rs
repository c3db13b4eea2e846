//! Where a migration run is, kept in the table it migrates: one item per
//! step and segment (`pk = "_dynakey#migration"`, `sk = "<step>#<segment>"`,
//! or both in the partition key of a table without a sort key), read
//! consistently, so a killed run resumes and a finished step is skipped.
//!
//! A mark holds `done` (true) or `last` (where the segment's scan is, as
//! JSON of the scan's last key) and the version of its format
//! ([`VERSION`]), so a newer dynakey resumes a run an older one began:
//!
//! - **1**: `done` or `last`, no version (read as version 1).
//! - **2**: the same with `version` (`N`).

use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::db::Db;
use crate::error::{Error, RefusedReason};
use crate::send::{send, To};

/// The checkpoint items of one table.
pub(super) struct Marks {
    pub(super) pk: String,
    pub(super) sk: Option<String>,
    /// The key attributes of every index the live table has (a backfill
    /// removes those `to_item()` no longer writes: the synthetic keys of an
    /// index moved to a native key, or dropped from the entity).
    pub(super) index_attrs: Vec<String>,
}

const MARK_PK: &str = "_dynakey#migration";

/// The version of the marks' format; every earlier one reads.
pub(super) const VERSION: u32 = 2;

/// What a mark says.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Mark {
    /// The step (or the segment) is finished.
    Done,
    /// The segment's scan read up to this key.
    At(Item),
}

impl Mark {
    /// The mark's attributes, with the format's version.
    fn to_attrs(&self) -> Item {
        let (name, value) = match self {
            Mark::Done => ("done", AttributeValue::Bool(true)),
            Mark::At(k) => ("last", AttributeValue::S(encode_start(k))),
        };
        Item::from([
            (name.to_owned(), value),
            ("version".to_owned(), AttributeValue::N(VERSION.to_string())),
        ])
    }

    /// A stored mark of any version up to [`VERSION`] (none is 1).
    fn from_attrs(item: &Item) -> Result<Self, Error> {
        let refused = |reason, why: String| {
            Error::refused(reason, format!("a migration mark in the table {why}"))
        };
        let version = match item.get("version") {
            None => 1,
            Some(v) => v
                .as_n()
                .ok()
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| {
                    let why = format!("holds a version that is no number: {v:?}");
                    refused(RefusedReason::Unreadable, why)
                })?,
        };
        if let Some(why) = dynakey_core::format::newer(version, VERSION) {
            return Err(refused(
                RefusedReason::NewerFormat,
                format!("is in {why}: finish the migration with that one"),
            ));
        }
        if item.contains_key("done") {
            return Ok(Mark::Done);
        }
        item.get("last")
            .and_then(|v| v.as_s().ok())
            .and_then(|s| decode_start(s))
            .map(Mark::At)
            .ok_or_else(|| {
                let why = "holds neither `done` nor a readable `last`".into();
                refused(RefusedReason::Unreadable, why)
            })
    }
}

impl Marks {
    pub(super) fn key(&self, step: &str, what: &str) -> Item {
        let mut k = Item::new();
        match &self.sk {
            Some(sk) => {
                k.insert(self.pk.clone(), AttributeValue::S(MARK_PK.into()));
                k.insert(sk.clone(), AttributeValue::S(format!("{step}#{what}")));
            }
            None => {
                k.insert(
                    self.pk.clone(),
                    AttributeValue::S(format!("{MARK_PK}#{step}#{what}")),
                );
            }
        }
        k
    }

    pub(super) fn is_mark(&self, item: &Item) -> bool {
        matches!(item.get(&self.pk), Some(AttributeValue::S(s)) if s.starts_with(MARK_PK))
    }

    pub(super) async fn get(&self, db: &Db, step: &str, what: &str) -> Result<Option<Mark>, Error> {
        let req = GetItemInput::builder()
            .table_name(db.table_name())
            .set_key(Some(self.key(step, what)))
            .consistent_read(true);
        let out = send(&To::db(db), req).await?;
        out.item.as_ref().map(Mark::from_attrs).transpose()
    }

    pub(super) async fn put(
        &self,
        db: &Db,
        step: &str,
        what: &str,
        mark: &Mark,
    ) -> Result<(), Error> {
        let mut item = self.key(step, what);
        item.extend(mark.to_attrs());
        let req = PutItemInput::builder()
            .table_name(db.table_name())
            .set_item(Some(item));
        send(&To::db(db), req).await.map(drop)
    }
}

/// A scan position as text, and back.
fn encode_start(k: &Item) -> String {
    serde_json::to_string(&serde_dynamo::Item::from(k.clone())).unwrap_or_default()
}

fn decode_start(s: &str) -> Option<Item> {
    serde_json::from_str::<serde_dynamo::Item>(s)
        .ok()
        .map(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marks as dynakey stored them before they had a version: a finished
    /// step and a segment part-way (`tests/fixtures` of the runtime).
    const V1: &str = include_str!("../../fixtures/formats/marks-v1.json");

    #[test]
    fn marks_carry_their_version_and_unversioned_ones_read() {
        let v1: Vec<serde_dynamo::Item> = serde_json::from_str(V1).unwrap();
        let v1: Vec<Item> = v1.into_iter().map(Into::into).collect();
        assert_eq!(Mark::from_attrs(&v1[0]).unwrap(), Mark::Done);
        let Mark::At(at) = Mark::from_attrs(&v1[1]).unwrap() else {
            panic!("{:?}", v1[1]);
        };
        assert_eq!(at.get("pk"), Some(&AttributeValue::S("DESK#1".into())));
        assert_eq!(
            at.get("sk"),
            Some(&AttributeValue::S("TICKET#000042".into()))
        );
        for m in [Mark::Done, Mark::At(at)] {
            let attrs = m.to_attrs();
            assert_eq!(attrs.get("version"), Some(&AttributeValue::N("2".into())));
            assert_eq!(Mark::from_attrs(&attrs).unwrap(), m);
        }
        let mut newer = Mark::Done.to_attrs();
        newer.insert("version".into(), AttributeValue::N("3".into()));
        let err = Mark::from_attrs(&newer).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Refused {
                    reason: RefusedReason::NewerFormat,
                    ..
                }
            ),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(
            err.contains("format 3, which a newer dynakey writes"),
            "{err}"
        );
    }
}
