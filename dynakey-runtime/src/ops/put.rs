//! A put: the whole item, with an optional condition.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::put_item::builders::PutItemInputBuilder;
use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::types::{ReturnValue, ReturnValuesOnConditionCheckFailure};

use super::Decoding;
use crate::check::{check_item, key_text, versioned};
use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta};
use crate::error::{clone_built, Error};
use crate::explain::{Explain, WriteCost};
use crate::expr::Condition;
use crate::rules::unique;
use crate::send::{send, To};
use crate::write::{build_err, render, Action, Write, WriteOpts};

/// A put; `.await` (or [`Put::send`]) it. Resolves to the old item when
/// [`Put::return_old`] was asked, the item as written when
/// [`Put::return_new`] was, else `None`. In a transaction,
/// [`TransactWrite::put_with`](crate::TransactWrite::put_with) hands this
/// builder to a closure, so conditions read the same there.
///
/// A `#[dynamo(version)]` entity is written with the next version, on
/// condition that the stored one is the version it was read at. The item
/// is checked before sending: over 400 KB is [`Error::ItemTooLarge`], a
/// number DynamoDB cannot store is [`Error::Refused`].
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
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: "v1".into() };
/// assert_eq!(db.put(&n).if_not_exists().await.unwrap(), None);
/// let err = db.put(&n).if_not_exists().return_old_on_fail().await.unwrap_err();
/// assert!(matches!(err, Error::ConditionFailed { item: Some(_), .. }));
/// let v2 = Note { text: "v2".into(), ..n.clone() };
/// assert_eq!(db.put(&v2).return_old().await.unwrap(), Some(n));
/// # });
/// ```
#[must_use = "a put does nothing until awaited"]
pub struct Put<E> {
    pub(crate) db: Db,
    pub(crate) built: Result<Item, Error>,
    pub(crate) opts: WriteOpts,
    pub(crate) _e: PhantomData<fn() -> E>,
}

impl<E> Clone for Put<E> {
    fn clone(&self) -> Self {
        Put {
            db: self.db.clone(),
            built: clone_built(&self.built),
            opts: self.opts.clone(),
            _e: PhantomData,
        }
    }
}

impl<E: Entity> fmt::Debug for Put<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Put")
            .field("table", &self.db.table)
            .field("entity", &E::META.discriminator)
            .field("item", &self.built)
            .field("condition", &self.opts.cond)
            .field("return_values", &self.opts.ret)
            .field("return_old_on_fail", &self.opts.old_on_fail)
            .finish()
    }
}

impl<E: Entity> Put<E> {
    /// Only when no item has this key.
    pub fn if_not_exists(self) -> Self {
        self.condition(Condition::attr(E::META.pk.attr).not_exists())
    }

    /// Only when an item has this key (replace, never create).
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

    /// Resolve to the replaced item (`ReturnValues = ALL_OLD`; not in a transaction).
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

    /// Resolve to the item as this put writes it: `Some` whenever the put
    /// succeeds, with its `#[dynamo(version)]` field at the version written
    /// and its `#[dynamo(updated_at)]`/`created_at` stamps, so a handler
    /// learns what it wrote without reading it back. Nothing more is sent
    /// (PutItem returns no new item; this one is the one sent). Replaces
    /// [`Put::return_old`] (the last asked wins). A transaction returns no
    /// items, so its put refuses it ([`Error::Refused`]), as it does
    /// `return_old`.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "DOC")]
    /// # #[pk("DOC#<id>")]
    /// # struct Doc { id: String, body: String, #[dynamo(version)] version: u64 }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("docs");
    /// db.create_table(&[Doc::META]).await.unwrap();
    /// let d = Doc { id: "d1".into(), body: "v1".into(), version: 0 };
    /// let written = db.put(&d).return_new().await.unwrap().unwrap();
    /// assert_eq!(written.version, 1);
    /// // The next put starts from what was written: no read in between.
    /// let edited = Doc { body: "v2".into(), ..written };
    /// assert_eq!(db.put(&edited).return_new().await.unwrap().unwrap().version, 2);
    /// // A put from the stale copy is refused.
    /// assert!(db.put(&d).await.is_err());
    /// # });
    /// ```
    #[must_use = "a write does nothing until awaited"]
    pub fn return_new(mut self) -> Self {
        self.opts.ret = Some(ReturnValue::AllNew);
        self
    }

    /// The item as it will be written (its next version set) and the
    /// options, checked.
    fn into_parts(self) -> Result<(Item, WriteOpts), Error> {
        let mut item = self.built?;
        let mut opts = self.opts;
        opts.cond = versioned::<E>(&mut item, opts.cond)?;
        check_item(E::META, &item)?;
        Ok((item, opts))
    }

    /// The put as an action of a transaction.
    pub(crate) fn into_write(self) -> Result<Write, Error> {
        let (item, opts) = self.into_parts()?;
        Ok(Write {
            cost: WriteCost::put(E::META, &item),
            target: key_text(E::META, &item),
            action: Action::Put(item),
            opts,
        })
    }

    /// The request: the SDK input builder and the estimated cost.
    fn request(self) -> Result<(Db, PutItemInputBuilder, Option<Item>), Error> {
        let db = self.db.clone();
        let (item, opts) = self.into_parts()?;
        // PutItem returns no new item: the one sent is it.
        let (ret, new) = match opts.ret {
            Some(ReturnValue::AllNew) => (None, Some(item.clone())),
            ret => (ret, None),
        };
        let x = render(None, opts.cond.as_ref())?;
        let on_fail = opts
            .old_on_fail
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let req = PutItemInput::builder()
            .table_name(&*db.table)
            .set_item(Some(item))
            .set_condition_expression(x.cond)
            .set_expression_attribute_names(x.names)
            .set_expression_attribute_values(x.values)
            .set_return_values(ret)
            .set_return_values_on_condition_check_failure(on_fail);
        Ok((db, req, new))
    }

    /// The SDK input this put sends, without sending it.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let n = Note { user: "ann".into(), id: 1, text: "hi".into() };
    /// let input = backend.db("notes").put(&n).if_not_exists().to_input().unwrap();
    /// assert_eq!(input.condition_expression(), Some("attribute_not_exists(#n0)"));
    /// ```
    pub fn to_input(&self) -> Result<PutItemInput, Error> {
        self.clone().request()?.1.build().map_err(build_err)
    }

    /// The put in readable form, with its estimated [`WriteCost`], without
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
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let tagged = Note { user: "ann".into(), id: 1, tag: Some("red".into()), text: "hi".into() };
    /// let x = db.put(&tagged).explain().unwrap();
    /// assert_eq!(x.cost.as_ref().unwrap().total(), 2.0); // the table and GSI1
    /// let plain = Note { tag: None, ..tagged };
    /// assert_eq!(db.put(&plain).explain().unwrap().cost.unwrap().total(), 1.0); // not in GSI1
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let (_, req, _) = self.clone().request()?;
        let input = req.build().map_err(build_err)?;
        // Estimated here only: a put sent does not need it.
        let cost = WriteCost::put(E::META, input.item().unwrap_or(&Item::new()));
        Ok(Explain::from(&input).with_cost(cost))
    }

    /// Sends the put.
    pub fn send(self) -> Decoding<E> {
        if !E::META.unique.is_empty() {
            let db = self.db.clone();
            return match self.into_parts() {
                Ok((item, opts)) => Decoding::new(Box::pin(put_unique(db, E::META, item, opts))),
                Err(e) => Decoding::failed(e),
            };
        }
        match self.request() {
            Ok((db, req, new)) => {
                Decoding::new(Box::pin(put_item(db, E::META.type_name, req, new)))
            }
            Err(e) => Decoding::failed(e),
        }
    }
}

/// Sends a put of an entity with unique fields (a transaction with its
/// guard items); the old item when it was asked for.
async fn put_unique(
    db: Db,
    meta: &'static EntityMeta,
    item: Item,
    opts: WriteOpts,
) -> Result<Option<Item>, Error> {
    let new = (opts.ret == Some(ReturnValue::AllNew)).then(|| item.clone());
    let old = unique::put(&db, meta, item, opts.cond).await?;
    Ok(match opts.ret {
        Some(ReturnValue::AllOld) => old,
        _ => new,
    })
}

/// Sends a put; the attributes it returns, or `new` (the item sent) when
/// the put was asked for the item as written.
async fn put_item(
    db: Db,
    entity: &'static str,
    req: PutItemInputBuilder,
    new: Option<Item>,
) -> Result<Option<Item>, Error> {
    let out = send(&To::db(&db).entity(entity), req).await?;
    Ok(new.or(out.attributes))
}

impl<E: Entity> std::future::IntoFuture for Put<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = Decoding<E>;
    fn into_future(self) -> Decoding<E> {
        self.send()
    }
}

impl Db {
    /// Writes `e` (replacing an item with the same key); see [`Put`].
    pub fn put<E: Entity>(&self, e: &E) -> Put<E> {
        Put {
            db: self.clone(),
            built: crate::rules::put_item(e),
            opts: WriteOpts::default(),
            _e: PhantomData,
        }
    }
}
