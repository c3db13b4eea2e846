//! Moving an item to a new key: a delete and a put in one transaction.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::check::{bump_version, check_item, key_text};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Error;
use crate::explain::WriteCost;
use crate::expr::Condition;
use crate::key::Key;
use crate::write::{Action, Write, WriteOpts};

impl Db {
    /// Moves an item to a new key: deletes `from` (which must exist) and
    /// puts `to` (whose key must be free) in one transaction.
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
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// db.create_table(&[Note::META]).await.unwrap();
    /// let n = Note { user: "ann".into(), id: 1, tag: None, text: String::new() };
    /// db.put(&n).await.unwrap();
    /// db.move_item(n.item_key().unwrap(), &Note { id: 2, ..n.clone() }).await.unwrap();
    /// assert!(db.get(Note::key("ann", 1).unwrap()).await.unwrap().is_none());
    /// # });
    /// ```
    ///
    /// For a `#[dynamo(version)]` entity the lock is the source's: `to`
    /// carries the version the item was read at, the source must still hold
    /// it (else [`Error::TransactionCanceled`] names the delete), and the
    /// moved item is stored with the next version. A move to the same key is
    /// a put of an existing item under the same lock.
    pub async fn move_item<E: Entity>(&self, from: Key<E>, to: &E) -> Result<(), Error> {
        crate::rules::unique::refuse_in::<E>("a move")?;
        if to.item_key()? == from {
            return self.put(to).if_exists().send().await.map(|_| ());
        }
        let mut item = crate::rules::put_item(to)?;
        let mut lock = Condition::attr(E::META.pk.attr).exists();
        if let Some(attr) = E::META.version_attr {
            let (version, next) = bump_version(&item, attr)?;
            let held = if version == 0 {
                Condition::attr(attr).not_exists()
            } else {
                Condition::attr(attr).eq(AttributeValue::N(version.to_string()))
            };
            lock = lock.and(held);
            item.insert(attr.to_owned(), next);
        }
        check_item(E::META, &item)?;
        // The put is built here, not by `Put`: its version is the source's
        // next one, and its condition is on the new key being free.
        let put = Write {
            cost: WriteCost::put(E::META, &item),
            target: key_text(E::META, &item),
            action: Action::Put(item),
            opts: WriteOpts {
                cond: Some(Condition::attr(E::META.pk.attr).not_exists()),
                ..WriteOpts::default()
            },
        };
        self.transact_write()
            .delete_with(from, |d| d.condition(lock))
            .push(put)
            .send()
            .await
    }
}
