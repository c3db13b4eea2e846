//! One stream record, whatever it came from: the Streams API, a Lambda
//! event or DynamoDB JSON all become a [`ChangeRecord`] before the one
//! decoder reads it.

use std::time::SystemTime;

use crate::codec::Item;
pub use crate::error::change::{Operation, StreamView};

/// Whether a record's `userIdentity` is DynamoDB's TTL service, the mark
/// of an expiry.
///
/// ```
/// assert!(dynakey_runtime::changes::is_ttl_identity(Some("Service"), Some("dynamodb.amazonaws.com")));
/// assert!(!dynakey_runtime::changes::is_ttl_identity(None, None));
/// ```
pub fn is_ttl_identity(kind: Option<&str>, principal: Option<&str>) -> bool {
    kind == Some("Service") && principal == Some("dynamodb.amazonaws.com")
}

/// The table a DynamoDB stream's ARN belongs to
/// (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL`), as a
/// Lambda event record's `eventSourceARN` names it.
///
/// ```
/// use dynakey_runtime::changes::table_of_stream_arn;
/// let arn = "arn:aws:dynamodb:us-east-1:123456789012:table/Music/stream/2024-01-01T00:00:00.000";
/// assert_eq!(table_of_stream_arn(arn), Some("Music"));
/// assert_eq!(table_of_stream_arn("arn:aws:kinesis:us-east-1:1:stream/s"), None);
/// ```
pub fn table_of_stream_arn(arn: &str) -> Option<&str> {
    // arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE, the resource holding
    // colons of its own (the stream's label is a time).
    let mut parts = arn.strip_prefix("arn:")?.splitn(5, ':');
    let (_, service) = (parts.next()?, parts.next()?);
    let resource = parts.nth(2)?;
    if service != "dynamodb" {
        return None;
    }
    let (name, rest) = resource.strip_prefix("table/")?.split_once('/')?;
    (!name.is_empty() && rest.starts_with("stream/")).then_some(name)
}

/// One stream record in a source-neutral form: what the decoder reads.
/// Built from a Streams API record, a Lambda event record or DynamoDB JSON
/// (see [`ChangeDecoder`](super::ChangeDecoder)), or by hand.
///
/// ```
/// use aws_sdk_dynamodb::types::AttributeValue::S;
/// use dynakey_runtime::changes::{ChangeRecord, Operation};
/// let keys: dynakey_runtime::Item = [("pk".to_owned(), S("USER#ann".into()))].into();
/// let r = ChangeRecord::new(Operation::Remove, keys.clone()).with_old(keys);
/// assert!(r.old.is_some() && r.new.is_none());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[must_use]
pub struct ChangeRecord {
    /// What happened.
    pub op: Operation,
    /// The item's key attributes (always present).
    pub keys: Item,
    /// The item before the change, when the view type carries it.
    pub old: Option<Item>,
    /// The item after the change, when the view type carries it.
    pub new: Option<Item>,
    /// The stream's view type, when the record says it.
    pub view: Option<StreamView>,
    /// The record's sequence number (order within a shard).
    pub sequence_number: Option<String>,
    /// The shard the record was read from (the consumer sets it).
    pub shard_id: Option<String>,
    /// The record's event id.
    pub event_id: Option<String>,
    /// The table the change was made in, when the record names it (a
    /// Kinesis record's `tableName`: one Kinesis stream can carry several
    /// tables' changes; a Lambda event record's `eventSourceARN`: one
    /// function can read several tables' streams).
    pub table: Option<String>,
    /// When the change was made, approximately (`ApproximateCreationDateTime`,
    /// an export's `WriteTimestampMicros`); `None` when the record has no
    /// time. Read exactly from every form AWS writes: epoch seconds (the
    /// Streams API's JSON and Lambda, a number or text), ISO 8601 with any
    /// offset (the AWS CLI v2), epoch milliseconds or microseconds (Kinesis,
    /// by the record's `ApproximateCreationDateTimePrecision`), and, as the
    /// last resort, by magnitude when the source's documented unit would
    /// date the change after the year 5138 (10¹¹ s): a number below 10¹⁴
    /// is then milliseconds, below 10¹⁷ microseconds.
    pub created_at: Option<SystemTime>,
}

impl ChangeRecord {
    /// A record of `op` on the item with `keys`, with no images.
    pub fn new(op: Operation, keys: Item) -> Self {
        Self {
            op,
            keys,
            old: None,
            new: None,
            view: None,
            sequence_number: None,
            shard_id: None,
            event_id: None,
            table: None,
            created_at: None,
        }
    }

    /// With the old image.
    pub fn with_old(mut self, item: Item) -> Self {
        self.old = Some(item);
        self
    }

    /// With the new image.
    pub fn with_new(mut self, item: Item) -> Self {
        self.new = Some(item);
        self
    }

    /// With the sequence number.
    pub fn with_sequence_number(mut self, seq: impl Into<String>) -> Self {
        self.sequence_number = Some(seq.into());
        self
    }

    /// With the time of the change.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use aws_sdk_dynamodb::types::AttributeValue::S;
    /// use dynakey_runtime::changes::{ChangeRecord, Operation};
    /// let keys: dynakey_runtime::Item = [("pk".to_owned(), S("A".into()))].into();
    /// let at = UNIX_EPOCH + Duration::from_millis(1_731_600_037_123);
    /// let r = ChangeRecord::new(Operation::Remove, keys).with_created_at(at);
    /// assert_eq!(r.created_at, Some(at));
    /// ```
    pub fn with_created_at(mut self, at: SystemTime) -> Self {
        self.created_at = Some(at);
        self
    }

    /// With the event id.
    ///
    /// ```
    /// use aws_sdk_dynamodb::types::AttributeValue::S;
    /// use dynakey_runtime::changes::{ChangeRecord, Operation};
    /// let keys: dynakey_runtime::Item = [("pk".to_owned(), S("A".into()))].into();
    /// let r = ChangeRecord::new(Operation::Remove, keys).with_event_id("e-1");
    /// assert_eq!(r.event_id.as_deref(), Some("e-1"));
    /// ```
    pub fn with_event_id(mut self, id: impl Into<String>) -> Self {
        self.event_id = Some(id.into());
        self
    }
}
