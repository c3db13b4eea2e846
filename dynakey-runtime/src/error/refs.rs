//! What an error points at: the entity and key of an item, and why one
//! action of a cancelled transaction failed.

use std::fmt;

use crate::shown::shown_plain;

/// Which item of a request an error is about: its entity's discriminator
/// and its table key.
///
/// ```
/// use dynakey_runtime::error::ItemRef;
/// let r = ItemRef::new("MEMBER", "USER#alice", Some("PROFILE"));
/// assert_eq!(r.discriminator, "MEMBER");
/// assert_eq!(r.to_string(), "MEMBER USER#alice / PROFILE");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItemRef {
    /// The entity's discriminator, e.g. `MEMBER` (the value stored in its
    /// discriminator attribute; an error's `entity` is always the Rust
    /// type's name).
    pub discriminator: &'static str,
    /// The partition key text.
    pub pk: String,
    /// The sort key text, if the table has one.
    pub sk: Option<String>,
}

impl ItemRef {
    /// The item of the entity whose discriminator is `discriminator`, at
    /// `pk` / `sk`.
    ///
    /// ```
    /// let r = dynakey_runtime::error::ItemRef::new("NOTE", "USER#ann", None::<String>);
    /// assert_eq!(r.to_string(), "NOTE USER#ann");
    /// ```
    pub fn new(
        discriminator: &'static str,
        pk: impl Into<String>,
        sk: Option<impl Into<String>>,
    ) -> Self {
        Self {
            discriminator,
            pk: pk.into(),
            sk: sk.map(Into::into),
        }
    }
}

impl fmt::Display for ItemRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.sk {
            Some(sk) => write!(
                f,
                "{} {} / {}",
                self.discriminator,
                shown_plain(&self.pk),
                shown_plain(sk)
            ),
            None => write!(f, "{} {}", self.discriminator, shown_plain(&self.pk)),
        }
    }
}

/// Why one action of a cancelled transaction failed.
///
/// `code` is DynamoDB's reason code: `None` (the action was fine; another
/// one failed), `ConditionalCheckFailed`, `TransactionConflict`,
/// `ItemCollectionSizeLimitExceeded`, `ValidationError`, ….
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "PROFILE")]
/// # #[pk("USER#<user>")]
/// # #[sk("PROFILE")]
/// # struct Profile { user: String, name: String }
/// use dynakey_runtime::{Entity, Error};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("profiles");
/// db.create_table(&[Profile::META]).await.unwrap();
/// let p = Profile { user: "ann".into(), name: "Ann".into() };
/// db.put(&p).await.unwrap();
/// let err = db.transact_write().put_with(&p, |put| put.if_not_exists()).await.unwrap_err();
/// let Error::TransactionCanceled { reasons } = err else { panic!() };
/// assert!(reasons[0].failed());
/// assert_eq!(reasons[0].code, "ConditionalCheckFailed");
/// assert_eq!(reasons[0].target.to_string(), "PROFILE USER#ann / PROFILE");
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CancelReason {
    /// The action's position in the transaction, from 0.
    pub index: usize,
    /// DynamoDB's reason code.
    pub code: String,
    /// DynamoDB's message, if any.
    pub message: Option<String>,
    /// Which item the action addressed: its entity's discriminator and
    /// its key.
    pub target: ItemRef,
    /// The item as it was, when the action asked for it on a failed condition.
    pub item: Option<crate::codec::Item>,
}

impl CancelReason {
    pub(crate) fn new(index: usize, code: impl Into<String>, target: ItemRef) -> Self {
        Self {
            index,
            code: code.into(),
            message: None,
            target,
            item: None,
        }
    }

    /// Whether this action is the one (or one of those) that failed: its
    /// code is not `None` (see the example on [`CancelReason`]).
    pub fn failed(&self) -> bool {
        self.code != "None"
    }
}
