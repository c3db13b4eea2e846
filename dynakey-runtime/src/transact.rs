//! Transactions: Put, Update, Delete and ConditionCheck across entity types
//! (up to DynamoDB's 100 actions), and transactional gets. A cancelled
//! transaction is [`Error::TransactionCanceled`], with the reason code and
//! the entity/key of every action.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Get, Put, ReturnValuesOnConditionCheckFailure, TransactGetItem,
    TransactWriteItem, Update as SdkUpdate,
};

use crate::client::{check_size, key_ref, key_text, Db};
use crate::codec::Item;
use crate::entity::Entity;
use crate::error::{CancelReason, Error, ItemRef};
use crate::expr::{Condition, Placeholders, Update};
use crate::key::Key;

/// DynamoDB's limit on actions per transaction.
pub const MAX_ACTIONS: usize = 100;

fn build_err(e: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::Sdk(Box::new(e))
}

/// A write transaction. Build it with [`Db::transact_write`].
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
/// use dynakey_runtime::{expr::Update, Condition, Entity, Error};
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META, Profile::META]).await.unwrap();
/// let p = Profile { user: "ann".into(), name: "Ann".into() };
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: String::new() };
/// db.transact_write().put_if_not_exists(&p).put(&n).send().await.unwrap();
/// let err = db
///     .transact_write()
///     .update(Note::key("ann", 1).unwrap(), Update::new().set("text", "x"))
///     .put_if_not_exists(&p)
///     .send()
///     .await
///     .unwrap_err();
/// let Error::TransactionCanceled { reasons } = err else { panic!() };
/// assert_eq!(reasons[1].code, "ConditionalCheckFailed");
/// assert_eq!(reasons[1].target.entity, "PROFILE");
/// # });
/// ```
#[must_use = "a transaction does nothing until sent"]
pub struct TransactWrite {
    db: Db,
    items: Vec<TransactWriteItem>,
    targets: Vec<ItemRef>,
    token: Option<String>,
    err: Option<Error>,
}

impl Db {
    /// An empty write transaction.
    pub fn transact_write(&self) -> TransactWrite {
        TransactWrite {
            db: self.clone(),
            items: Vec::new(),
            targets: Vec::new(),
            token: None,
            err: None,
        }
    }

    /// An empty get transaction.
    pub fn transact_get(&self) -> TransactGet {
        TransactGet {
            db: self.clone(),
            items: Vec::new(),
        }
    }

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
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("notes");
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
        if to.item_key()? == from {
            return self.put(to).if_exists().send().await.map(|_| ());
        }
        let mut item = to.to_item()?;
        let mut lock = Condition::attr(E::META.pk.attr).exists();
        if let Some(attr) = E::META.version_attr {
            let (version, next) = crate::client::bump_version(&item, attr)?;
            let held = if version == 0 {
                Condition::attr(attr).not_exists()
            } else {
                Condition::attr(attr).eq(aws_sdk_dynamodb::types::AttributeValue::N(
                    version.to_string(),
                ))
            };
            lock = lock.and(held);
            item.insert(attr.to_owned(), next);
        }
        self.transact_write()
            .delete_if(from, lock)
            .put_item::<E>(item, Some(Condition::attr(E::META.pk.attr).not_exists()))
            .send()
            .await
    }
}

impl TransactWrite {
    fn push(&mut self, target: ItemRef, item: Result<TransactWriteItem, Error>) {
        if self.err.is_some() {
            return;
        }
        match item {
            Ok(i) => {
                self.items.push(i);
                self.targets.push(target);
            }
            Err(e) => self.err = Some(e),
        }
    }

    fn put_inner<E: Entity>(mut self, e: &E, cond: Option<Condition>) -> Self {
        let r = e.to_item().map_err(Error::from).and_then(|mut item| {
            let cond = crate::client::versioned::<E>(&mut item, cond)?;
            Ok((item, cond))
        });
        match r {
            Ok((item, cond)) => self.put_item::<E>(item, cond),
            Err(e) => {
                self.push(
                    ItemRef {
                        entity: E::META.discriminator,
                        pk: String::new(),
                        sk: None,
                    },
                    Err(e),
                );
                self
            }
        }
    }

    /// Puts an item as it is (its version already set).
    fn put_item<E: Entity>(mut self, item: Item, cond: Option<Condition>) -> Self {
        let r = (|| {
            check_size(E::META, &item)?;
            let target = key_text(E::META, &item);
            let mut cx = Placeholders::default();
            let cond = cond.map(|c| c.render(&mut cx)).transpose()?;
            let has_cond = cond.is_some();
            let mut p = Put::builder()
                .table_name(&*self.db.table)
                .set_item(Some(item))
                .set_condition_expression(cond)
                .set_expression_attribute_names(cx.names())
                .set_expression_attribute_values(cx.values());
            if has_cond {
                p = p.return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                );
            }
            let p = p.build().map_err(build_err)?;
            Ok::<_, Error>((target, TransactWriteItem::builder().put(p).build()))
        })();
        match r {
            Ok((t, i)) => self.push(t, Ok(i)),
            Err(e) => self.push(
                ItemRef {
                    entity: E::META.discriminator,
                    pk: String::new(),
                    sk: None,
                },
                Err(e),
            ),
        }
        self
    }

    /// Puts `e`.
    pub fn put<E: Entity>(self, e: &E) -> Self {
        self.put_inner(e, None)
    }

    /// Puts `e` if no item has its key.
    pub fn put_if_not_exists<E: Entity>(self, e: &E) -> Self {
        self.put_inner(e, Some(Condition::attr(E::META.pk.attr).not_exists()))
    }

    /// Puts `e` if `cond` holds.
    pub fn put_if<E: Entity>(self, e: &E, cond: Condition) -> Self {
        self.put_inner(e, Some(cond))
    }

    /// Updates the item at `key` (an update creates a missing item; see
    /// [`TransactWrite::update_if`]).
    pub fn update<E: Entity>(self, key: Key<E>, update: Update) -> Self {
        self.update_inner(key, update, None)
    }

    /// Updates the item at `key` if `cond` holds.
    pub fn update_if<E: Entity>(self, key: Key<E>, update: Update, cond: Condition) -> Self {
        self.update_inner(key, update, Some(cond))
    }

    /// A typed update built by the derive (`E::update(..)`), with the index
    /// keys it rewrites and the condition it carries (a version check).
    pub fn apply<U: crate::update::TypedUpdate>(self, update: U) -> Self {
        self.apply_inner(update, None)
    }

    /// A typed update, if `cond` holds as well.
    pub fn apply_if<U: crate::update::TypedUpdate>(self, update: U, cond: Condition) -> Self {
        self.apply_inner(update, Some(cond))
    }

    fn apply_inner<U: crate::update::TypedUpdate>(
        mut self,
        update: U,
        cond: Option<Condition>,
    ) -> Self {
        match update.into_parts() {
            Ok(parts) => {
                let cond = match (parts.condition, cond) {
                    (Some(a), Some(b)) => Some(a.and(b)),
                    (a, b) => a.or(b),
                };
                self.update_inner(parts.key, parts.update, cond)
            }
            Err(e) => {
                if self.err.is_none() {
                    self.err = Some(e);
                }
                self
            }
        }
    }

    fn update_inner<E: Entity>(
        mut self,
        key: Key<E>,
        update: Update,
        cond: Option<Condition>,
    ) -> Self {
        let target = key_ref(&key);
        let r = (|| {
            let mut cx = Placeholders::default();
            let text = update.render(&mut cx)?;
            let cond = cond.map(|c| c.render(&mut cx)).transpose()?;
            let has_cond = cond.is_some();
            let mut u = SdkUpdate::builder()
                .table_name(&*self.db.table)
                .set_key(Some(key.to_attributes()))
                .update_expression(text)
                .set_condition_expression(cond)
                .set_expression_attribute_names(cx.names())
                .set_expression_attribute_values(cx.values());
            if has_cond {
                u = u.return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                );
            }
            Ok(TransactWriteItem::builder()
                .update(u.build().map_err(build_err)?)
                .build())
        })();
        self.push(target, r);
        self
    }

    /// Deletes the item at `key`.
    pub fn delete<E: Entity>(self, key: Key<E>) -> Self {
        self.delete_inner(key, None)
    }

    /// Deletes the item at `key` if `cond` holds.
    pub fn delete_if<E: Entity>(self, key: Key<E>, cond: Condition) -> Self {
        self.delete_inner(key, Some(cond))
    }

    fn delete_inner<E: Entity>(mut self, key: Key<E>, cond: Option<Condition>) -> Self {
        let target = key_ref(&key);
        let r = (|| {
            let mut cx = Placeholders::default();
            let cond = cond.map(|c| c.render(&mut cx)).transpose()?;
            let has_cond = cond.is_some();
            let mut d = Delete::builder()
                .table_name(&*self.db.table)
                .set_key(Some(key.to_attributes()))
                .set_condition_expression(cond)
                .set_expression_attribute_names(cx.names())
                .set_expression_attribute_values(cx.values());
            if has_cond {
                d = d.return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                );
            }
            Ok(TransactWriteItem::builder()
                .delete(d.build().map_err(build_err)?)
                .build())
        })();
        self.push(target, r);
        self
    }

    /// Requires `cond` on the item at `key`, writing nothing to it.
    pub fn check<E: Entity>(mut self, key: Key<E>, cond: Condition) -> Self {
        let target = key_ref(&key);
        let r = (|| {
            let mut cx = Placeholders::default();
            let text = cond.render(&mut cx)?;
            let c = ConditionCheck::builder()
                .table_name(&*self.db.table)
                .set_key(Some(key.to_attributes()))
                .condition_expression(text)
                .set_expression_attribute_names(cx.names())
                .set_expression_attribute_values(cx.values())
                .return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                )
                .build()
                .map_err(build_err)?;
            Ok(TransactWriteItem::builder().condition_check(c).build())
        })();
        self.push(target, r);
        self
    }

    /// An idempotency token (`ClientRequestToken`).
    pub fn client_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// How many actions the transaction holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the transaction is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Sends the transaction. More than 100 actions, or none, is refused
    /// before sending.
    pub async fn send(self) -> Result<(), Error> {
        if let Some(e) = self.err {
            return Err(e);
        }
        if self.items.is_empty() || self.items.len() > MAX_ACTIONS {
            return Err(Error::Validation {
                message: format!(
                    "a transaction takes 1 to {MAX_ACTIONS} actions, not {}",
                    self.items.len()
                ),
            });
        }
        let res = self
            .db
            .client
            .transact_write_items()
            .set_transact_items(Some(self.items))
            .set_client_request_token(self.token)
            .send()
            .await;
        match res {
            Ok(_) => Ok(()),
            Err(e) => {
                if let Some(aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(c)) =
                    e.as_service_error()
                {
                    return Err(canceled(c, &self.targets));
                }
                Err(Error::from_sdk(e, self.db.sdk_attempts()))
            }
        }
    }
}

impl std::future::IntoFuture for TransactWrite {
    type Output = Result<(), Error>;
    type IntoFuture = crate::client::BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// Maps the cancellation reasons to the actions. Servers that leave the
/// reasons out of the body still name them in the message
/// (`… [None, ConditionalCheckFailed]`).
fn canceled(
    c: &aws_sdk_dynamodb::types::error::TransactionCanceledException,
    targets: &[ItemRef],
) -> Error {
    let mut reasons: Vec<CancelReason> = c
        .cancellation_reasons()
        .iter()
        .enumerate()
        .map(|(i, r)| CancelReason {
            index: i,
            code: r.code().unwrap_or("None").to_owned(),
            message: r.message().map(str::to_owned),
            target: targets.get(i).cloned().unwrap_or(ItemRef {
                entity: "",
                pk: String::new(),
                sk: None,
            }),
            item: r.item().filter(|m| !m.is_empty()).cloned(),
        })
        .collect();
    if reasons.is_empty() {
        if let Some(msg) = c.message() {
            if let (Some(a), Some(b)) = (msg.rfind('['), msg.rfind(']')) {
                if a < b {
                    reasons = msg[a + 1..b]
                        .split(',')
                        .map(str::trim)
                        .enumerate()
                        .map(|(i, code)| CancelReason {
                            index: i,
                            code: code.to_owned(),
                            message: None,
                            target: targets.get(i).cloned().unwrap_or(ItemRef {
                                entity: "",
                                pk: String::new(),
                                sk: None,
                            }),
                            item: None,
                        })
                        .collect();
                }
            }
        }
    }
    Error::TransactionCanceled { reasons }
}

/// A typed handle on one get of a [`TransactGet`].
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
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("notes");
/// db.create_table(&[Note::META, Profile::META]).await.unwrap();
/// db.put(&Profile { user: "ann".into(), name: "Ann".into() }).await.unwrap();
/// let mut tx = db.transact_get();
/// let p = tx.get(Profile::key("ann").unwrap());
/// let n = tx.get(Note::key("ann", 1).unwrap());
/// let out = tx.send().await.unwrap();
/// assert_eq!(out.get(p).unwrap().unwrap().name, "Ann");
/// assert!(out.get(n).unwrap().is_none());
/// # });
/// ```
#[must_use = "a transaction does nothing until sent"]
pub struct TransactGet {
    db: Db,
    items: Vec<(ItemRef, Item)>,
}

/// The items a [`TransactGet`] read, by slot.
#[derive(Debug)]
pub struct TransactGetOutput {
    items: Vec<Option<Item>>,
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

    /// Sends the transaction.
    pub async fn send(self) -> Result<TransactGetOutput, Error> {
        if self.items.is_empty() || self.items.len() > MAX_ACTIONS {
            return Err(Error::Validation {
                message: format!(
                    "a transaction takes 1 to {MAX_ACTIONS} gets, not {}",
                    self.items.len()
                ),
            });
        }
        let mut gets = Vec::with_capacity(self.items.len());
        let mut targets = Vec::with_capacity(self.items.len());
        for (target, key) in self.items {
            let g = Get::builder()
                .table_name(&*self.db.table)
                .set_key(Some(key))
                .build()
                .map_err(build_err)?;
            gets.push(TransactGetItem::builder().get(g).build());
            targets.push(target);
        }
        let n = gets.len();
        let res = self
            .db
            .client
            .transact_get_items()
            .set_transact_items(Some(gets))
            .send()
            .await;
        match res {
            Ok(out) => {
                let mut items: Vec<Option<Item>> = out
                    .responses()
                    .iter()
                    .map(|r| r.item().filter(|m| !m.is_empty()).cloned())
                    .collect();
                items.resize(n, None);
                Ok(TransactGetOutput { items })
            }
            Err(e) => {
                if let Some(aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsError::TransactionCanceledException(c)) =
                    e.as_service_error()
                {
                    return Err(canceled(c, &targets));
                }
                Err(Error::from_sdk(e, self.db.sdk_attempts()))
            }
        }
    }
}

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
