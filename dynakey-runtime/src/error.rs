//! The one error type of dynakey, and what its variants point at.
//!
//! Three families, told apart by variant so callers can react to each:
//!
//! - refused by the library before anything is sent: [`Error::Refused`]
//!   (bad numbers, an empty or oversized transaction, `IN` with more than
//!   100 values, raw-expression placeholder mistakes, a foreign cursor),
//!   [`Error::ItemTooLarge`], [`Error::KeyFormat`], [`Error::Encode`],
//!   [`Error::ConsistentReadOnGlobalIndex`], [`Error::Invalid`] (a
//!   `#[dynamo(validate = ..)]` function said no);
//! - answered by DynamoDB: [`Error::ConditionFailed`],
//!   [`Error::TransactionCanceled`], [`Error::Validation`] (its
//!   `ValidationException`), [`Error::Unique`] (a `#[dynamo(unique)]` value
//!   taken), [`Error::Throttled`], [`Error::BatchIncomplete`],
//!   and [`Error::Sdk`] for everything else the SDK reports;
//! - anything else: [`Error::Decode`] and [`Error::UnknownDiscriminator`]
//!   (items that do not read back), [`Error::Change`] (stream records that
//!   do not become typed changes), [`Error::Backend`] (the embedded engine,
//!   sockets, paths).
//!
//! Wrapping variants (`KeyFormat`, `Encode`, `Decode`, `Change`, `Sdk`) are
//! transparent: their text is the inner error's and `source()` is the inner
//! error's source, so a reporter that prints the chain prints nothing twice.
//! Variants that DynamoDB answered keep the SDK error as their `source()`.

pub(crate) mod batch;
pub(crate) mod change;
mod copy;
mod key;
mod reach;
mod refs;
mod refused;
mod sdk;
mod throttle;
mod vector;

use std::fmt;

use batch::BatchWriteOutcome;
use change::ChangeError;
pub(crate) use copy::clone_built;
pub use key::{
    EncodeError, KeyFormatError, KeyFormatReason, KeyRole, MAX_PARTITION_KEY_BYTES,
    MAX_SORT_KEY_BYTES,
};
pub use reach::naming_endpoint;
pub use refs::{CancelReason, ItemRef};
pub use refused::RefusedReason;
pub(crate) use sdk::is_throttling_code;
pub use throttle::{
    Throttle, ThrottleLimit, ThrottleReason, ThrottledAccess, ThrottledOn, ThrottledResource,
};
pub(crate) use vector::MAX_TOP_K;
pub use vector::{VectorSearchError, VectorSearchReason};

use crate::codec::{DecodeError, Item};
use crate::shown::{shown, shown_plain};

/// A boxed error, as the variants that keep another error hold it.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// `Result` with [`Error`] as the default error type.
///
/// ```
/// fn parse(n: &str) -> dynakey_runtime::Result<u32> {
///     n.parse().map_err(|_| dynakey_runtime::Error::Refused {
///         reason: dynakey_runtime::RefusedReason::NumberOutOfRange,
///         message: format!("not a number: {n}"),
///     })
/// }
/// assert_eq!(parse("7").unwrap(), 7);
/// let other: dynakey_runtime::Result<u8, String> = Err("any error type".into());
/// assert!(other.is_err());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The one error type of every dynakey operation.
///
/// ```
/// use dynakey_runtime::{Error, RefusedReason};
/// let err = Error::Refused {
///     reason: RefusedReason::ActionCount,
///     message: "a transaction takes 1 to 100 actions, not 0".into(),
/// };
/// assert_eq!(err.to_string(), "refused before sending: a transaction takes 1 to 100 actions, not 0");
/// assert!(std::error::Error::source(&err).is_none());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A condition of a put, update or delete did not hold. `item` is the
    /// item as it was, when the operation asked for it
    /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`).
    #[non_exhaustive]
    ConditionFailed {
        /// The old item, when requested and the item existed.
        item: Option<Item>,
        /// The SDK's error.
        source: BoxError,
    },
    /// A transaction was cancelled; one reason per action, in order.
    TransactionCanceled {
        /// Per action: the reason code and which entity/key it addressed.
        reasons: Vec<CancelReason>,
    },
    /// A key could not be built (transparent).
    KeyFormat(KeyFormatError),
    /// An entity could not be encoded (transparent).
    Encode(EncodeError),
    /// An item could not be decoded; the error names the attribute path
    /// (transparent).
    Decode(DecodeError),
    /// DynamoDB refused the request as invalid (`ValidationException`).
    #[non_exhaustive]
    Validation {
        /// DynamoDB's message.
        message: String,
        /// The SDK's error.
        source: BoxError,
    },
    /// dynakey refused the request before sending it: what it holds could
    /// not be sent, or DynamoDB would refuse it.
    Refused {
        /// Why, to match on.
        reason: RefusedReason,
        /// What is wrong, and where.
        message: String,
    },
    /// Still throttled after retrying: the operation, and why DynamoDB
    /// throttled it (its `ThrottlingReasons`: a reason and the table or
    /// index, typed; empty when the backend sent none). What to do about
    /// each reason: [`ThrottleLimit::advice`].
    #[non_exhaustive]
    Throttled {
        /// How many tries the request had: the client's retry setting
        /// (`max_attempts`, 3 by default), since the SDK retries a throttle
        /// until it runs out of them (it may stop sooner when its retry
        /// budget is spent); a batch's own retries count the calls made.
        attempts: u32,
        /// The operation (`GetItem`, `Query`, `TransactWriteItems`, …).
        operation: &'static str,
        /// The reasons of the last attempt, as DynamoDB listed them.
        reasons: Vec<Throttle>,
        /// The SDK's error of the last attempt.
        source: BoxError,
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
    BatchIncomplete(Box<BatchWriteOutcome>),
    /// An item's discriminator names no variant of the entity union.
    UnknownDiscriminator {
        /// The discriminator found (empty when the attribute was missing).
        value: String,
        /// The item's partition key.
        pk: String,
        /// The item's sort key, if the table has one.
        sk: Option<String>,
    },
    /// The backend could not be reached or started: the embedded engine,
    /// a socket, a path.
    Backend {
        /// What failed.
        message: String,
        /// The underlying error, if any.
        source: Option<BoxError>,
    },
    /// A stream record did not become a typed change (transparent): see
    /// [`ChangeError`].
    Change(ChangeError),
    /// A `#[dynamo(validate = ..)]` function refused a value; nothing was
    /// sent.
    Invalid {
        /// The entity's Rust type name (`User`; its stored discriminator is
        /// named `discriminator` wherever an error has it).
        entity: &'static str,
        /// The field whose validator refused it (`None` for the entity's own
        /// validator).
        field: Option<&'static str>,
        /// What the validator said.
        message: String,
    },
    /// A `#[dynamo(unique)]` value is already held by another item: its
    /// guard item exists.
    Unique {
        /// The entity's Rust type name (`User`; its stored discriminator is
        /// named `discriminator` wherever an error has it).
        entity: &'static str,
        /// The unique field.
        field: &'static str,
        /// The value taken, as its guard stores it.
        value: String,
    },
    /// A vector search refused before sending (transparent): see
    /// [`VectorSearchError`].
    VectorSearch(VectorSearchError),
    /// Any other error of the AWS SDK, kept as it was (transparent).
    Sdk(BoxError),
    /// The request did not reach DynamoDB: the connection to the endpoint
    /// failed (refused, reset, no route, a name that does not resolve), so
    /// no answer came, after the SDK's retries.
    Unreachable {
        /// Where the request went (`http://127.0.0.1:8000`), when the HTTP
        /// client names it: those of [`local`](crate::local) do, and any
        /// client wrapped by [`naming_endpoint`].
        endpoint: Option<String>,
        /// Why, from the innermost error of the SDK's chain (`connection
        /// refused`).
        reason: String,
        /// The SDK's error.
        source: BoxError,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ConditionFailed { item: Some(_), .. } => {
                f.write_str("the condition failed (old item returned)")
            }
            Self::ConditionFailed { item: None, .. } => f.write_str("the condition failed"),
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
            Self::Decode(e) => e.fmt(f),
            Self::Validation { message, .. } => {
                write!(f, "DynamoDB refused the request as invalid: {message}")
            }
            Self::Refused { message, .. } => write!(f, "refused before sending: {message}"),
            Self::Throttled {
                attempts, reasons, ..
            } => {
                write!(f, "throttled after {attempts} attempt(s)")?;
                let mut sep = ": ";
                for r in reasons {
                    write!(f, "{sep}{r}")?;
                    sep = "; ";
                }
                Ok(())
            }
            Self::ItemTooLarge { size, key } => {
                write!(
                    f,
                    "item {key} is {size} bytes, over DynamoDB's 400 KB limit"
                )
            }
            Self::ConsistentReadOnGlobalIndex => {
                f.write_str("a global secondary index cannot be read consistently")
            }
            Self::UnknownDiscriminator { value, pk, sk } => {
                write!(
                    f,
                    "unknown discriminator {} on the item {}",
                    shown(value),
                    shown_plain(pk)
                )?;
                if let Some(sk) = sk {
                    write!(f, " / {}", shown_plain(sk))?;
                }
                f.write_str(": no variant of the union reads it")
            }
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
            Self::Backend { message, .. } => write!(f, "backend: {message}"),
            Self::Invalid {
                entity,
                field: Some(field),
                message,
            } => write!(f, "invalid {entity}.{field}: {message}"),
            Self::Invalid {
                entity,
                field: None,
                message,
            } => write!(f, "invalid {entity}: {message}"),
            Self::Unique {
                entity,
                field,
                value,
            } => write!(f, "{entity}.{field} {} is already taken", shown(value)),
            Self::Change(e) => e.fmt(f),
            Self::VectorSearch(e) => e.fmt(f),
            Self::Sdk(e) => e.fmt(f),
            Self::Unreachable {
                endpoint: Some(endpoint),
                reason,
                ..
            } => write!(f, "could not reach {endpoint} ({reason})"),
            Self::Unreachable {
                endpoint: None,
                reason,
                ..
            } => write!(f, "could not reach DynamoDB's endpoint ({reason})"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::KeyFormat(e) => e.source(),
            Self::Encode(e) => e.source(),
            Self::Decode(e) => e.source(),
            Self::Change(e) => e.source(),
            Self::Sdk(e) => e.source(),
            Self::ConditionFailed { source, .. }
            | Self::Validation { source, .. }
            | Self::Throttled { source, .. }
            | Self::Unreachable { source, .. } => Some(&**source),
            Self::Backend { source, .. } => source.as_deref().map(|e| e as _),
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

impl From<ChangeError> for Error {
    fn from(e: ChangeError) -> Self {
        Self::Change(e)
    }
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Self {
        Self::Decode(e)
    }
}

impl Error {
    /// A refusal before sending.
    pub(crate) fn refused(reason: RefusedReason, message: impl Into<String>) -> Self {
        Self::Refused {
            reason,
            message: message.into(),
        }
    }

    /// A backend failure with its cause.
    #[cfg_attr(not(feature = "local"), allow(dead_code))]
    pub(crate) fn backend(message: impl Into<String>, source: impl Into<BoxError>) -> Self {
        Self::Backend {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// Whether retrying later may succeed (throttling).
    ///
    /// ```
    /// use dynakey_runtime::{Error, RefusedReason};
    /// let err = Error::Refused { reason: RefusedReason::Other, message: "no".into() };
    /// assert!(!err.is_throttled());
    /// ```
    pub fn is_throttled(&self) -> bool {
        matches!(self, Self::Throttled { .. })
    }

    /// Why DynamoDB throttled: the reasons of [`Error::Throttled`], or of
    /// the batch calls whose retries ran out while throttled
    /// ([`Error::BatchIncomplete`]); empty for any other error.
    ///
    /// ```
    /// use dynakey_runtime::{Error, RefusedReason};
    /// let err = Error::Refused { reason: RefusedReason::Other, message: "no".into() };
    /// assert!(err.throttles().is_empty());
    /// ```
    pub fn throttles(&self) -> &[Throttle] {
        match self {
            Self::Throttled { reasons, .. } => reasons,
            Self::BatchIncomplete(o) => &o.throttled,
            _ => &[],
        }
    }

    /// Whether a condition failed: of a put, update or delete
    /// ([`Error::ConditionFailed`]), or of an action of a cancelled
    /// transaction (a `ConditionalCheckFailed` reason).
    ///
    /// ```
    /// let err = dynakey_runtime::Error::TransactionCanceled { reasons: Vec::new() };
    /// assert!(!err.is_condition_failed());
    /// ```
    pub fn is_condition_failed(&self) -> bool {
        match self {
            Self::ConditionFailed { .. } => true,
            Self::TransactionCanceled { reasons } => {
                reasons.iter().any(|r| r.code == "ConditionalCheckFailed")
            }
            _ => false,
        }
    }
}

impl From<crate::cursor_key::ShortCursorKey> for Error {
    fn from(e: crate::cursor_key::ShortCursorKey) -> Self {
        Error::refused(RefusedReason::InvalidSetting, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[derive(Debug)]
    struct Inner(Option<Box<Inner>>);
    impl fmt::Display for Inner {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(if self.0.is_some() { "outer" } else { "root" })
        }
    }
    impl std::error::Error for Inner {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.0.as_deref().map(|e| e as _)
        }
    }

    /// Every message of an error's chain, as a reporter prints them.
    fn chain(e: &dyn std::error::Error) -> Vec<String> {
        let mut out = vec![e.to_string()];
        let mut cur = e.source();
        while let Some(s) = cur {
            out.push(s.to_string());
            cur = s.source();
        }
        out
    }

    #[test]
    fn wrapping_variants_are_transparent() {
        let err = Error::Sdk(Box::new(Inner(Some(Box::new(Inner(None))))));
        assert_eq!(chain(&err), ["outer", "root"]);
        let d = DecodeError::new(&crate::codec::AttrPath::root("a"), "S", "N 1");
        let err = Error::from(d.clone());
        assert_eq!(err.to_string(), d.to_string());
        assert!(err.source().is_none());
        assert_eq!(chain(&err).len(), 1);
    }

    #[test]
    fn kept_sources_come_back() {
        let err = Error::Throttled {
            attempts: 3,
            operation: "PutItem",
            reasons: Vec::new(),
            source: Box::new(Inner(None)),
        };
        assert_eq!(chain(&err), ["throttled after 3 attempt(s)", "root"]);
        let err = Error::Throttled {
            attempts: 1,
            operation: "Query",
            reasons: vec![Throttle::new(
                "IndexReadKeyRangeThroughputExceeded",
                Some("arn:aws:dynamodb:us-east-1:1:table/shop/index/GSI1"),
            )],
            source: Box::new(Inner(None)),
        };
        assert_eq!(
            err.to_string(),
            "throttled after 1 attempt(s): IndexReadKeyRangeThroughputExceeded on index GSI1 of table shop"
        );
        let err = Error::backend("cannot bind", Inner(None));
        assert_eq!(chain(&err), ["backend: cannot bind", "root"]);
    }

    #[test]
    fn unknown_discriminator_names_the_item() {
        let err = Error::UnknownDiscriminator {
            value: "STRAY".into(),
            pk: "USER#ann".into(),
            sk: Some("X".into()),
        };
        assert_eq!(
            err.to_string(),
            "unknown discriminator \"STRAY\" on the item USER#ann / X: no variant of the union reads it"
        );
    }
}
