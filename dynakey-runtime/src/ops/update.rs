//! An update of one item: typed (the derive's `E::update(..)` and
//! `E::upsert(..)`) or raw (a hand-built [`Update`]).

use std::fmt;

use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemInputBuilder;
use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;
use aws_sdk_dynamodb::types::{ReturnValue, ReturnValuesOnConditionCheckFailure};

use super::Decoding;
use crate::check::{check_update, key_ref_of};
use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta};
use crate::error::{clone_built, Error, RefusedReason};
use crate::explain::{Explain, WriteCost};
use crate::expr::{Condition, Update};
use crate::key::Key;
use crate::rules::unique;
use crate::send::{send, To};
use crate::update::{TypedUpdate, UpdateParts};
use crate::write::{build_err, non_empty, render, Action, Write, WriteOpts};

/// An update; `.await` it. Resolves to the item after (`return_new`) or
/// before (`return_old`) the update when asked. Built by [`Db::update`]
/// (typed) or [`Db::update_raw`]; in a transaction,
/// [`TransactWrite::update_with`](crate::TransactWrite::update_with) hands
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
/// use dynakey_runtime::{expr::Update, Entity};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: "v1".into() };
/// db.put(&n).await.unwrap();
/// let after = db
///     .update_raw(Note::key("ann", 1).unwrap(), Update::new().set("text", "v2"))
///     .if_exists()
///     .return_new()
///     .await
///     .unwrap();
/// assert_eq!(after.unwrap().text, "v2");
/// # });
/// ```
#[must_use = "an update does nothing until awaited"]
pub struct UpdateItem<E> {
    pub(crate) db: Db,
    pub(crate) built: Result<(Key<E>, Update), Error>,
    pub(crate) opts: WriteOpts,
}

impl<E> Clone for UpdateItem<E> {
    fn clone(&self) -> Self {
        UpdateItem {
            db: self.db.clone(),
            built: clone_built(&self.built),
            opts: self.opts.clone(),
        }
    }
}

impl<E: Entity> fmt::Debug for UpdateItem<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UpdateItem")
            .field("table", &self.db.table)
            .field("update", &self.built)
            .field("condition", &self.opts.cond)
            .field("return_values", &self.opts.ret)
            .field("return_old_on_fail", &self.opts.old_on_fail)
            .finish()
    }
}

impl<E: Entity> UpdateItem<E> {
    /// Only when the item exists (a raw update otherwise creates it; a typed patch already carries this condition).
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

    /// Resolve to the item before the update (not in a transaction).
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

    /// Resolve to the item after the update (not in a transaction).
    pub fn return_new(mut self) -> Self {
        self.opts.ret = Some(ReturnValue::AllNew);
        self
    }

    /// The updated attributes as they were (`UPDATED_OLD`); read them with
    /// [`UpdateItem::send_raw`], since they are not a whole item.
    pub fn return_updated_old(mut self) -> Self {
        self.opts.ret = Some(ReturnValue::UpdatedOld);
        self
    }

    /// The updated attributes as they are now (`UPDATED_NEW`); read them
    /// with [`UpdateItem::send_raw`].
    pub fn return_updated_new(mut self) -> Self {
        self.opts.ret = Some(ReturnValue::UpdatedNew);
        self
    }

    /// The update without its entity type: what it sends depends on the
    /// entity's metadata only, so the sending code is compiled once in this
    /// crate rather than once per entity in each user's crate.
    fn erase(self) -> RawUpdate {
        // A value DynamoDB refuses in a native key attribute is refused
        // before anything is sent.
        let built = self.built.and_then(|(k, u)| {
            check_update(E::META, &u)?;
            Ok((k.erase(), u))
        });
        RawUpdate {
            db: self.db,
            meta: E::META,
            built,
            opts: self.opts,
        }
    }

    /// The update as an action of a transaction.
    pub(crate) fn into_write(self) -> Result<Write, Error> {
        self.erase().into_write()
    }

    /// Sends the update; resolves to the whole item when
    /// [`UpdateItem::return_new`] or [`UpdateItem::return_old`] was asked.
    pub fn send(self) -> Decoding<E> {
        Decoding::new(Box::pin(self.erase().send()))
    }

    /// The SDK input this update sends, without sending it.
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
    /// use dynakey_runtime::expr::Update;
    /// let u = db.update_raw(Note::key("ann", 1).unwrap(), Update::new().set("text", "v2"));
    /// let input = u.to_input().unwrap();
    /// assert_eq!(input.update_expression(), Some("SET #n0 = :v0"));
    /// ```
    pub fn to_input(&self) -> Result<UpdateItemInput, Error> {
        self.clone().erase().request()?.1.build().map_err(build_err)
    }

    /// The update in readable form, with its estimated [`WriteCost`]: an
    /// index whose key the update rewrites costs a delete plus a put there
    /// ([`IndexChange::Move`](crate::explain::IndexChange::Move)), one whose
    /// key it removes a delete, any other index one write.
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
    /// use dynakey_runtime::expr::Update;
    /// use dynakey_runtime::explain::IndexChange;
    /// let retag = Update::new().set("tag", "blue").set("gsi1pk", "TAG#blue");
    /// let x = db.update_raw(Note::key("ann", 1).unwrap(), retag).explain().unwrap();
    /// let cost = x.cost.unwrap();
    /// assert_eq!(cost.indexes[0].change, IndexChange::Move);
    /// assert_eq!(cost.total(), 3.0); // table 1 + GSI1 delete 1 + GSI1 put 1
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let (_, req, cost) = self.clone().erase().request()?;
        let input = req.build().map_err(build_err)?;
        Ok(Explain::from(&input).with_cost(cost))
    }

    /// Sends the update; resolves to the returned attributes as they come
    /// (any return-values setting, the partial `UPDATED_*` ones included).
    pub async fn send_raw(self) -> Result<Option<Item>, Error> {
        self.erase().send().await
    }
}

impl<E: Entity> std::future::IntoFuture for UpdateItem<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = Decoding<E>;
    fn into_future(self) -> Decoding<E> {
        self.send()
    }
}

/// An [`UpdateItem`] without its entity type (see `UpdateItem::erase`).
struct RawUpdate {
    db: Db,
    meta: &'static EntityMeta,
    built: Result<(Key<()>, Update), Error>,
    opts: WriteOpts,
}

impl RawUpdate {
    fn into_write(self) -> Result<Write, Error> {
        let (key, update) = self.built?;
        Ok(Write {
            cost: WriteCost::update(self.meta, &update),
            target: key_ref_of(self.meta, &key),
            action: Action::Update(key.to_attributes(), update),
            opts: self.opts,
        })
    }

    /// An update that changes a unique field: the item's update and its
    /// guards' moves in one transaction (see [`crate::rules`]).
    async fn send_unique(self) -> Result<Option<Item>, Error> {
        let (key, update) = self.built?;
        let ret = self.opts.ret;
        if !matches!(ret, None | Some(ReturnValue::AllOld | ReturnValue::AllNew)) {
            return Err(Error::refused(
                RefusedReason::Unsupported,
                "an update of a unique field returns the whole item or nothing",
            ));
        }
        let (attrs, target) = (key.to_attributes(), key_ref_of(self.meta, &key));
        let old = unique::update(
            &self.db,
            self.meta,
            attrs.clone(),
            target,
            update,
            self.opts.cond,
        )
        .await?;
        match ret {
            Some(ReturnValue::AllOld) => Ok(old),
            Some(ReturnValue::AllNew) => unique::read_item(&self.db, self.meta, &attrs).await,
            _ => Ok(None),
        }
    }

    fn request(self) -> Result<(Db, UpdateItemInputBuilder, WriteCost), Error> {
        let (key, update) = self.built?;
        let x = render(Some(&update), self.opts.cond.as_ref())?;
        let on_fail = self
            .opts
            .old_on_fail
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let req = UpdateItemInput::builder()
            .table_name(&*self.db.table)
            .set_key(Some(key.to_attributes()))
            .set_update_expression(x.update)
            .set_condition_expression(x.cond)
            .set_expression_attribute_names(x.names)
            .set_expression_attribute_values(x.values)
            .set_return_values(self.opts.ret.clone())
            .set_return_values_on_condition_check_failure(on_fail);
        let cost = WriteCost::update(self.meta, &update);
        Ok((self.db, req, cost))
    }

    async fn send(self) -> Result<Option<Item>, Error> {
        let meta = self.meta;
        let unique = matches!(&self.built, Ok((_, u)) if unique::touches_guards(meta, u));
        if unique {
            return self.send_unique().await;
        }
        let (db, req, _) = self.request()?;
        let out = send(&To::db(&db).entity(meta.type_name), req).await?;
        Ok(non_empty(out.attributes()).cloned())
    }
}

/// Sends the update a patch built (see [`super::patch`]) for the entity of
/// `meta` under `cond`, resolving to the item after it.
pub(super) fn send_patch(
    db: Db,
    meta: &'static EntityMeta,
    key: Key<()>,
    update: Update,
    cond: Condition,
) -> super::BoxFuture<'static, Result<Option<Item>, Error>> {
    let built = check_update(meta, &update).map(|()| (key, update));
    let raw = RawUpdate {
        db,
        meta,
        built,
        opts: WriteOpts {
            cond: Some(cond),
            ret: Some(ReturnValue::AllNew),
            old_on_fail: false,
        },
    };
    Box::pin(raw.send())
}

impl Db {
    /// Sends a typed update built by the derive, e.g.
    /// `db.update(WorkItem::update(id).set_status(WorkStatus::Closed))`.
    /// It rewrites (or, for a sparse index, removes) every index key whose
    /// inputs it sets; an update that sets only some inputs of a key does
    /// not compile (DYNA226). See [`UpdateItem`]. To change one input of
    /// a key of several, or to apply a PATCH request's optional fields,
    /// [`Db::patch`] reads the item and rebuilds the key from it.
    pub fn update<U: TypedUpdate>(&self, update: U) -> UpdateItem<U::Entity> {
        self.typed_update(update.into_parts())
    }

    /// [`Db::update`] once the update is built: generic over the entity
    /// only, not over each builder state a program's updates reach.
    fn typed_update<E: Entity>(&self, parts: Result<UpdateParts<E>, Error>) -> UpdateItem<E> {
        let (built, cond) = match parts {
            Ok(parts) => {
                let now = time::OffsetDateTime::now_utc();
                let update = crate::rules::stamp_update(E::META, parts.update, now);
                (Ok((parts.key, update)), parts.condition)
            }
            Err(e) => (Err(e), None),
        };
        UpdateItem {
            db: self.clone(),
            built,
            opts: WriteOpts {
                cond,
                ..WriteOpts::default()
            },
        }
    }

    /// Updates the item at `key` with a hand-built [`Update`]. It does not
    /// keep index keys in step: prefer [`Db::update`] with the derive's
    /// `E::update(..)`, which rewrites every index key its inputs feed.
    pub fn update_raw<E: Entity>(&self, key: Key<E>, update: Update) -> UpdateItem<E> {
        UpdateItem {
            db: self.clone(),
            built: Ok((key, update)),
            opts: WriteOpts::default(),
        }
    }
}
