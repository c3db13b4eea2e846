//! A `#[dynamo(serde)]` field's value, written through serde_dynamo: what
//! generated `to_item` and typed updates both call.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::EncodeError;

/// A `#[dynamo(serde)]` field: through serde_dynamo.
pub fn serde_to_attr<T: serde::Serialize>(
    v: &T,
    field: &'static str,
) -> Result<Option<AttributeValue>, EncodeError> {
    serde_dynamo::to_attribute_value(v)
        .map(Some)
        .map_err(|e| EncodeError::Serde {
            field,
            message: e.to_string(),
        })
}
