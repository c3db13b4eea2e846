//! A delete of one item by its key.

use std::fmt;

use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemInputBuilder;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::types::{ReturnValue, ReturnValuesOnConditionCheckFailure};

use super::Decoding;
use crate::check::key_ref;
use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta};
use crate::error::{Error, ItemRef};
use crate::explain::{Explain, WriteCost};
use crate::expr::Condition;
use crate::key::Key;
use crate::send::{send, To};
use crate::write::{build_err, render, Action, Write, WriteOpts};

/// A delete; `.await` it. Resolves to the deleted item when
/// [`Delete::return_old`] was asked. In a transaction,
/// [`TransactWrite::delete_with`](crate::TransactWrite::delete_with) hands
/// this builder to a closure.
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
/// use dynakey_runtime::{Entity, Error};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let err = db.delete(Note::key("ann", 1).unwrap()).if_exists().await.unwrap_err();
/// assert!(matches!(err, Error::ConditionFailed { item: None, .. }));
/// # });
/// ```
#[must_use = "a delete does nothing until awaited"]
pub struct Delete<E> {
    pub(crate) db: Db,
    pub(crate) key: Key<E>,
    pub(crate) opts: WriteOpts,
}

impl<E> Clone for Delete<E> {
    fn clone(&self) -> Self {
        Delete {
            db: self.db.clone(),
            key: self.key.clone(),
            opts: self.opts.clone(),
        }
    }
}

impl<E: Entity> fmt::Debug for Delete<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Delete")
            .field("table", &self.db.table)
            .field("key", &self.key)
            .field("condition", &self.opts.cond)
            .field("return_values", &self.opts.ret)
            .field("return_old_on_fail", &self.opts.old_on_fail)
            .finish()
    }
}

impl<E: Entity> Delete<E> {
    /// Only when the item exists.
    #[must_use = "a write does nothing until awaited"]
    pub fn if_exists(self) -> Self {
        self.condition(Condition::attr(E::META.pk.attr).exists())
    }

    /// Only when `cond` holds (and-ed with any condition already set).
    #[must_use = "a write does nothing until awaited"]
    pub fn condition(mut self, cond: Condition) -> Self {
        self.opts.and(cond);
        self
    }

    /// Resolve to the deleted item (not in a transaction).
    #[must_use = "a write does nothing until awaited"]
    pub fn return_old(mut self) -> Self {
        self.opts.ret = Some(ReturnValue::AllOld);
        self
    }

    /// On a failed condition, put the item as it was into
    /// [`Error::ConditionFailed`].
    #[must_use = "a write does nothing until awaited"]
    pub fn return_old_on_fail(mut self) -> Self {
        self.opts.old_on_fail = true;
        self
    }

    /// The delete as an action of a transaction.
    pub(crate) fn into_write(self) -> Result<Write, Error> {
        Ok(Write {
            cost: WriteCost::delete(E::META),
            target: key_ref(&self.key),
            action: Action::Delete(self.key.to_attributes()),
            opts: self.opts,
        })
    }

    fn request(&self) -> Result<DeleteItemInputBuilder, Error> {
        let x = render(None, self.opts.cond.as_ref())?;
        let on_fail = self
            .opts
            .old_on_fail
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        Ok(DeleteItemInput::builder()
            .table_name(&*self.db.table)
            .set_key(Some(self.key.to_attributes()))
            .set_condition_expression(x.cond)
            .set_expression_attribute_names(x.names)
            .set_expression_attribute_values(x.values)
            .set_return_values(self.opts.ret.clone())
            .set_return_values_on_condition_check_failure(on_fail))
    }

    /// The SDK input this delete sends, without sending it.
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
    /// let input = db.delete(Note::key("ann", 1).unwrap()).if_exists().to_input().unwrap();
    /// assert_eq!(input.condition_expression(), Some("attribute_exists(#n0)"));
    /// ```
    pub fn to_input(&self) -> Result<DeleteItemInput, Error> {
        self.request()?.build().map_err(build_err)
    }

    /// The delete in readable form, with its estimated [`WriteCost`]
    /// (an upper bound when a sparse index may not hold the item), without
    /// sending it.
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
    /// let x = db.delete(Note::key("ann", 1).unwrap()).explain().unwrap();
    /// let cost = x.cost.unwrap();
    /// assert_eq!((cost.total(), cost.upper_bound), (2.0, true));
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        Ok(Explain::from(&self.to_input()?).with_cost(WriteCost::delete(E::META)))
    }

    /// Sends the delete.
    pub fn send(self) -> Decoding<E> {
        if !E::META.unique.is_empty() {
            let (key, target) = (self.key.to_attributes(), key_ref(&self.key));
            let asked = self.opts.ret == Some(ReturnValue::AllOld);
            return Decoding::new(Box::pin(delete_unique(
                self.db,
                E::META,
                key,
                target,
                self.opts.cond,
                asked,
            )));
        }
        match self.request() {
            Ok(req) => Decoding::new(Box::pin(delete_item(self.db, E::META.type_name, req))),
            Err(e) => Decoding::failed(e),
        }
    }
}

/// Sends a delete of an entity with unique fields (with its guard items);
/// the old item when it was `asked` for.
async fn delete_unique(
    db: Db,
    meta: &'static EntityMeta,
    key: Item,
    target: ItemRef,
    cond: Option<Condition>,
    asked: bool,
) -> Result<Option<Item>, Error> {
    let old = crate::rules::unique::delete(&db, meta, key, target, cond).await?;
    Ok(old.filter(|_| asked))
}

/// Sends a delete; the attributes it returns.
async fn delete_item(
    db: Db,
    entity: &'static str,
    req: DeleteItemInputBuilder,
) -> Result<Option<Item>, Error> {
    Ok(send(&To::db(&db).entity(entity), req).await?.attributes)
}

impl<E: Entity> std::future::IntoFuture for Delete<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = Decoding<E>;
    fn into_future(self) -> Decoding<E> {
        self.send()
    }
}

impl Db {
    /// Deletes the item at `key` (no error when it is absent, unless a
    /// condition says so); see [`Delete`].
    pub fn delete<E: Entity>(&self, key: Key<E>) -> Delete<E> {
        Delete {
            db: self.clone(),
            key,
            opts: WriteOpts::default(),
        }
    }
}
