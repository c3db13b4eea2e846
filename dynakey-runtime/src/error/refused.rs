//! Why dynakey refused a request before sending it: what a caller matches
//! on in [`Error::Refused`](super::Error::Refused), beside the message a
//! person reads.

/// Why a request was refused before anything was sent. Match on it to
/// tell refusals apart (a foreign cursor is a client's mistake, a newer
/// format an upgrade to make); the refusal's `message` says what, where
/// and why for a person. New reasons may come in a minor release.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32 }
/// use dynakey_runtime::{Entity, Error, RefusedReason};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let err = db.query(Note::pk("ann").unwrap()).page(Some("not-a-cursor")).await.unwrap_err();
/// assert!(matches!(err, Error::Refused { reason: RefusedReason::ForeignCursor, .. }));
/// # });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RefusedReason {
    /// A page cursor this `Db` did not hand out for this read: not a
    /// cursor, altered, another read's, or signed under another
    /// [`CursorKey`](crate::CursorKey).
    ForeignCursor,
    /// A key longer than DynamoDB allows (the partition key of a
    /// `#[dynamo(unique)]` value's guard).
    KeyTooLong,
    /// A map or list nested deeper than DynamoDB's 32 levels.
    NestingTooDeep,
    /// A number DynamoDB cannot store: NaN, infinite, over 38 digits, or
    /// out of its range.
    NumberOutOfRange,
    /// A patch changed its item's table key (move the item with
    /// `db.move_item` instead).
    TableKeyChanged,
    /// Stored text a newer dynakey wrote (a migration mark, a change-feed
    /// checkpoint): this one cannot know it reads it right.
    NewerFormat,
    /// Stored data not in the form dynakey writes it: a version attribute
    /// that is no integer, a migration mark or a checkpoint that does not
    /// read.
    Unreadable,
    /// An expression DynamoDB would refuse: a raw expression's placeholder
    /// without its name or value, `IN` with 0 or over 100 values, an
    /// update with no action, a sort-key condition on another index.
    InvalidExpression,
    /// A vector written with another number of elements than its vector
    /// index's dimensions (a `Vec<f32>` field), which DynamoDB refuses.
    VectorLength,
    /// A transaction of no action or over 100, a fan-out over no partition.
    ActionCount,
    /// What was asked cannot be done this way: items returned from a
    /// transaction, a `#[dynamo(unique)]` entity written where its guards
    /// cannot be kept, the input of a query that sends nothing.
    Unsupported,
    /// A table definition or option the table cannot have, or a table
    /// that lacks what was asked of it (a stream, a partition key).
    TableDefinition,
    /// An access policy that cannot say what was asked: a tenant's policy
    /// for an entity whose partition key does not hold the tenant, for a
    /// scan or the stream (which no key condition confines).
    AccessPolicy,
    /// A setting out of its range (a cursor key too short, an origin the
    /// embedded server cannot allow).
    InvalidSetting,
    /// An SDK input missing a field it requires: a bug of dynakey (please
    /// report it).
    Unbuildable,
    /// A refusal of code outside dynakey, which reports its own refusals
    /// through [`Error`](super::Error); dynakey never uses it.
    Other,
}
