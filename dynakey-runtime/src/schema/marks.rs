//! Where a migration run is, kept in the table it migrates: one item per
//! step and segment (`pk = "_dynakey#migration"`, `sk = "<step>#<segment>"`,
//! or both in the partition key of a table without a sort key), read
//! consistently, so a killed run resumes and a finished step is skipped.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;

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

    pub(super) async fn get(&self, db: &Db, step: &str, what: &str) -> Result<Option<Item>, Error> {
        let out = db
            .client()
            .get_item()
            .table_name(db.table_name())
            .set_key(Some(self.key(step, what)))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, 1))?;
        Ok(out.item)
    }

    pub(super) async fn put(
        &self,
        db: &Db,
        step: &str,
        what: &str,
        attrs: Item,
    ) -> Result<(), Error> {
        let mut item = self.key(step, what);
        item.extend(attrs);
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, 1))?;
        Ok(())
    }
}

/// A scan position as text, and back.
pub(super) fn encode_start(k: &Item) -> String {
    serde_json::to_string(&serde_dynamo::Item::from(k.clone())).unwrap_or_default()
}

pub(super) fn decode_start(s: &str) -> Option<Item> {
    serde_json::from_str::<serde_dynamo::Item>(s)
        .ok()
        .map(Into::into)
}
