//! Stream records as DynamoDB JSON (`{"eventName": "INSERT", "dynamodb":
//! {"Keys": {"pk": {"S": ".."}}, ..}}`), as a test, a replay tool or a
//! Lambda function's raw input holds them.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::Value;

use super::change::Change;
use super::decoder::ChangeDecoder;
use super::dynamo_json::ReadError;
use super::record::{is_ttl_identity, ChangeRecord, Operation, StreamView};
use super::time::{self, Source};
use crate::codec::Item;
use crate::error::change::ChangeError;

/// An item (a map of attribute values) from DynamoDB JSON.
pub(crate) fn item(v: &Value, path: &str) -> Result<Item, ChangeError> {
    super::dynamo_json::item_from_value(v, path).map_err(ReadError::into_change)
}

/// JSON text as a `Value`, for a reader of records: serde_json refuses
/// text nested past 128 levels (its recursion limit, which keeps its own
/// recursion within a small stack) as a syntax error, here a
/// [`ChangeError::TooDeep`] naming the place; any other error is
/// malformed, `not_json` saying what is not JSON.
pub(crate) fn parse_text(text: &[u8], not_json: &str) -> Result<Value, ChangeError> {
    serde_json::from_slice(text).map_err(|e| {
        // serde_json has no public code for it; its text is fixed.
        if e.to_string().starts_with("recursion limit exceeded") {
            ChangeError::too_deep(format!("line {} column {}", e.line(), e.column()))
        } else {
            ChangeError::malformed(format!("{not_json}: {e}"))
        }
    })
}

/// An item from DynamoDB JSON (`{"pk": {"S": "USER#ann"}, "n": {"N": "1"}}`,
/// what a record's images, an export's `Item` and the AWS CLI hold); an
/// attribute value of no DynamoDB type is an error naming its path.
///
/// ```
/// use aws_sdk_dynamodb::types::AttributeValue;
/// use dynakey_runtime::changes::{item_from_json, item_to_json};
/// let v = serde_json::json!({ "pk": { "S": "USER#ann" }, "tags": { "SS": ["a", "b"] }, "n": { "N": "1E+2" } });
/// let item = item_from_json(&v).unwrap();
/// assert_eq!(item["n"], AttributeValue::N("1E+2".into()));
/// assert_eq!(item_to_json(&item), v);
/// let e = item_from_json(&serde_json::json!({ "l": { "L": [{ "X": 1 }] } })).unwrap_err();
/// assert!(e.to_string().contains("l[0]"), "{e}");
/// ```
pub fn item_from_json(v: &Value) -> Result<Item, ChangeError> {
    item(v, "item")
}

/// An item as DynamoDB JSON, the inverse of [`item_from_json`]: numbers as
/// their text, binary as base64 (see the example there). A line of a full
/// export is `{"Item": item_to_json(&item)}`.
pub fn item_to_json(item: &Item) -> Value {
    Value::Object(
        item.iter()
            .map(|(k, v)| (k.clone(), attribute_to_json(v)))
            .collect(),
    )
}

fn attribute_to_json(v: &AttributeValue) -> Value {
    let b64 = |b: &Blob| Value::String(aws_smithy_types::base64::encode(b.as_ref()));
    let texts = |v: &[String]| Value::Array(v.iter().cloned().map(Value::String).collect());
    let (tag, body) = match v {
        AttributeValue::S(s) => ("S", Value::String(s.clone())),
        AttributeValue::N(n) => ("N", Value::String(n.clone())),
        AttributeValue::B(b) => ("B", b64(b)),
        AttributeValue::Bool(b) => ("BOOL", Value::Bool(*b)),
        AttributeValue::Null(b) => ("NULL", Value::Bool(*b)),
        AttributeValue::Ss(v) => ("SS", texts(v)),
        AttributeValue::Ns(v) => ("NS", texts(v)),
        AttributeValue::Bs(v) => ("BS", Value::Array(v.iter().map(b64).collect())),
        AttributeValue::L(v) => ("L", Value::Array(v.iter().map(attribute_to_json).collect())),
        AttributeValue::M(m) => ("M", item_to_json(m)),
        // A type added to the SDK after this was written: no DynamoDB JSON
        // this reader knows; NULL marks the attribute as present.
        _ => ("NULL", Value::Bool(true)),
    };
    Value::Object([(tag.to_owned(), body)].into_iter().collect())
}

/// A [`ChangeRecord`] from one stream record in DynamoDB JSON: the Streams
/// API's `Record` shape, a Lambda event record, or a record of Kinesis Data
/// Streams for DynamoDB (they share the names that matter: `eventName`,
/// `eventID`, `userIdentity`, `dynamodb.Keys`, `NewImage`, `OldImage`,
/// `SequenceNumber`, `StreamViewType`; Kinesis adds `tableName` and
/// `recordFormat`, by which it is told apart), or a record of Lambda's
/// Kinesis event (`{"kinesis": {"data": "<base64>", ..}}`), whose data is
/// such a Kinesis record.
///
/// `dynamodb.ApproximateCreationDateTime` may be epoch seconds (a number
/// or text), ISO 8601 text with any offset (as the AWS CLI v2 prints a
/// `GetRecords` response), or, in a Kinesis record, epoch milliseconds or
/// microseconds (by `ApproximateCreationDateTimePrecision`, else by
/// magnitude: see [`ChangeRecord::created_at`]). No time is `None`; a time
/// that cannot be read is an error naming the field and the value.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use dynakey_runtime::changes::{record_from_json, Operation};
/// let r = record_from_json(&serde_json::json!({
///     "eventName": "REMOVE",
///     "userIdentity": { "type": "Service", "principalId": "dynamodb.amazonaws.com" },
///     "dynamodb": { "Keys": { "pk": { "S": "A" } }, "SequenceNumber": "7" }
/// })).unwrap();
/// assert_eq!((r.op, r.sequence_number.as_deref(), r.created_at), (Operation::Expire, Some("7"), None));
/// let api_casing = serde_json::json!({
///     "eventName": "REMOVE",
///     "userIdentity": { "Type": "Service", "PrincipalId": "dynamodb.amazonaws.com" },
///     "dynamodb": { "Keys": { "pk": { "S": "A" } },
///                   "ApproximateCreationDateTime": "2024-11-14T08:00:37-08:00" }
/// });
/// let r = record_from_json(&api_casing).unwrap();
/// assert_eq!(r.op, Operation::Expire);
/// assert_eq!(r.created_at, Some(UNIX_EPOCH + Duration::from_secs(1_731_600_037)));
/// assert!(record_from_json(&serde_json::json!({ "eventName": "INSERT" })).is_err());
/// ```
pub fn record_from_json(v: &Value) -> Result<ChangeRecord, ChangeError> {
    // A record of Lambda's Kinesis event: the record is its base64 data.
    if let Some(r) = super::kinesis::from_lambda_json(v) {
        return r;
    }
    // Kinesis Data Streams for DynamoDB writes `tableName` and
    // `recordFormat` beside the fields the Streams API has.
    let kinesis = v.get("recordFormat").is_some() || v.get("tableName").is_some();
    record_from(
        v,
        if kinesis {
            Source::Kinesis
        } else {
            Source::Streams
        },
    )
}

/// [`record_from_json`] with the source known (a Kinesis record's data).
pub(crate) fn record_from(v: &Value, source: Source) -> Result<ChangeRecord, ChangeError> {
    let name = v
        .get("eventName")
        .and_then(Value::as_str)
        .ok_or_else(|| ChangeError::malformed("no eventName"))?;
    // The Streams API writes `Type` / `PrincipalId`, Lambda and Kinesis
    // `type` / `principalId` (and some emulators answer the API in
    // Lambda's casing); Kinesis writes `"userIdentity": null` for an
    // ordinary write.
    let identity = v.get("userIdentity");
    let field = |a: &str, b: &str| {
        identity
            .and_then(|i| i.get(a).or_else(|| i.get(b)))
            .and_then(Value::as_str)
    };
    let ttl = is_ttl_identity(field("type", "Type"), field("principalId", "PrincipalId"));
    let op = Operation::from_event_name(name, ttl)
        .ok_or_else(|| ChangeError::malformed(format!("unknown eventName {name:?}")))?;
    let d = v
        .get("dynamodb")
        .ok_or_else(|| ChangeError::malformed("no dynamodb section"))?;
    let keys = item(
        d.get("Keys")
            .ok_or_else(|| ChangeError::malformed("no dynamodb.Keys"))?,
        "Keys",
    )?;
    let image = |k: &str| -> Result<Option<Item>, ChangeError> {
        match d.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => item(x, k).map(|i| Some(i).filter(|i| !i.is_empty())),
        }
    };
    let text = |x: Option<&Value>| x.and_then(Value::as_str).map(str::to_owned);
    let mut r = ChangeRecord::new(op, keys);
    r.old = image("OldImage")?;
    r.new = image("NewImage")?;
    r.view = d
        .get("StreamViewType")
        .and_then(Value::as_str)
        .and_then(StreamView::parse);
    r.sequence_number = text(d.get("SequenceNumber"));
    r.event_id = text(v.get("eventID"));
    r.table = text(v.get("tableName")).or_else(|| {
        let arn = v.get("eventSourceARN").and_then(Value::as_str)?;
        super::record::table_of_stream_arn(arn).map(str::to_owned)
    });
    // The precision sits beside the time in Kinesis records; accept it at
    // the top level too.
    let precision = d
        .get("ApproximateCreationDateTimePrecision")
        .or_else(|| v.get("ApproximateCreationDateTimePrecision"));
    r.created_at = time::read(
        d.get("ApproximateCreationDateTime"),
        source,
        precision,
        "dynamodb.ApproximateCreationDateTime",
    )?;
    Ok(r)
}

impl<T> ChangeDecoder<T> {
    /// Decodes one stream record held as DynamoDB JSON (see
    /// [`record_from_json`] for the shapes it reads, and the example on
    /// [`ChangeDecoder`]).
    pub fn decode_json(&self, record: &Value) -> Result<Change<T>, ChangeError> {
        self.decode(&record_from_json(record)?)
    }

    /// Decodes one stream record held as DynamoDB JSON text.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeError};
    /// let d = ChangeDecoder::<Note>::entity();
    /// assert!(matches!(d.decode_json_str("{not json"), Err(ChangeError::Malformed { .. })));
    /// ```
    pub fn decode_json_str(&self, record: &str) -> Result<Change<T>, ChangeError> {
        self.decode_json(&parse_text(record.as_bytes(), "not JSON")?)
    }

    /// Decodes a batch: a JSON array of records, or an object with a
    /// `Records` array (a Lambda event for DynamoDB or for Kinesis, a
    /// `GetRecords` response as the AWS CLI prints it), in order. All or
    /// nothing: the first record that does not decode is the error. A
    /// Lambda handler that reports batch item failures reads each record's
    /// result with [`ChangeDecoder::decode_json_each`].
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::ChangeDecoder;
    /// let d = ChangeDecoder::<Note>::entity();
    /// assert!(d.decode_json_batch(&serde_json::json!({ "Records": [] })).unwrap().is_empty());
    /// assert!(d.decode_json_batch(&serde_json::json!(7)).is_err());
    /// ```
    pub fn decode_json_batch(&self, records: &Value) -> Result<Vec<Change<T>>, ChangeError> {
        self.decode_json_each(records)?.into_iter().collect()
    }

    /// Decodes a batch like [`ChangeDecoder::decode_json_batch`], one
    /// result per record, in order, as `decode_lambda_event` does for the
    /// typed event: a record that does not decode leaves the others
    /// decoded, and its place (with the record's `SequenceNumber` or
    /// `eventID` in the input) says which item failure to report. Only
    /// input that is no batch at all is an error.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::ChangeDecoder;
    /// use serde_json::json;
    /// let record = |user: serde_json::Value| json!({
    ///     "eventName": "INSERT",
    ///     "dynamodb": {
    ///         "Keys": {"pk": {"S": "USER#ann"}},
    ///         "NewImage": {"pk": {"S": "USER#ann"}, "entity": {"S": "NOTE"}, "user": user},
    ///         "SequenceNumber": "1"
    ///     }
    /// });
    /// let batch = json!({"Records": [record(json!({"S": "ann"})), record(json!({"N": "7"}))]});
    /// let each = ChangeDecoder::<Note>::entity().decode_json_each(&batch).unwrap();
    /// assert!(each[0].is_ok() && each[1].is_err());
    /// assert!(ChangeDecoder::<Note>::entity().decode_json_batch(&batch).is_err());
    /// ```
    pub fn decode_json_each(
        &self,
        records: &Value,
    ) -> Result<Vec<Result<Change<T>, ChangeError>>, ChangeError> {
        let list = records
            .get("Records")
            .unwrap_or(records)
            .as_array()
            .ok_or_else(|| {
                ChangeError::malformed("expected an array of records or {\"Records\": [..]}")
            })?;
        Ok(list.iter().map(|r| self.decode_json(r)).collect())
    }
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;
    use serde_json::json;

    #[test]
    fn every_attribute_type_reads() {
        let i = item(
            &json!({
                "s": {"S": "x"}, "n": {"N": "1.5"}, "nn": {"N": 2}, "b": {"B": "aGk="},
                "t": {"BOOL": true}, "z": {"NULL": true}, "ss": {"SS": ["a", "b"]},
                "ns": {"NS": ["1", 2]}, "bs": {"BS": ["aGk="]},
                "l": {"L": [{"S": "y"}, {"M": {"k": {"N": "3"}}}]}
            }),
            "img",
        )
        .unwrap();
        assert_eq!(i["n"], AttributeValue::N("1.5".into()));
        assert_eq!(i["nn"], AttributeValue::N("2".into()));
        assert_eq!(i["b"], AttributeValue::B(Blob::new("hi")));
        assert_eq!(i["ns"], AttributeValue::Ns(vec!["1".into(), "2".into()]));
        assert_eq!(i["z"], AttributeValue::Null(true));
        let AttributeValue::L(l) = &i["l"] else {
            panic!()
        };
        assert_eq!(
            l[1],
            AttributeValue::M([("k".to_owned(), AttributeValue::N("3".into()))].into())
        );
    }

    #[test]
    fn bad_values_name_their_path() {
        let e = item(&json!({"l": {"L": [{"S": "y"}, {"Q": 1}]}}), "NewImage").unwrap_err();
        assert!(e.to_string().contains("NewImage.l[1]"), "{e}");
        let e = item(&json!({"b": {"B": "***"}}), "OldImage").unwrap_err();
        assert!(e.to_string().contains("OldImage.b"), "{e}");
        let e = item(&json!({"x": {"S": "a", "N": "1"}}), "Keys").unwrap_err();
        assert!(e.to_string().contains("one type tag"), "{e}");
    }

    #[test]
    fn a_lambda_style_record_reads() {
        let r = record_from_json(&json!({
            "eventID": "e1", "eventName": "MODIFY", "eventSourceARN": "arn:x",
            "dynamodb": {
                "ApproximateCreationDateTime": 1700000000.5,
                "Keys": {"pk": {"S": "A"}},
                "OldImage": {"pk": {"S": "A"}, "v": {"N": "1"}},
                "NewImage": {"pk": {"S": "A"}, "v": {"N": "2"}},
                "SequenceNumber": "111", "SizeBytes": 26, "StreamViewType": "NEW_AND_OLD_IMAGES"
            }
        }))
        .unwrap();
        assert_eq!(r.op, Operation::Modify);
        assert_eq!(r.view, Some(StreamView::NewAndOldImages));
        assert_eq!(r.event_id.as_deref(), Some("e1"));
        let t = r.created_at.unwrap().duration_since(UNIX_EPOCH).unwrap();
        assert_eq!(t.as_millis(), 1_700_000_000_500);
        assert_eq!(r.new.unwrap()["v"], AttributeValue::N("2".into()));
    }

    mod round_trip {
        use super::*;
        use proptest::prelude::*;

        /// Nasty text: delimiters, quotes, backslashes, control and
        /// non-ASCII characters, the empty string.
        fn text() -> impl Strategy<Value = String> {
            prop_oneof![
                Just(String::new()),
                "[#%\\\"'{}:,\\[\\] a-zé\u{0}\u{1f}\n\t😀]{0,12}",
            ]
        }

        fn value() -> impl Strategy<Value = AttributeValue> {
            let leaf = prop_oneof![
                text().prop_map(AttributeValue::S),
                "-?[0-9]{1,38}(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,2})?".prop_map(AttributeValue::N),
                prop::collection::vec(any::<u8>(), 0..20)
                    .prop_map(|b| AttributeValue::B(Blob::new(b))),
                any::<bool>().prop_map(AttributeValue::Bool),
                Just(AttributeValue::Null(true)),
                prop::collection::vec(text(), 1..4).prop_map(AttributeValue::Ss),
                prop::collection::vec("[0-9]{1,5}", 1..4).prop_map(AttributeValue::Ns),
                prop::collection::vec(
                    prop::collection::vec(any::<u8>(), 1..5).prop_map(Blob::new),
                    1..3
                )
                .prop_map(AttributeValue::Bs),
            ];
            leaf.prop_recursive(3, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
                    prop::collection::hash_map(text(), inner, 0..4).prop_map(AttributeValue::M),
                ]
            })
        }

        proptest! {
            #[test]
            fn an_item_survives_dynamodb_json(item in prop::collection::hash_map(text(), value(), 0..6)) {
                let json = item_to_json(&item);
                let text = json.to_string();
                let back = item_from_json(&serde_json::from_str(&text).unwrap()).unwrap();
                prop_assert_eq!(back, item);
            }
        }
    }
}
