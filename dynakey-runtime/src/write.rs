//! What the write operations share with write transactions: their
//! options, the rendering of their expressions, and the action a
//! transaction holds. Below the operations
//! (`ops`), the data rules (`rules`) and transactions (`transact`), which
//! all build and send these.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use crate::codec::Item;
use crate::entity::EntityMeta;
use crate::error::{Error, ItemRef, RefusedReason};
use crate::explain::WriteCost;
use crate::expr::{Condition, Placeholders, Update};

/// What a write says besides its item or key: a condition and what to
/// return.
#[derive(Debug, Clone, Default)]
pub(crate) struct WriteOpts {
    /// The condition (and-ed from every one given).
    pub cond: Option<Condition>,
    /// `ReturnValues`.
    pub ret: Option<ReturnValue>,
    /// `ReturnValuesOnConditionCheckFailure = ALL_OLD`.
    pub old_on_fail: bool,
}

impl WriteOpts {
    /// Adds `cond` to the condition held.
    pub fn and(&mut self, cond: Condition) {
        self.cond = Some(Condition::join(self.cond.take(), cond));
    }
}

/// One action of a write transaction: what the operation builder built,
/// before rendering.
#[derive(Debug, Clone)]
pub(crate) struct Write {
    /// The entity and key it addresses (for cancellation reasons).
    pub target: ItemRef,
    /// The action.
    pub action: Action,
    /// Its condition and return options.
    pub opts: WriteOpts,
    /// Its estimated cost (outside a transaction).
    pub cost: WriteCost,
}

/// The four kinds of action.
#[derive(Debug, Clone)]
pub(crate) enum Action {
    Put(Item),
    Update(Item, Update),
    Delete(Item),
    Check(Item),
}

impl Write {
    /// Refuses what a transaction cannot do: return an item.
    pub fn for_transaction(self) -> Result<Self, Error> {
        if self.opts.ret.is_some() {
            return Err(Error::refused(RefusedReason::Unsupported, format!(
                "a transaction returns no items, so return_old/return_new cannot be asked of its action on {}",
                self.target
            )));
        }
        Ok(self)
    }
}

/// The cost of an action, estimated where the action is defined (the
/// explain layer below knows costs, not actions).
impl WriteCost {
    /// The write of `action` on an item of `meta`.
    pub(crate) fn of(meta: &EntityMeta, action: &Action) -> Self {
        match action {
            Action::Put(item) => Self::put(meta, item),
            Action::Update(_, u) => Self::update(meta, u),
            Action::Delete(_) => Self::delete(meta),
            Action::Check(_) => Self::check(),
        }
    }
}

/// The error of an SDK input that does not build (a required field
/// missing: a bug of the runtime, reported rather than a panic).
pub(crate) fn build_err(e: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::refused(
        RefusedReason::Unbuildable,
        format!("the request could not be built: {e}"),
    )
}

/// Rendered expressions of one request: every name and value of the
/// update and the condition through one set of placeholders.
#[derive(Debug, Default)]
pub(crate) struct Exprs {
    pub update: Option<String>,
    pub cond: Option<String>,
    pub names: Option<HashMap<String, String>>,
    pub values: Option<HashMap<String, AttributeValue>>,
}

/// Renders an update and a condition into one request's placeholders.
pub(crate) fn render(update: Option<&Update>, cond: Option<&Condition>) -> Result<Exprs, Error> {
    let mut cx = Placeholders::default();
    let update = update.map(|u| u.render(&mut cx)).transpose()?;
    let cond = cond.map(|c| c.render(&mut cx)).transpose()?;
    Ok(Exprs {
        update,
        cond,
        names: cx.names(),
        values: cx.values(),
    })
}

/// `Some(map)` unless empty (DynamoDB answers "no item" with an empty map
/// on some backends).
pub(crate) fn non_empty(m: Option<&crate::codec::Item>) -> Option<&crate::codec::Item> {
    m.filter(|m| !m.is_empty())
}

/// Decodes an optional returned item.
pub(crate) fn decode_opt<E: crate::entity::Entity>(
    m: Option<&crate::codec::Item>,
) -> Result<Option<E>, crate::error::Error> {
    non_empty(m)
        .map(E::from_item)
        .transpose()
        .map_err(crate::error::Error::from)
}
