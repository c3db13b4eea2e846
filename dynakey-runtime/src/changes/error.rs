//! Why a stream record did not become a typed change.

use std::fmt;

use super::change::Image;
use super::record::{Operation, StreamView};
use crate::codec::DecodeError;

/// A record that could not be decoded into a typed change.
///
/// ```
/// use dynakey_runtime::changes::{ChangeError, Image, Operation, StreamView};
/// let e = ChangeError::MissingImage {
///     op: Operation::Modify,
///     image: Image::Old,
///     view: Some(StreamView::NewImage),
///     keys: "pk=USER#ann".into(),
/// };
/// assert_eq!(
///     e.to_string(),
///     "the modify of pk=USER#ann needs the old image, which a NEW_IMAGE stream does not carry"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChangeError {
    /// The change needs an image the record lacks (the stream's view type
    /// leaves it out). A decoder that allows partial changes returns a
    /// [`ChangeKind::Partial`](super::ChangeKind::Partial) instead.
    MissingImage {
        /// What happened.
        op: Operation,
        /// The image needed.
        image: Image,
        /// The stream's view type, when the record says it.
        view: Option<StreamView>,
        /// The item's key, as text.
        keys: String,
    },
    /// The item's discriminator names no known type, and the decoder is
    /// strict (otherwise that is a [`ChangeKind::Unknown`](super::ChangeKind::Unknown)).
    UnknownDiscriminator {
        /// The discriminator found (empty when absent).
        value: String,
        /// The item's key, as text.
        keys: String,
    },
    /// An image of a known type did not decode.
    Decode {
        /// Which image.
        image: Image,
        /// The codec's error, naming the attribute path.
        source: DecodeError,
    },
    /// The record is not a DynamoDB stream record: a missing or unknown
    /// event name, no keys, an attribute value of no DynamoDB type.
    Malformed {
        /// What is wrong, and where.
        message: String,
    },
}

impl ChangeError {
    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        Self::Malformed {
            message: message.into(),
        }
    }
}

impl fmt::Display for ChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingImage {
                op,
                image,
                view,
                keys,
            } => {
                write!(f, "the {op} of {keys} needs the {image}, which ")?;
                match view {
                    Some(v) => write!(f, "a {v} stream does not carry"),
                    None => f.write_str("the record does not carry"),
                }
            }
            Self::UnknownDiscriminator { value, keys } => {
                write!(f, "unknown discriminator {value:?} on the item {keys}")
            }
            Self::Decode { image, source } => write!(f, "the {image} does not decode: {source}"),
            Self::Malformed { message } => write!(f, "not a DynamoDB stream record: {message}"),
        }
    }
}

impl std::error::Error for ChangeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Decode { source, .. } => Some(source),
            _ => None,
        }
    }
}
