//! Transactions: puts, updates, deletes and condition checks across entity
//! types (up to DynamoDB's 100 actions), and transactional gets. A
//! cancelled transaction is [`Error::TransactionCanceled`], with the reason
//! code and the entity/key of every action.
//!
//! An action is named like the [`Db`] operation it mirrors and takes the
//! same arguments: `put(&e)`, `update(typed)`, `update_raw(key, update)`,
//! `delete(key)`; its `_with` form hands the same builder the `Db`
//! operation returns ([`Put`], [`UpdateItem`], [`Delete`]) to a closure, so
//! a condition reads the same in both places:
//! `db.put(&e).if_not_exists()` and `tx.put_with(&e, |p| p.if_not_exists())`.
//! `check(key, cond)` requires a condition without writing.

mod cancel;
mod get;
mod moves;

use std::fmt;

use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsInputBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::{
    TransactWriteItemsError, TransactWriteItemsInput,
};
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete as SdkDelete, Put as SdkPut, ReturnValuesOnConditionCheckFailure,
    TransactWriteItem, Update as SdkUpdate,
};

use crate::check::key_ref;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{clone_built, Error, ItemRef, RefusedReason};
use crate::explain::{Explain, WriteCost};
use crate::expr::{Condition, Update};
use crate::key::Key;
use crate::ops::{into_future, Delete, Put, UpdateItem};
use crate::send::{send_then, To};
use crate::update::TypedUpdate;
use crate::write::{build_err, render, Action, Write, WriteOpts};

#[allow(deprecated)]
pub use get::{TransactGet, TransactGetOutcome, TransactGetOutput};

/// DynamoDB's limit on actions per transaction.
pub const MAX_ACTIONS: usize = 100;

/// A write transaction. Build it with [`Db::transact_write`]; `.await` (or
/// [`TransactWrite::send`]) it.
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
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META, Profile::META]).await.unwrap();
/// let p = Profile { user: "ann".into(), name: "Ann".into() };
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: String::new() };
/// db.transact_write().put_with(&p, |put| put.if_not_exists()).put(&n).await.unwrap();
/// let err = db
///     .transact_write()
///     .update_raw(Note::key("ann", 1).unwrap(), Update::new().set("text", "x"))
///     .put_with(&p, |put| put.if_not_exists())
///     .await
///     .unwrap_err();
/// let Error::TransactionCanceled { reasons } = err else { panic!() };
/// assert_eq!(reasons[1].code, "ConditionalCheckFailed");
/// assert_eq!(reasons[1].target.discriminator, "PROFILE");
/// # });
/// ```
#[must_use = "a transaction does nothing until sent"]
pub struct TransactWrite {
    db: Db,
    built: Result<Vec<Write>, Error>,
    token: Option<String>,
    /// Actions on `#[dynamo(unique)]` entities (position, entity): their
    /// guards are added when the transaction is sent.
    guarded: Vec<(usize, &'static crate::entity::EntityMeta)>,
}

impl Clone for TransactWrite {
    fn clone(&self) -> Self {
        TransactWrite {
            db: self.db.clone(),
            built: clone_built(&self.built),
            token: self.token.clone(),
            guarded: self.guarded.clone(),
        }
    }
}

impl fmt::Debug for TransactWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TransactWrite")
            .field("table", &self.db.table)
            .field("actions", &self.built)
            .field("client_token", &self.token)
            .finish()
    }
}

impl Db {
    /// An empty write transaction.
    pub fn transact_write(&self) -> TransactWrite {
        TransactWrite {
            db: self.clone(),
            built: Ok(Vec::new()),
            token: None,
            guarded: Vec::new(),
        }
    }
}

impl TransactWrite {
    /// Adds an action, or keeps the first error found while building one
    /// ([`TransactWrite::send`] returns it, sending nothing).
    fn add(mut self, write: Result<Write, Error>) -> Self {
        if let Ok(writes) = &mut self.built {
            match write.and_then(Write::for_transaction) {
                Ok(w) => writes.push(w),
                Err(e) => self.built = Err(e),
            }
        }
        self
    }

    /// An action built outside the builders (a move's put of an item whose
    /// version is already set).
    pub(crate) fn push(self, write: Write) -> Self {
        self.add(Ok(write))
    }

    /// Puts `e` (a versioned entity on condition of its version, as
    /// [`Db::put`]).
    pub fn put<E: Entity>(self, e: &E) -> Self {
        self.put_with(e, |p| p)
    }

    /// Puts `e`, configured by `f` on the [`Put`] builder:
    /// `tx.put_with(&e, |p| p.if_not_exists())`. Return values are refused
    /// (a transaction returns no items).
    pub fn put_with<E: Entity>(self, e: &E, f: impl FnOnce(Put<E>) -> Put<E>) -> Self {
        let w = f(self.db.put(e)).into_write();
        self.guard::<E>(true).add(w)
    }

    /// Marks the next action as one whose unique values need guards.
    fn guard<E: Entity>(mut self, touches_unique: bool) -> Self {
        if touches_unique && !E::META.unique.is_empty() {
            let at = self.len();
            self.guarded.push((at, E::META));
        }
        self
    }

    /// A typed update built by the derive (`E::update(..)`,
    /// `E::upsert(..)`), with the index keys it rewrites and the condition
    /// it carries, as [`Db::update`].
    pub fn update<U: TypedUpdate>(self, update: U) -> Self {
        self.update_with(update, |u| u)
    }

    /// A typed update, configured by `f` on the [`UpdateItem`] builder:
    /// `tx.update_with(E::update(..).set_x(..), |u| u.condition(c))`.
    pub fn update_with<U: TypedUpdate>(
        self,
        update: U,
        f: impl FnOnce(UpdateItem<U::Entity>) -> UpdateItem<U::Entity>,
    ) -> Self {
        let w = f(self.db.update(update)).into_write();
        let touches = w.as_ref().is_ok_and(|w| match &w.action {
            Action::Update(_, u) => crate::rules::unique::touches_guards(U::Entity::META, u),
            _ => false,
        });
        self.guard::<U::Entity>(touches).add(w)
    }

    /// Updates the item at `key` with a hand-built [`Update`], as
    /// [`Db::update_raw`] (which creates a missing item).
    pub fn update_raw<E: Entity>(self, key: Key<E>, update: Update) -> Self {
        self.update_raw_with(key, update, |u| u)
    }

    /// A raw update, configured by `f` on the [`UpdateItem`] builder.
    pub fn update_raw_with<E: Entity>(
        self,
        key: Key<E>,
        update: Update,
        f: impl FnOnce(UpdateItem<E>) -> UpdateItem<E>,
    ) -> Self {
        let w = f(self.db.update_raw(key, update)).into_write();
        self.add(w)
    }

    /// Deletes the item at `key`.
    pub fn delete<E: Entity>(self, key: Key<E>) -> Self {
        self.delete_with(key, |d| d)
    }

    /// Deletes the item at `key`, configured by `f` on the [`Delete`]
    /// builder: `tx.delete_with(key, |d| d.condition(c))`.
    pub fn delete_with<E: Entity>(
        self,
        key: Key<E>,
        f: impl FnOnce(Delete<E>) -> Delete<E>,
    ) -> Self {
        let w = f(self.db.delete(key)).into_write();
        self.guard::<E>(true).add(w)
    }

    /// Requires `cond` on the item at `key`, writing nothing to it.
    pub fn check<E: Entity>(self, key: Key<E>, cond: Condition) -> Self {
        let w = Write {
            cost: WriteCost::check(),
            target: key_ref(&key),
            action: Action::Check(key.to_attributes()),
            opts: WriteOpts {
                cond: Some(cond),
                ..WriteOpts::default()
            },
        };
        self.add(Ok(w))
    }

    /// An idempotency token (`ClientRequestToken`).
    pub fn client_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// How many actions the transaction holds (none once one failed to
    /// build: see [`TransactWrite::send`]).
    pub fn len(&self) -> usize {
        self.built.as_ref().map_or(0, Vec::len)
    }

    /// Whether the transaction holds no action.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The actions as the SDK sends them, their targets and their cost
    /// (checked: 1 to 100 actions).
    fn request(
        self,
    ) -> Result<
        (
            Db,
            TransactWriteItemsInputBuilder,
            Vec<ItemRef>,
            Option<WriteCost>,
        ),
        Error,
    > {
        let writes = self.built?;
        if writes.is_empty() || writes.len() > MAX_ACTIONS {
            return Err(Error::refused(
                RefusedReason::ActionCount,
                format!(
                    "a transaction takes 1 to {MAX_ACTIONS} actions, not {}",
                    writes.len()
                ),
            ));
        }
        let cost = WriteCost::sum(writes.iter().map(|w| w.cost.clone().in_transaction()));
        let mut items = Vec::with_capacity(writes.len());
        let mut targets: Vec<ItemRef> = Vec::with_capacity(writes.len());
        for w in writes {
            let (target, item) = to_sdk(&self.db, w)?;
            items.push(item);
            targets.push(target);
        }
        let req = TransactWriteItemsInput::builder()
            .set_transact_items(Some(items))
            .set_client_request_token(self.token);
        Ok((self.db, req, targets, cost))
    }

    /// The SDK input of the transaction, without sending it.
    ///
    /// ```
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
    /// let n = Note { user: "ann".into(), id: 1, tag: Some("red".into()), text: String::new() };
    /// let input = db.transact_write().put(&n).delete(Note::key("ann", 2).unwrap()).to_input().unwrap();
    /// assert_eq!(input.transact_items().len(), 2);
    /// ```
    pub fn to_input(&self) -> Result<TransactWriteItemsInput, Error> {
        self.clone().request()?.1.build().map_err(build_err)
    }

    /// The transaction in readable form, one action per write, with the
    /// estimated cost: each action's table write counts double, the index
    /// writes it causes once (what DynamoDB charges, and what the embedded
    /// engine reports).
    ///
    /// ```
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
    /// let n = Note { user: "ann".into(), id: 1, tag: Some("red".into()), text: String::new() };
    /// let x = db.transact_write().put(&n).explain().unwrap();
    /// assert_eq!(x.actions[0].operation, "Put");
    /// assert_eq!(x.cost.unwrap().total(), 3.0); // table 2 × 1 + GSI1 1
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let (_, req, _, cost) = self.clone().request()?;
        let input = req.build().map_err(build_err)?;
        let mut x = Explain::from(&input);
        x.cost = cost;
        Ok(x)
    }

    /// Sends the transaction. An action that failed to build, more than
    /// 100 actions, or none, is refused before sending.
    pub async fn send(mut self) -> Result<(), Error> {
        // Unique values: the guard items' puts and deletes join the
        // actions (reading the items they guard first).
        let guards = match self.built.as_mut() {
            Ok(writes) => {
                Some(crate::rules::unique::add_guards(&self.db, writes, &self.guarded).await?)
            }
            Err(_) => None,
        };
        let (db, req, targets, _) = self.request()?;
        send_then(&To::db(&db), req, |sent, attempts| match sent {
            Ok(_) => Ok(()),
            Err(e) => Err(match e.as_service_error() {
                Some(TransactWriteItemsError::TransactionCanceledException(c)) => {
                    let err = cancel::canceled(c, &targets);
                    match &guards {
                        Some(g) => crate::rules::unique::taken(err, g),
                        None => err,
                    }
                }
                _ => Error::from_sdk(e, attempts),
            }),
        })
        .await
    }
}

into_future!(TransactWrite, ());

/// One action as the SDK sends it. A conditional action always asks for
/// the old item on failure, so the cancellation reason carries it.
fn to_sdk(db: &Db, w: Write) -> Result<(ItemRef, TransactWriteItem), Error> {
    let update = match &w.action {
        Action::Update(_, u) => Some(u),
        _ => None,
    };
    let x = render(update, w.opts.cond.as_ref())?;
    let on_fail = x
        .cond
        .is_some()
        .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
    // What every kind of action carries, set once for the four SDK builders
    // (they share no trait): the table, the condition and its placeholders,
    // and the old item on a failed condition.
    macro_rules! action {
        ($builder:expr) => {
            $builder
                .table_name(&*db.table)
                .set_condition_expression(x.cond)
                .set_expression_attribute_names(x.names)
                .set_expression_attribute_values(x.values)
                .set_return_values_on_condition_check_failure(on_fail)
        };
    }
    let item = TransactWriteItem::builder();
    let item = match w.action {
        Action::Put(it) => item.put(
            action!(SdkPut::builder())
                .set_item(Some(it))
                .build()
                .map_err(build_err)?,
        ),
        Action::Update(key, _) => item.update(
            action!(SdkUpdate::builder())
                .set_key(Some(key))
                .set_update_expression(x.update)
                .build()
                .map_err(build_err)?,
        ),
        Action::Delete(key) => item.delete(
            action!(SdkDelete::builder())
                .set_key(Some(key))
                .build()
                .map_err(build_err)?,
        ),
        Action::Check(key) => item.condition_check(
            action!(ConditionCheck::builder())
                .set_key(Some(key))
                .build()
                .map_err(build_err)?,
        ),
    };
    Ok((w.target, item.build()))
}
