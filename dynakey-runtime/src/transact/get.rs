//! Transactional gets: a consistent snapshot of up to 100 items of any
//! types, each read back through a typed slot.

use std::fmt;
use std::marker::PhantomData;

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
use crate::error::{Error, ItemRef};
use crate::explain::Explain;
use crate::key::Key;
use crate::obs::Span;
use crate::ops::{build_err, into_future};

/// A typed handle on one get of a [`TransactGet`] (see its example).
#[derive(Debug)]
pub struct Slot<E> {
    index: usize,
    _e: PhantomData<fn() -> E>,
}

impl<E> Clone for Slot<E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E> Copy for Slot<E> {}

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
/// let mut tx = db.transact_get();
/// let p = tx.get(Profile::key("ann").unwrap());
/// let n = tx.get(Note::key("ann", 1).unwrap());
/// let out = tx.send().await.unwrap();
/// assert_eq!(out.get(p).unwrap().unwrap().name, "Ann");
/// assert!(out.get(n).unwrap().is_none());
/// assert!(out.raw(p).is_some());
/// # });
/// ```
#[must_use = "a transaction does nothing until sent"]
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

/// The items a [`TransactGet`] read, by slot (see its example).
#[derive(Debug)]
#[non_exhaustive]
pub struct TransactGetOutput {
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
    /// Adds a get of `key`; read its result with the returned slot.
    pub fn get<E: Entity>(&mut self, key: Key<E>) -> Slot<E> {
        self.items.push((key_ref(&key), key.to_attributes()));
        Slot {
            index: self.items.len() - 1,
            _e: PhantomData,
        }
    }

    /// The SDK input, checked (1 to 100 gets).
    fn request(&self) -> Result<TransactGetItemsInputBuilder, Error> {
        if self.items.is_empty() || self.items.len() > MAX_ACTIONS {
            return Err(Error::refused(format!(
                "a transaction takes 1 to {MAX_ACTIONS} gets, not {}",
                self.items.len()
            )));
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
        Ok(TransactGetItemsInput::builder()
            .set_transact_items(Some(gets))
            .return_consumed_capacity(self.db.capacity.clone()))
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
    /// let mut tx = backend.db("notes").transact_get();
    /// tx.get(Note::key("ann", 1).unwrap());
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
    /// let mut tx = backend.db("notes").transact_get();
    /// tx.get(Note::key("ann", 1).unwrap());
    /// assert_eq!(tx.explain().unwrap().actions[0].operation, "Get");
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        Ok(Explain::from(&self.to_input()?))
    }

    /// Sends the transaction. None, or more than 100 gets, is refused
    /// before sending.
    pub async fn send(self) -> Result<TransactGetOutput, Error> {
        let req = self.request()?;
        let targets: Vec<ItemRef> = self.items.into_iter().map(|(t, _)| t).collect();
        let n = targets.len();
        let db = &self.db;
        let span = Span::new("TransactGetItems", &db.table, None, None);
        span.actions(n);
        let res = match span.run(req.send_with(&db.client)).await {
            Ok(out) => {
                span.capacity(out.consumed_capacity());
                let mut items: Vec<Option<Item>> = out
                    .responses()
                    .iter()
                    .map(|r| r.item().filter(|m| !m.is_empty()).cloned())
                    .collect();
                items.resize(n, None);
                Ok(TransactGetOutput { items })
            }
            Err(e) => match e.as_service_error() {
                Some(TransactGetItemsError::TransactionCanceledException(c)) => {
                    Err(cancel::canceled(c, &targets))
                }
                _ => Err(Error::from_sdk(e, db.sdk_attempts())),
            },
        };
        span.end(res)
    }
}

into_future!(TransactGet, TransactGetOutput);

impl TransactGetOutput {
    /// The item of `slot`, decoded; `None` when absent.
    pub fn get<E: Entity>(&self, slot: Slot<E>) -> Result<Option<E>, Error> {
        match self.items.get(slot.index) {
            Some(Some(item)) => Ok(Some(E::from_item(item)?)),
            _ => Ok(None),
        }
    }

    /// The raw item of `slot`.
    pub fn raw<E>(&self, slot: Slot<E>) -> Option<&Item> {
        self.items.get(slot.index).and_then(Option::as_ref)
    }
}
