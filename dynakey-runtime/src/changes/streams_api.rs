//! Records of the DynamoDB Streams API (`aws-sdk-dynamodbstreams`, feature
//! `streams`) into typed changes. Its `AttributeValue` is its own Rust
//! type, converted here to aws-sdk-dynamodb's, which the codec reads.

use std::collections::HashMap;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodbstreams::types::{
    AttributeValue as StreamValue, OperationType, Record, StreamViewType,
};

use super::change::Change;
use super::decoder::ChangeDecoder;
use super::record::{is_ttl_identity, ChangeRecord, Operation, StreamView};
use crate::codec::Item;
use crate::error::change::ChangeError;

/// One Streams API attribute value as aws-sdk-dynamodb's; a value nested
/// past the levels DynamoDB stores is [`ChangeError::TooDeep`], refused
/// before it is converted.
///
/// ```
/// use aws_sdk_dynamodbstreams::types::AttributeValue as StreamValue;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let v = StreamValue::L(vec![StreamValue::N("1".into()), StreamValue::Null(true)]);
/// assert_eq!(
///     dynakey_runtime::changes::from_stream_value(&v).unwrap(),
///     AttributeValue::L(vec![AttributeValue::N("1".into()), AttributeValue::Null(true)])
/// );
/// ```
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub fn from_stream_value(v: &StreamValue) -> Result<AttributeValue, ChangeError> {
    if let Some(below) = crate::codec::too_deep(v, 1) {
        return Err(ChangeError::too_deep(format!("value{below}")));
    }
    convert(v)
}

/// [`from_stream_value`] of a value already checked for depth.
fn convert(v: &StreamValue) -> Result<AttributeValue, ChangeError> {
    Ok(match v {
        StreamValue::S(s) => AttributeValue::S(s.clone()),
        StreamValue::N(n) => AttributeValue::N(n.clone()),
        StreamValue::B(b) => AttributeValue::B(b.clone()),
        StreamValue::Bool(b) => AttributeValue::Bool(*b),
        StreamValue::Null(b) => AttributeValue::Null(*b),
        StreamValue::Ss(s) => AttributeValue::Ss(s.clone()),
        StreamValue::Ns(s) => AttributeValue::Ns(s.clone()),
        StreamValue::Bs(s) => AttributeValue::Bs(s.clone()),
        StreamValue::L(l) => AttributeValue::L(l.iter().map(convert).collect::<Result<_, _>>()?),
        StreamValue::M(m) => AttributeValue::M(convert_item(m)?),
        // The SDK's catch-all for a type added to the API after it was built.
        other => {
            return Err(ChangeError::malformed(format!(
                "an attribute value of a type this SDK does not know: {other:?}"
            )))
        }
    })
}

/// A Streams API item (image or keys) as an [`Item`]; one holding a value
/// nested past the levels DynamoDB stores is [`ChangeError::TooDeep`].
///
/// ```
/// use aws_sdk_dynamodbstreams::types::AttributeValue as StreamValue;
/// let m = [("pk".to_owned(), StreamValue::S("A".into()))].into();
/// let item = dynakey_runtime::changes::from_stream_item(&m).unwrap();
/// assert_eq!(item["pk"].as_s().unwrap(), "A");
/// ```
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub fn from_stream_item(m: &HashMap<String, StreamValue>) -> Result<Item, ChangeError> {
    stream_item("item", m)
}

/// The record's `part` (`Keys`, `NewImage`, …), checked for depth, then
/// converted.
fn stream_item(part: &str, m: &HashMap<String, StreamValue>) -> Result<Item, ChangeError> {
    ChangeError::check_depth(part, m)?;
    convert_item(m)
}

fn convert_item(m: &HashMap<String, StreamValue>) -> Result<Item, ChangeError> {
    m.iter()
        .map(|(k, v)| Ok((k.clone(), convert(v)?)))
        .collect()
}

/// A [`ChangeRecord`] from one Streams API record (`GetRecords`).
///
/// ```
/// use aws_sdk_dynamodbstreams::types::{AttributeValue as V, Identity, OperationType, Record, StreamRecord};
/// use dynakey_runtime::changes::{record_from_stream, Operation};
/// let r = Record::builder()
///     .event_name(OperationType::Remove)
///     .user_identity(Identity::builder().r#type("Service").principal_id("dynamodb.amazonaws.com").build())
///     .dynamodb(StreamRecord::builder().keys("pk", V::S("A".into())).sequence_number("9").build())
///     .build();
/// assert_eq!(record_from_stream(&r).unwrap().op, Operation::Expire);
/// ```
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub fn record_from_stream(r: &Record) -> Result<ChangeRecord, ChangeError> {
    let ttl = r
        .user_identity()
        .is_some_and(|u| is_ttl_identity(u.r#type(), u.principal_id()));
    let name = match r.event_name() {
        Some(OperationType::Insert) => "INSERT",
        Some(OperationType::Modify) => "MODIFY",
        Some(OperationType::Remove) => "REMOVE",
        Some(other) => other.as_str(),
        None => return Err(ChangeError::malformed("no eventName")),
    };
    let op = Operation::from_event_name(name, ttl)
        .ok_or_else(|| ChangeError::malformed(format!("unknown eventName {name:?}")))?;
    let d = r
        .dynamodb()
        .ok_or_else(|| ChangeError::malformed("no dynamodb section"))?;
    let keys = stream_item(
        "Keys",
        d.keys()
            .ok_or_else(|| ChangeError::malformed("no dynamodb.Keys"))?,
    )?;
    let image = |part, m: Option<&HashMap<String, StreamValue>>| {
        m.filter(|m| !m.is_empty())
            .map(|m| stream_item(part, m))
            .transpose()
    };
    let mut out = ChangeRecord::new(op, keys);
    out.old = image("OldImage", d.old_image())?;
    out.new = image("NewImage", d.new_image())?;
    out.view = d.stream_view_type().and_then(|v| match v {
        StreamViewType::KeysOnly => Some(StreamView::KeysOnly),
        StreamViewType::NewImage => Some(StreamView::NewImage),
        StreamViewType::OldImage => Some(StreamView::OldImage),
        StreamViewType::NewAndOldImages => Some(StreamView::NewAndOldImages),
        _ => None,
    });
    out.sequence_number = d.sequence_number().map(str::to_owned);
    out.event_id = r.event_id().map(str::to_owned);
    out.created_at = d
        .approximate_creation_date_time()
        .and_then(|t| SystemTime::try_from(*t).ok());
    Ok(out)
}

#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
impl<T> ChangeDecoder<T> {
    /// Decodes one Streams API record (what `GetRecords` returns).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use aws_sdk_dynamodbstreams::types::{AttributeValue as V, OperationType, Record, StreamRecord};
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind};
    /// let image = StreamRecord::builder()
    ///     .keys("pk", V::S("USER#ann".into()))
    ///     .new_image("pk", V::S("USER#ann".into()))
    ///     .new_image("entity", V::S("NOTE".into()))
    ///     .new_image("user", V::S("ann".into()))
    ///     .build();
    /// let r = Record::builder().event_name(OperationType::Insert).dynamodb(image).build();
    /// let c = ChangeDecoder::<Note>::entity().decode_stream_record(&r).unwrap();
    /// assert_eq!(c.kind, ChangeKind::Inserted(Note { user: "ann".into() }));
    /// ```
    pub fn decode_stream_record(&self, record: &Record) -> Result<Change<T>, ChangeError> {
        self.decode(&record_from_stream(record)?)
    }
}
