//! Transactional gets: a consistent snapshot of up to 100 items of any
//! types, each read back through a typed slot.

use std::fmt;

use aws_sdk_dynamodb::operation::transact_get_items::builders::TransactGetItemsInputBuilder;
use aws_sdk_dynamodb::operation::transact_get_items::{
    TransactGetItemsError, TransactGetItemsInput,
};
use aws_sdk_dynamodb::types::{Get, TransactGetItem};

use super::{cancel, MAX_ACTIONS};
use crate::check::key_ref;
use crate::codec::Item;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, ItemRef, RefusedReason};
use crate::explain::Explain;
use crate::key::Key;
use crate::ops::into_future;
use crate::send::{send_then, To};
use crate::write::build_err;

/// A get transaction (a consistent snapshot of up to 100 items, of any
/// types).
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
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "PROFILE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("PROFILE")]
/// # struct Profile { user: String, name: String }
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META, Profile::META]).await.unwrap();
/// db.put(&Profile { user: "ann".into(), name: "Ann".into() }).await.unwrap();
/// let (p, n) = (Profile::key("ann").unwrap(), Note::key("ann", 1).unwrap());
/// let out = db.transact_get().get(p.clone()).get(n.clone()).await.unwrap();
/// assert_eq!(out.get(&p).unwrap().unwrap().name, "Ann");
/// assert!(out.get(&n).unwrap().is_none());
/// assert!(out.raw(&p).is_some());
/// # });
/// ```
#[must_use = "a transaction does nothing until sent"]
#[derive(Clone)]
pub struct TransactGet {
    db: Db,
    items: Vec<(ItemRef, Item)>,
}

impl fmt::Debug for TransactGet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TransactGet")
            .field("table", &self.db.table)
            .field(
                "gets",
                &self.items.iter().map(|(t, _)| t).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The old name of [`TransactGetOutcome`]: results are `…Outcome`
/// everywhere (`BatchWriteOutcome`, `BatchGetOutcome`), the SDK's own
/// responses `…Output`.
#[deprecated(note = "renamed TransactGetOutcome")]
pub type TransactGetOutput = TransactGetOutcome;

/// The items a [`TransactGet`] read, by slot (see its example).
#[derive(Debug)]
#[non_exhaustive]
pub struct TransactGetOutcome {
    /// The keys read, in order.
    keys: Vec<Item>,
    /// The item at each key, when there is one.
    items: Vec<Option<Item>>,
}

impl Db {
    /// An empty get transaction.
    pub fn transact_get(&self) -> TransactGet {
        TransactGet {
            db: self.clone(),
            items: Vec::new(),
        }
    }
}

impl TransactGet {
    /// Adds a get of `key` (by value, as [`TransactWrite`](crate::TransactWrite)
    /// adds its actions); read its result by the same key, with
    /// [`TransactGetOutcome::get`].
    pub fn get<E: Entity>(mut self, key: Key<E>) -> Self {
        self.items.push((key_ref(&key), key.to_attributes()));
        self
    }

    /// The SDK input, checked (1 to 100 gets).
    fn request(&self) -> Result<TransactGetItemsInputBuilder, Error> {
        if self.items.is_empty() || self.items.len() > MAX_ACTIONS {
            return Err(Error::refused(
                RefusedReason::ActionCount,
                format!(
                    "a transaction takes 1 to {MAX_ACTIONS} gets, not {}",
                    self.items.len()
                ),
            ));
        }
        let mut gets = Vec::with_capacity(self.items.len());
        for (_, key) in &self.items {
            let g = Get::builder()
                .table_name(&*self.db.table)
                .set_key(Some(key.clone()))
                .build()
                .map_err(build_err)?;
            gets.push(TransactGetItem::builder().get(g).build());
        }
        Ok(TransactGetItemsInput::builder().set_transact_items(Some(gets)))
    }

    /// The SDK input of the transaction, without sending it.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let tx = backend.db("notes").transact_get().get(Note::key("ann", 1).unwrap());
    /// assert_eq!(tx.to_input().unwrap().transact_items().len(), 1);
    /// ```
    pub fn to_input(&self) -> Result<TransactGetItemsInput, Error> {
        self.request()?.build().map_err(build_err)
    }

    /// The transaction in readable form: one `Get` action per key.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let tx = backend.db("notes").transact_get().get(Note::key("ann", 1).unwrap());
    /// assert_eq!(tx.explain().unwrap().actions[0].operation, "Get");
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        Ok(Explain::from(&self.to_input()?))
    }

    /// Sends the transaction. None, or more than 100 gets, is refused
    /// before sending.
    pub async fn send(self) -> Result<TransactGetOutcome, Error> {
        let req = self.request()?;
        let (targets, keys): (Vec<ItemRef>, Vec<Item>) = self.items.into_iter().unzip();
        let n = targets.len();
        send_then(&To::db(&self.db), req, |sent, attempts| match sent {
            Ok(out) => {
                let mut items: Vec<Option<Item>> = out
                    .responses()
                    .iter()
                    .map(|r| r.item().filter(|m| !m.is_empty()).cloned())
                    .collect();
                items.resize(n, None);
                Ok(TransactGetOutcome { keys, items })
            }
            Err(e) => match e.as_service_error() {
                Some(TransactGetItemsError::TransactionCanceledException(c)) => {
                    Err(cancel::canceled(c, &targets))
                }
                _ => Err(Error::from_sdk(e, attempts)),
            },
        })
        .await
    }
}

into_future!(TransactGet, TransactGetOutcome);

impl TransactGetOutcome {
    /// The item at `key` (one of the keys the transaction read), decoded;
    /// `None` when absent or not read.
    pub fn get<E: Entity>(&self, key: &Key<E>) -> Result<Option<E>, Error> {
        self.raw(key)
            .map(E::from_item)
            .transpose()
            .map_err(Error::from)
    }

    /// The raw item at `key`; `None` when absent or not read.
    pub fn raw<E>(&self, key: &Key<E>) -> Option<&Item> {
        let key = key.to_attributes();
        // A transaction reads each item once (DynamoDB refuses two
        // operations on one item), so a key names one position.
        let at = self.keys.iter().position(|k| *k == key)?;
        self.items.get(at).and_then(Option::as_ref)
    }
}
