//! The TTL attribute: an instant stored as epoch seconds (N), the form
//! DynamoDB's time to live reads.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{decode_field, AttrPath, DecodeError, Item};

/// A TTL field: epoch seconds (N).
pub trait Ttl: Sized {
    /// The epoch seconds, or `None` for no expiry.
    fn ttl_to_attr(&self) -> Option<AttributeValue>;
    /// Reads epoch seconds back.
    fn ttl_from_item(item: &Item, name: &str, path: &AttrPath<'_>) -> Result<Self, DecodeError>;
}

impl Ttl for time::OffsetDateTime {
    fn ttl_to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::N(self.unix_timestamp().to_string()))
    }
    fn ttl_from_item(item: &Item, name: &str, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        let secs: i64 = decode_field(item, name, path)?;
        time::OffsetDateTime::from_unix_timestamp(secs)
            .map_err(|_| DecodeError::new(&path.field(name), "epoch seconds", secs.to_string()))
    }
}

impl Ttl for Option<time::OffsetDateTime> {
    fn ttl_to_attr(&self) -> Option<AttributeValue> {
        self.as_ref().and_then(Ttl::ttl_to_attr)
    }
    fn ttl_from_item(item: &Item, name: &str, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        if item.contains_key(name) {
            time::OffsetDateTime::ttl_from_item(item, name, path).map(Some)
        } else {
            Ok(None)
        }
    }
}
