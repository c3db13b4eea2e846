//! Lambda's DynamoDB event (`aws_lambda_events`, feature `lambda`) into
//! typed changes.

use std::time::SystemTime;

use aws_lambda_events::event::dynamodb::{Event, EventRecord, StreamViewType};

use super::change::Change;
use super::decoder::ChangeDecoder;
use super::record::{is_ttl_identity, ChangeRecord, Operation, StreamView};
use crate::codec::Item;
use crate::error::change::ChangeError;

/// The record's `part` (`Keys`, `NewImage`, …) as an item; one holding a
/// value nested past the levels DynamoDB stores is refused before it is
/// copied (the copy recurses).
fn image(part: &str, i: &serde_dynamo::Item) -> Result<Option<Item>, ChangeError> {
    ChangeError::check_depth(part, i.inner())?;
    // The event gives an absent image as an empty map; a stored item
    // always has its key attributes, so empty means absent.
    let item: Item = i.clone().into();
    Ok(Some(item).filter(|i| !i.is_empty()))
}

/// A [`ChangeRecord`] from one record of Lambda's DynamoDB event.
///
/// A record without `ApproximateCreationDateTime` (Lambda's own sample
/// events have none) has no time, though `aws_lambda_events` fills it with
/// the epoch. A Kinesis Data Streams for DynamoDB record deserialized as
/// this type (it has `tableName` and `recordFormat`) has its milliseconds
/// read as milliseconds; microseconds do not fit the type's time (read
/// such data with [`record_from_kinesis_data`](super::record_from_kinesis_data)).
/// `aws_lambda_events` reads a fraction of a second a thousand times too
/// small; DynamoDB writes whole seconds, and [`record_from_json`](super::record_from_json)
/// on the raw event reads any fraction exactly.
///
/// ```
/// use aws_lambda_events::event::dynamodb::EventRecord;
/// use dynakey_runtime::changes::{record_from_lambda, Operation};
/// let r: EventRecord = serde_json::from_value(serde_json::json!({
///     "awsRegion": "us-east-1", "eventID": "1", "eventName": "INSERT",
///     "dynamodb": { "Keys": { "pk": { "S": "A" } }, "NewImage": { "pk": { "S": "A" } },
///                   "SequenceNumber": "5", "SizeBytes": 10, "StreamViewType": "NEW_IMAGE" }
/// })).unwrap();
/// let r = record_from_lambda(&r).unwrap();
/// assert_eq!((r.op, r.old.is_none(), r.new.is_some()), (Operation::Insert, true, true));
/// assert_eq!(r.created_at, None); // the record has no time
/// let kinesis: EventRecord = serde_json::from_value(serde_json::json!({
///     "awsRegion": "us-east-1", "eventID": "e1", "eventName": "INSERT",
///     "tableName": "Music", "recordFormat": "application/json", "userIdentity": null,
///     "dynamodb": { "ApproximateCreationDateTime": 1731600037123u64,
///                   "Keys": { "pk": { "S": "A" } }, "NewImage": { "pk": { "S": "A" } }, "SizeBytes": 20 }
/// })).unwrap();
/// let at = record_from_lambda(&kinesis).unwrap().created_at.unwrap();
/// assert_eq!(at.duration_since(std::time::UNIX_EPOCH).unwrap().as_millis(), 1_731_600_037_123);
/// ```
#[cfg(feature = "lambda")]
#[cfg_attr(docsrs, doc(cfg(feature = "lambda")))]
pub fn record_from_lambda(r: &EventRecord) -> Result<ChangeRecord, ChangeError> {
    let ttl = r
        .user_identity
        .as_ref()
        .is_some_and(|u| is_ttl_identity(Some(u.type_.as_str()), Some(u.principal_id.as_str())));
    let op = Operation::from_event_name(&r.event_name, ttl)
        .ok_or_else(|| ChangeError::malformed(format!("unknown eventName {:?}", r.event_name)))?;
    let d = &r.change;
    let keys = image("Keys", &d.keys)?.ok_or_else(|| ChangeError::malformed("no dynamodb.Keys"))?;
    let mut out = ChangeRecord::new(op, keys);
    out.old = image("OldImage", &d.old_image)?;
    out.new = image("NewImage", &d.new_image)?;
    out.view = d.stream_view_type.as_ref().and_then(|v| match v {
        StreamViewType::NewImage => Some(StreamView::NewImage),
        StreamViewType::OldImage => Some(StreamView::OldImage),
        StreamViewType::NewAndOldImages => Some(StreamView::NewAndOldImages),
        StreamViewType::KeysOnly => Some(StreamView::KeysOnly),
        // A view type added to the enum later: unknown here.
        _ => None,
    });
    out.sequence_number = d.sequence_number.clone();
    out.event_id = Some(r.event_id.clone()).filter(|e| !e.is_empty());
    out.table = r.table_name.clone().or_else(|| {
        let arn = r.event_source_arn.as_deref()?;
        super::record::table_of_stream_arn(arn).map(str::to_owned)
    });
    let at = SystemTime::from(d.approximate_creation_date_time);
    out.created_at = if r.record_format.is_some() || r.table_name.is_some() {
        // A Kinesis record's data read as this event (the type has
        // Kinesis's fields): its milliseconds were read as seconds.
        let read_as_secs = d.approximate_creation_date_time.timestamp();
        super::time::read(
            Some(&serde_json::Value::from(read_as_secs)),
            super::time::Source::Kinesis,
            None,
            "dynamodb.ApproximateCreationDateTime",
        )?
        .filter(|_| at != std::time::UNIX_EPOCH)
    } else {
        // `aws_lambda_events` gives a record without a time the epoch.
        super::time::unless_epoch(at)
    };
    Ok(out)
}

#[cfg(feature = "lambda")]
#[cfg_attr(docsrs, doc(cfg(feature = "lambda")))]
impl<T> ChangeDecoder<T> {
    /// Decodes one record of Lambda's DynamoDB event.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use aws_lambda_events::event::dynamodb::EventRecord;
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind};
    /// let r: EventRecord = serde_json::from_value(serde_json::json!({
    ///     "awsRegion": "us-east-1", "eventID": "1", "eventName": "REMOVE",
    ///     "userIdentity": { "type": "Service", "principalId": "dynamodb.amazonaws.com" },
    ///     "dynamodb": { "Keys": { "pk": { "S": "USER#ann" } },
    ///                   "OldImage": { "pk": { "S": "USER#ann" }, "entity": { "S": "NOTE" }, "user": { "S": "ann" } },
    ///                   "SequenceNumber": "5", "SizeBytes": 10, "StreamViewType": "OLD_IMAGE" }
    /// })).unwrap();
    /// let c = ChangeDecoder::<Note>::entity().decode_lambda_record(&r).unwrap();
    /// assert_eq!(c.kind, ChangeKind::Expired(Note { user: "ann".into() }));
    /// ```
    pub fn decode_lambda_record(&self, record: &EventRecord) -> Result<Change<T>, ChangeError> {
        self.decode(&record_from_lambda(record)?)
    }

    /// Decodes every record of a Lambda DynamoDB event, in order; each
    /// record's result on its own, so a handler can report the failed
    /// ones (by sequence number) as batch item failures and keep the rest.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use aws_lambda_events::event::dynamodb::Event;
    /// let event: Event = serde_json::from_value(serde_json::json!({ "Records": [] })).unwrap();
    /// let d = dynakey_runtime::changes::ChangeDecoder::<Note>::entity();
    /// assert!(d.decode_lambda_event(&event).is_empty());
    /// ```
    pub fn decode_lambda_event(&self, event: &Event) -> Vec<Result<Change<T>, ChangeError>> {
        event
            .records
            .iter()
            .map(|r| self.decode_lambda_record(r))
            .collect()
    }
}
