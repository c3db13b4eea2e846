//! Why a stream record did not become a typed change, and the plain values
//! it is written in (what happened, which image, the stream's view): they
//! live with the error, which [`Error::Change`](super::Error::Change) holds,
//! below the change decoders and the feed in `changes`.

use std::fmt;

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
    /// [`ChangeKind::Partial`](crate::changes::ChangeKind::Partial) instead.
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
    /// strict (otherwise that is a [`ChangeKind::Unknown`](crate::changes::ChangeKind::Unknown)).
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
    /// A value of the record nests past the
    /// [`MAX_NESTING`](crate::codec::MAX_NESTING) levels DynamoDB stores
    /// (or its JSON text past serde_json's 128 levels): refused before it
    /// is read, so that a crafted record cannot exhaust the stack.
    ///
    /// ```
    /// use dynakey_runtime::changes::{item_from_json, ChangeError};
    /// let mut v = serde_json::json!({ "S": "leaf" });
    /// for _ in 0..40 {
    ///     v = serde_json::json!({ "M": { "next": v } });
    /// }
    /// let err = item_from_json(&serde_json::json!({ "doc": v })).unwrap_err();
    /// let ChangeError::TooDeep { at } = &err else { panic!("{err}") };
    /// assert!(at.starts_with("item.doc.next.next"), "{at}");
    /// ```
    TooDeep {
        /// Where: the path of the map or list refused (`NewImage.doc.next…`),
        /// or, for JSON text nested past serde_json's limit, its line and
        /// column.
        at: String,
    },
}

impl ChangeError {
    #[cfg(feature = "changes")]
    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        Self::Malformed {
            message: message.into(),
        }
    }

    /// The value of an item at `at` nests too deep (see [`ChangeError::TooDeep`]).
    #[cfg(feature = "changes")]
    pub(crate) fn too_deep(at: impl Into<String>) -> Self {
        Self::TooDeep { at: at.into() }
    }

    /// Refuses an item (of a record's `part`: `NewImage`, `Keys`, …) that
    /// holds a value nested past the levels DynamoDB stores, before a
    /// reader recurses into it.
    #[cfg(feature = "changes")]
    pub(crate) fn check_depth<V: crate::codec::Nested>(
        part: &str,
        item: &std::collections::HashMap<String, V>,
    ) -> Result<(), Self> {
        match crate::codec::item_too_deep(item) {
            Some(path) => Err(Self::too_deep(format!("{part}.{path}"))),
            None => Ok(()),
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
                write!(
                    f,
                    "unknown discriminator {} on the item {keys}",
                    crate::shown::shown(value)
                )
            }
            Self::Decode { image, source } => write!(f, "the {image} does not decode: {source}"),
            Self::Malformed { message } => write!(f, "not a DynamoDB stream record: {message}"),
            Self::TooDeep { at } => write!(
                f,
                "a value nests past the {} levels DynamoDB stores, at {at}; refused before reading it",
                crate::codec::MAX_NESTING
            ),
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

/// Old or new image.
///
/// ```
/// assert_eq!(dynakey_runtime::changes::Image::Old.to_string(), "old image");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Image {
    /// The item before the change.
    Old,
    /// The item after the change.
    New,
}

impl fmt::Display for Image {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Old => "old image",
            Self::New => "new image",
        })
    }
}
