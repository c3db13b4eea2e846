//! Kinesis Data Streams for DynamoDB as a source: its record format (the
//! DynamoDB JSON a table writes into a Kinesis data stream) and Lambda's
//! Kinesis event, which carries those records base64-encoded.
//!
//! A record (AWS, "Using Kinesis Data Streams to capture changes to
//! DynamoDB", developerguide/kds.html) looks like a Streams API record
//! without `SequenceNumber` and `StreamViewType`, plus `tableName`,
//! `recordFormat: "application/json"` and `userIdentity: null` for an
//! ordinary write (TTL's identity for an expiry). Its
//! `ApproximateCreationDateTime` is epoch milliseconds, or microseconds when
//! the table's `ApproximateCreationDateTimePrecision` is `MICROSECOND` (the
//! record then says so beside the time).
//!
//! Kinesis delivers at least once and may reorder: see
//! [`dedupe_and_order`](super::dedupe_and_order).

use serde_json::Value;

use super::change::Change;
use super::decoder::ChangeDecoder;
use super::json::record_from;
use super::record::ChangeRecord;
use super::time::Source;
use crate::error::change::ChangeError;

/// A [`ChangeRecord`] from the data of one Kinesis record written by
/// Kinesis Data Streams for DynamoDB (the bytes Kinesis's `GetRecords`, the
/// KCL or Firehose hand over: JSON, already base64-decoded). Its time is
/// read as Kinesis writes it: milliseconds, or microseconds as the record
/// states.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use dynakey_runtime::changes::{record_from_kinesis_data, Operation};
/// let data = br#"{"awsRegion": "us-east-1", "eventID": "4b5c2a06-9d4c-4a4e-9a68-54cb7e6e2b11",
///   "eventName": "INSERT", "userIdentity": null, "recordFormat": "application/json",
///   "tableName": "Music", "eventSource": "aws:dynamodb",
///   "dynamodb": {"ApproximateCreationDateTime": 1731600037123,
///     "Keys": {"pk": {"S": "ARTIST#1"}}, "NewImage": {"pk": {"S": "ARTIST#1"}}, "SizeBytes": 20}}"#;
/// let r = record_from_kinesis_data(data).unwrap();
/// assert_eq!((r.op, r.table.as_deref()), (Operation::Insert, Some("Music")));
/// assert_eq!(r.created_at, Some(UNIX_EPOCH + Duration::from_millis(1_731_600_037_123)));
/// assert!(record_from_kinesis_data(b"not json").is_err());
/// ```
pub fn record_from_kinesis_data(data: &[u8]) -> Result<ChangeRecord, ChangeError> {
    let v = super::json::parse_text(data, "a Kinesis record's data is not JSON")?;
    record_from(&v, Source::Kinesis)
}

/// One record of Lambda's Kinesis event as JSON (`{"kinesis": {"data":
/// "<base64>", "sequenceNumber": .., ..}, "eventID": "shardId-..:..", ..}`),
/// if `v` is one: the record in its data, with the Kinesis sequence number
/// (what Lambda's batch item failures name) and shard.
pub(crate) fn from_lambda_json(v: &Value) -> Option<Result<ChangeRecord, ChangeError>> {
    let kinesis = v.get("kinesis")?;
    let data = kinesis.get("data")?.as_str()?;
    Some(from_envelope(v, kinesis, data))
}

fn from_envelope(v: &Value, kinesis: &Value, data: &str) -> Result<ChangeRecord, ChangeError> {
    let bytes = aws_smithy_types::base64::decode(data)
        .map_err(|e| ChangeError::malformed(format!("kinesis.data is not base64: {e}")))?;
    let mut r = record_from_kinesis_data(&bytes)?;
    r.sequence_number = kinesis
        .get("sequenceNumber")
        .and_then(Value::as_str)
        .map(str::to_owned);
    r.shard_id = shard_of(v.get("eventID").and_then(Value::as_str));
    Ok(r)
}

/// The shard of a Lambda Kinesis record's `eventID` (`shardId-…:<sequence>`).
fn shard_of(event_id: Option<&str>) -> Option<String> {
    event_id
        .and_then(|id| id.split_once(':'))
        .map(|(shard, _)| shard.to_owned())
        .filter(|s| !s.is_empty())
}

impl<T> ChangeDecoder<T> {
    /// Decodes the data of one Kinesis record written by Kinesis Data
    /// Streams for DynamoDB (see [`record_from_kinesis_data`]). Lambda's
    /// Kinesis event held as JSON goes through
    /// [`decode_json_batch`](Self::decode_json_batch), which reads its
    /// base64 data; the typed event through `decode_kinesis_event`
    /// (feature `lambda`).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind};
    /// let data = br#"{"eventID": "e1", "eventName": "REMOVE", "recordFormat": "application/json",
    ///   "tableName": "notes", "eventSource": "aws:dynamodb",
    ///   "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"},
    ///   "dynamodb": {"ApproximateCreationDateTime": 1731600037123456,
    ///     "ApproximateCreationDateTimePrecision": "MICROSECOND",
    ///     "Keys": {"pk": {"S": "USER#ann"}},
    ///     "OldImage": {"pk": {"S": "USER#ann"}, "entity": {"S": "NOTE"}, "user": {"S": "ann"}},
    ///     "SizeBytes": 40}}"#;
    /// let c = ChangeDecoder::<Note>::entity().decode_kinesis_data(data).unwrap();
    /// assert_eq!(c.kind, ChangeKind::Expired(Note { user: "ann".into() }));
    /// ```
    pub fn decode_kinesis_data(&self, data: &[u8]) -> Result<Change<T>, ChangeError> {
        self.decode(&record_from_kinesis_data(data)?)
    }
}

#[cfg(feature = "lambda")]
mod lambda {
    use aws_lambda_events::event::kinesis::{KinesisEvent, KinesisEventRecord};

    use super::*;

    /// A [`ChangeRecord`] from one record of Lambda's Kinesis event
    /// (`aws_lambda_events`, feature `lambda`) whose data Kinesis Data
    /// Streams for DynamoDB wrote; with the Kinesis sequence number (what
    /// a partial batch response names) and the shard.
    ///
    /// ```
    /// use aws_lambda_events::event::kinesis::KinesisEventRecord;
    /// use dynakey_runtime::changes::{record_from_kinesis, Operation};
    /// let data = br#"{"eventID": "e1", "eventName": "INSERT", "userIdentity": null,
    ///   "recordFormat": "application/json", "tableName": "Music", "eventSource": "aws:dynamodb",
    ///   "dynamodb": {"ApproximateCreationDateTime": 1731600037123,
    ///     "Keys": {"pk": {"S": "A"}}, "NewImage": {"pk": {"S": "A"}}, "SizeBytes": 10}}"#;
    /// let r: KinesisEventRecord = serde_json::from_value(serde_json::json!({
    ///     "eventID": "shardId-000000000000:4959",
    ///     "eventName": "aws:kinesis:record", "eventSource": "aws:kinesis",
    ///     "kinesis": { "data": aws_smithy_types::base64::encode(&data[..]),
    ///                  "sequenceNumber": "4959", "partitionKey": "K",
    ///                  "approximateArrivalTimestamp": 1731600037.2 }
    /// })).unwrap();
    /// let r = record_from_kinesis(&r).unwrap();
    /// assert_eq!((r.op, r.sequence_number.as_deref()), (Operation::Insert, Some("4959")));
    /// assert_eq!(r.shard_id.as_deref(), Some("shardId-000000000000"));
    /// ```
    #[cfg(feature = "lambda")]
    #[cfg_attr(docsrs, doc(cfg(feature = "lambda")))]
    pub fn record_from_kinesis(r: &KinesisEventRecord) -> Result<ChangeRecord, ChangeError> {
        let mut out = record_from_kinesis_data(&r.kinesis.data.0)?;
        out.sequence_number = Some(r.kinesis.sequence_number.clone()).filter(|s| !s.is_empty());
        out.shard_id = shard_of(r.event_id.as_deref());
        Ok(out)
    }

    #[cfg(feature = "lambda")]
    #[cfg_attr(docsrs, doc(cfg(feature = "lambda")))]
    impl<T> ChangeDecoder<T> {
        /// Decodes one record of Lambda's Kinesis event (see
        /// [`record_from_kinesis`]).
        ///
        /// ```
        /// # use dynakey_derive::DynamoEntity;
        /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
        /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
        /// # #[pk("USER#<user>")]
        /// # struct Note { user: String }
        /// use aws_lambda_events::event::kinesis::KinesisEventRecord;
        /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind};
        /// let data = br#"{"eventID": "e1", "eventName": "INSERT", "userIdentity": null,
        ///   "recordFormat": "application/json", "tableName": "notes", "eventSource": "aws:dynamodb",
        ///   "dynamodb": {"ApproximateCreationDateTime": 1731600037123, "Keys": {"pk": {"S": "USER#ann"}},
        ///     "NewImage": {"pk": {"S": "USER#ann"}, "entity": {"S": "NOTE"}, "user": {"S": "ann"}}}}"#;
        /// let r: KinesisEventRecord = serde_json::from_value(serde_json::json!({
        ///     "eventID": "shardId-000000000000:1",
        ///     "kinesis": { "data": aws_smithy_types::base64::encode(&data[..]), "sequenceNumber": "1",
        ///                  "partitionKey": "K", "approximateArrivalTimestamp": 1731600037.2 }
        /// })).unwrap();
        /// let c = ChangeDecoder::<Note>::entity().decode_kinesis_record(&r).unwrap();
        /// assert_eq!(c.kind, ChangeKind::Inserted(Note { user: "ann".into() }));
        /// assert_eq!(c.table.as_deref(), Some("notes"));
        /// ```
        pub fn decode_kinesis_record(
            &self,
            record: &KinesisEventRecord,
        ) -> Result<Change<T>, ChangeError> {
            self.decode(&record_from_kinesis(record)?)
        }

        /// Decodes every record of Lambda's Kinesis event, in the order
        /// delivered; each record's result on its own (a failed one is
        /// reported by its `sequence_number` as a batch item failure).
        /// Kinesis may deliver a change twice or out of order: to apply
        /// changes in order, read the records with [`record_from_kinesis`]
        /// and put them through [`dedupe_and_order`](crate::changes::dedupe_and_order)
        /// first.
        ///
        /// ```
        /// # use dynakey_derive::DynamoEntity;
        /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
        /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
        /// # #[pk("USER#<user>")]
        /// # struct Note { user: String }
        /// use aws_lambda_events::event::kinesis::KinesisEvent;
        /// let event: KinesisEvent = serde_json::from_value(serde_json::json!({ "Records": [] })).unwrap();
        /// let d = dynakey_runtime::changes::ChangeDecoder::<Note>::entity();
        /// assert!(d.decode_kinesis_event(&event).is_empty());
        /// ```
        pub fn decode_kinesis_event(
            &self,
            event: &KinesisEvent,
        ) -> Vec<Result<Change<T>, ChangeError>> {
            event
                .records
                .iter()
                .map(|r| self.decode_kinesis_record(r))
                .collect()
        }
    }
}

#[cfg(feature = "lambda")]
pub use lambda::record_from_kinesis;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shard_is_the_event_id_before_the_colon() {
        assert_eq!(
            shard_of(Some(
                "shardId-000000000006:49590338271490256608559692538361571095921575989136588898"
            )),
            Some("shardId-000000000006".to_owned())
        );
        assert_eq!(shard_of(Some("no-colon")), None);
        assert_eq!(shard_of(None), None);
    }
}
