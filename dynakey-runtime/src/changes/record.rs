//! One stream record, whatever it came from: the Streams API, a Lambda
//! event or DynamoDB JSON all become a [`ChangeRecord`] before the one
//! decoder reads it.

use std::fmt;
use std::time::SystemTime;

use crate::codec::Item;

/// What happened to the item.
///
/// Streams name three operations (INSERT, MODIFY, REMOVE); a REMOVE by
/// DynamoDB's TTL service (the record's `userIdentity` is `Service` /
/// `dynamodb.amazonaws.com`) is [`Operation::Expire`] here.
///
/// ```
/// use dynakey_runtime::changes::Operation;
/// assert_eq!(Operation::from_event_name("MODIFY", false), Some(Operation::Modify));
/// assert_eq!(Operation::from_event_name("REMOVE", true), Some(Operation::Expire));
/// assert_eq!(Operation::from_event_name("INSERT", true), Some(Operation::Insert));
/// assert_eq!(Operation::from_event_name("UPSERT", false), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// A new item (INSERT).
    Insert,
    /// An item written over (MODIFY).
    Modify,
    /// An item deleted by a request (REMOVE).
    Remove,
    /// An item deleted by TTL (REMOVE by the TTL service).
    Expire,
}

impl Operation {
    /// The operation of a record's `eventName`; `ttl` says whether its
    /// `userIdentity` is TTL's (only a REMOVE can be an expiry).
    pub fn from_event_name(name: &str, ttl: bool) -> Option<Self> {
        match name {
            "INSERT" => Some(Self::Insert),
            "MODIFY" => Some(Self::Modify),
            "REMOVE" if ttl => Some(Self::Expire),
            "REMOVE" => Some(Self::Remove),
            _ => None,
        }
    }

    /// The images a typed change of this operation is built from: (old, new).
    ///
    /// ```
    /// use dynakey_runtime::changes::Operation;
    /// assert_eq!(Operation::Modify.needs(), (true, true));
    /// assert_eq!(Operation::Expire.needs(), (true, false));
    /// ```
    pub fn needs(self) -> (bool, bool) {
        match self {
            Self::Insert => (false, true),
            Self::Modify => (true, true),
            Self::Remove | Self::Expire => (true, false),
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Insert => "insert",
            Self::Modify => "modify",
            Self::Remove => "remove",
            Self::Expire => "expiry",
        })
    }
}

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

/// The images a stream writes (its `StreamViewType`); also the setting
/// `create_table` enables a stream with.
///
/// ```
/// use dynakey_runtime::changes::StreamView;
/// let v = StreamView::parse("NEW_IMAGE").unwrap();
/// assert_eq!((v.has_old(), v.has_new()), (false, true));
/// assert_eq!(v.as_str(), "NEW_IMAGE");
/// assert_eq!(StreamView::default(), StreamView::NewAndOldImages);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StreamView {
    /// Only the key attributes.
    KeysOnly,
    /// The item after the change.
    NewImage,
    /// The item before the change.
    OldImage,
    /// Both: what typed changes need to say everything.
    #[default]
    NewAndOldImages,
}

impl StreamView {
    /// The API's name, e.g. `NEW_AND_OLD_IMAGES`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::KeysOnly => "KEYS_ONLY",
            Self::NewImage => "NEW_IMAGE",
            Self::OldImage => "OLD_IMAGE",
            Self::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }

    /// The view an API name names.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "KEYS_ONLY" => Some(Self::KeysOnly),
            "NEW_IMAGE" => Some(Self::NewImage),
            "OLD_IMAGE" => Some(Self::OldImage),
            "NEW_AND_OLD_IMAGES" => Some(Self::NewAndOldImages),
            _ => None,
        }
    }

    /// Whether records carry the old image.
    pub fn has_old(self) -> bool {
        matches!(self, Self::OldImage | Self::NewAndOldImages)
    }

    /// Whether records carry the new image.
    pub fn has_new(self) -> bool {
        matches!(self, Self::NewImage | Self::NewAndOldImages)
    }
}

impl fmt::Display for StreamView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
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
    /// tables' changes).
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
