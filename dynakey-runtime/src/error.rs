//! Errors raised while building or parsing keys.

use std::fmt;

/// Why a value could not be written into (or read out of) a key template.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyFormatReason {
    /// A negative number under a zero-padded unsigned format (`d<w>`).
    Negative {
        /// The format's width.
        width: u32,
    },
    /// The value needs more digits than the format's width.
    TooWide {
        /// The format's width.
        width: u32,
    },
    /// A decimal with more places than the format keeps (`n<w>.<p>`).
    TooPrecise {
        /// Decimal places the format keeps.
        places: u32,
    },
    /// The whole key came out empty.
    Empty,
    /// A field that is not the last one holds the delimiter that follows it.
    ContainsDelimiter {
        /// The delimiter character.
        delimiter: char,
    },
    /// A control character (below the space) or U+10FFFF: both would break
    /// the sort order of composite keys and the bounds of range conditions.
    ForbiddenChar {
        /// The character found.
        found: char,
    },
    /// NaN or an infinite float.
    NotFinite,
    /// A date or time outside the years 0000–9999.
    OutOfRange,
    /// A stored key does not have the template's shape.
    Malformed {
        /// What was expected at that point.
        expected: String,
    },
}

impl fmt::Display for KeyFormatReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Negative { width } => write!(
                f,
                "a negative number cannot be zero-padded (d{width}); use a signed format such as n{width}"
            ),
            Self::TooWide { width } => write!(f, "needs more than {width} digits"),
            Self::TooPrecise { places } => write!(f, "has more than {places} decimal places"),
            Self::Empty => f.write_str("the key is empty"),
            Self::ContainsDelimiter { delimiter } => write!(
                f,
                "holds the delimiter {delimiter:?} that follows it in the template, so the key could not be parsed back"
            ),
            Self::ForbiddenChar { found } => write!(
                f,
                "holds the character {found:?}, which sorts below every delimiter and breaks key order"
            ),
            Self::NotFinite => f.write_str("is not a finite number"),
            Self::OutOfRange => f.write_str("is outside the years 0000-9999"),
            Self::Malformed { expected } => write!(f, "does not match the template: expected {expected}"),
        }
    }
}

/// A key could not be built from (or parsed into) its fields.
///
/// ```
/// use dynakey_runtime::{KeyFormatError, KeyFormatReason};
/// let err = KeyFormatError {
///     entity: "EMPLOYEE",
///     template: "SITE#<country>#<city>#EMP#<number:d6>",
///     field: "number",
///     value: "-1".into(),
///     reason: KeyFormatReason::Negative { width: 6 },
/// };
/// assert!(err.to_string().contains("field `number`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFormatError {
    /// The entity's discriminator.
    pub entity: &'static str,
    /// The key template, as written in the attribute.
    pub template: &'static str,
    /// The field at fault; empty when the fault is the whole key.
    pub field: &'static str,
    /// The offending value, as text.
    pub value: String,
    /// Why it was refused.
    pub reason: KeyFormatReason,
}

impl fmt::Display for KeyFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(
                f,
                "{} key \"{}\": value {:?} {}",
                self.entity, self.template, self.value, self.reason
            )
        } else {
            write!(
                f,
                "{} key \"{}\": field `{}` = {:?} {}",
                self.entity, self.template, self.field, self.value, self.reason
            )
        }
    }
}

impl std::error::Error for KeyFormatError {}

/// An entity could not be turned into an item.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// A key could not be built.
    Key(KeyFormatError),
    /// A `#[dynamo(serde)]` field failed to serialize.
    Serde {
        /// The field.
        field: &'static str,
        /// serde's message.
        message: String,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Key(e) => e.fmt(f),
            Self::Serde { field, message } => {
                write!(f, "field `{field}` could not be serialized: {message}")
            }
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Key(e) => Some(e),
            Self::Serde { .. } => None,
        }
    }
}

impl From<KeyFormatError> for EncodeError {
    fn from(e: KeyFormatError) -> Self {
        Self::Key(e)
    }
}

/// Which item of a request an error is about: its entity and its table key.
///
/// ```
/// use dynakey_runtime::error::ItemRef;
/// let r = ItemRef { entity: "MEMBER", pk: "USER#alice".into(), sk: Some("PROFILE".into()) };
/// assert_eq!(r.to_string(), "MEMBER USER#alice / PROFILE");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemRef {
    /// The entity's discriminator, e.g. `MEMBER`.
    pub entity: &'static str,
    /// The partition key text.
    pub pk: String,
    /// The sort key text, if the table has one.
    pub sk: Option<String>,
}

impl fmt::Display for ItemRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.sk {
            Some(sk) => write!(f, "{} {} / {}", self.entity, self.pk, sk),
            None => write!(f, "{} {}", self.entity, self.pk),
        }
    }
}

/// Why one action of a cancelled transaction failed.
///
/// `code` is DynamoDB's reason code: `None` (the action was fine; another
/// one failed), `ConditionalCheckFailed`, `TransactionConflict`,
/// `ItemCollectionSizeLimitExceeded`, `ValidationError`, ….
#[derive(Debug, Clone, PartialEq)]
pub struct CancelReason {
    /// The action's position in the transaction, from 0.
    pub index: usize,
    /// DynamoDB's reason code.
    pub code: String,
    /// DynamoDB's message, if any.
    pub message: Option<String>,
    /// Which entity and key the action addressed.
    pub target: ItemRef,
    /// The item as it was, when the action asked for it on a failed condition.
    pub item: Option<crate::codec::Item>,
}

impl CancelReason {
    /// Whether this action is the one (or one of those) that failed.
    ///
    /// ```
    /// use dynakey_runtime::error::{CancelReason, ItemRef};
    /// let r = CancelReason {
    ///     index: 0, code: "None".into(), message: None, item: None,
    ///     target: ItemRef { entity: "MEMBER", pk: "USER#a".into(), sk: None },
    /// };
    /// assert!(!r.failed());
    /// ```
    pub fn failed(&self) -> bool {
        self.code != "None"
    }
}

/// The one error type of every dynakey operation.
///
/// ```
/// use dynakey_runtime::Error;
/// let err = Error::Validation { message: "bad".into() };
/// assert_eq!(err.to_string(), "request refused by validation: bad");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A condition of a put, update or delete did not hold. `item` is the
    /// item as it was, when the operation asked for it
    /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`).
    ConditionFailed {
        /// The old item, when requested and the item existed.
        item: Option<crate::codec::Item>,
    },
    /// A transaction was cancelled; one reason per action, in order.
    TransactionCanceled {
        /// Per action: the reason code and which entity/key it addressed.
        reasons: Vec<CancelReason>,
    },
    /// A key could not be built.
    KeyFormat(KeyFormatError),
    /// An entity could not be encoded.
    Encode(EncodeError),
    /// An item could not be decoded; the error names the attribute path.
    Decode(crate::codec::DecodeError),
    /// DynamoDB (or the library, before sending) refused the request as
    /// invalid (`ValidationException`).
    Validation {
        /// The message.
        message: String,
    },
    /// Still throttled after retrying.
    Throttled {
        /// How many attempts were made.
        attempts: u32,
    },
    /// The item is larger than DynamoDB's 400 KB; refused before sending.
    ItemTooLarge {
        /// The item's size by DynamoDB's rules, in bytes.
        size: usize,
        /// The item's key, as text.
        key: String,
    },
    /// A consistent read was asked of a global secondary index.
    ConsistentReadOnGlobalIndex,
    /// A batch write did not write every request: the outcome says which
    /// were written, which are still unprocessed after every retry, and
    /// which failed with which error.
    BatchIncomplete(Box<crate::batch::BatchWriteOutcome>),
    /// An item's discriminator names no variant of the entity union.
    UnknownDiscriminator {
        /// The discriminator found (empty when the attribute was missing).
        value: String,
    },
    /// Any other error of the AWS SDK, kept as it was.
    Sdk(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ConditionFailed { item: Some(_) } => {
                f.write_str("the condition failed (old item returned)")
            }
            Self::ConditionFailed { item: None } => f.write_str("the condition failed"),
            Self::TransactionCanceled { reasons } => {
                f.write_str("transaction cancelled")?;
                let mut first = true;
                for r in reasons.iter().filter(|r| r.failed()) {
                    f.write_str(if first { ": " } else { "; " })?;
                    first = false;
                    write!(f, "action {} ({}): {}", r.index, r.target, r.code)?;
                    if let Some(m) = &r.message {
                        write!(f, " ({m})")?;
                    }
                }
                Ok(())
            }
            Self::KeyFormat(e) => e.fmt(f),
            Self::Encode(e) => e.fmt(f),
            Self::Decode(e) => write!(
                f,
                "cannot decode `{}`: expected {}, found {}",
                e.path, e.expected, e.found
            ),
            Self::Validation { message } => write!(f, "request refused by validation: {message}"),
            Self::Throttled { attempts } => write!(f, "throttled after {attempts} attempt(s)"),
            Self::ItemTooLarge { size, key } => {
                write!(
                    f,
                    "item {key} is {size} bytes, over DynamoDB's 400 KB limit"
                )
            }
            Self::ConsistentReadOnGlobalIndex => {
                f.write_str("a global secondary index cannot be read consistently")
            }
            Self::UnknownDiscriminator { value } => write!(f, "unknown discriminator {value:?}"),
            Self::BatchIncomplete(o) => {
                let failed: usize = o.failed.iter().map(|x| x.requests.len()).sum();
                write!(
                    f,
                    "batch write incomplete: {} written, {} unprocessed, {failed} failed",
                    o.written,
                    o.unprocessed.len()
                )?;
                if let Some(first) = o.failed.first() {
                    write!(f, " (first error: {})", first.error)?;
                }
                Ok(())
            }
            Self::Sdk(e) => write!(
                f,
                "{}",
                aws_smithy_types::error::display::DisplayErrorContext(&**e)
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::KeyFormat(e) => Some(e),
            Self::Encode(e) => Some(e),
            Self::Decode(e) => Some(e),
            Self::Sdk(e) => Some(&**e),
            Self::BatchIncomplete(o) => o.failed.first().map(|f| &f.error as _),
            _ => None,
        }
    }
}

impl From<KeyFormatError> for Error {
    fn from(e: KeyFormatError) -> Self {
        Self::KeyFormat(e)
    }
}

impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Self {
        match e {
            EncodeError::Key(k) => Self::KeyFormat(k),
            other => Self::Encode(other),
        }
    }
}

impl From<crate::codec::DecodeError> for Error {
    fn from(e: crate::codec::DecodeError) -> Self {
        Self::Decode(e)
    }
}

impl Error {
    /// Keeps an SDK error, except for the cases dynakey types: validation
    /// (matched by code, the SDK has no variant for it), throttling and a
    /// failed condition without an item.
    pub(crate) fn from_sdk<E, R>(
        err: aws_sdk_dynamodb::error::SdkError<E, R>,
        attempts: u32,
    ) -> Self
    where
        E: aws_sdk_dynamodb::error::ProvideErrorMetadata
            + std::error::Error
            + Send
            + Sync
            + 'static,
        R: fmt::Debug + Send + Sync + 'static,
    {
        if let Some(se) = err.as_service_error() {
            match se.code() {
                Some("ValidationException") => {
                    return Self::Validation {
                        message: se.message().unwrap_or_default().to_owned(),
                    }
                }
                Some(c) if is_throttling_code(c) => return Self::Throttled { attempts },
                Some("ConditionalCheckFailedException") => {
                    return Self::ConditionFailed { item: None }
                }
                _ => {}
            }
        }
        Self::Sdk(Box::new(err))
    }

    /// Whether retrying later may succeed (throttling).
    ///
    /// ```
    /// assert!(dynakey_runtime::Error::Throttled { attempts: 3 }.is_throttled());
    /// ```
    pub fn is_throttled(&self) -> bool {
        matches!(self, Self::Throttled { .. })
    }
}

/// The error codes DynamoDB uses for throttling.
pub(crate) fn is_throttling_code(code: &str) -> bool {
    matches!(
        code,
        "ProvisionedThroughputExceededException"
            | "ThrottlingException"
            | "RequestLimitExceeded"
            | "Throttling"
            | "TooManyRequestsException"
    )
}
