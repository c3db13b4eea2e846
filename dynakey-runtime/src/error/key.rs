//! Errors of keys and of encoding: a value a key template cannot hold, a
//! stored key that does not have the template's shape, a field that could
//! not be serialized.

use std::fmt;

use crate::shown::shown;

/// The most bytes a partition key may hold (table and index keys alike).
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;
/// The most bytes a sort key may hold (table and index keys alike).
pub const MAX_SORT_KEY_BYTES: usize = 1024;

/// Which of DynamoDB's keys a text fills, for its size limit.
///
/// ```
/// use dynakey_runtime::key::KeyRole;
/// assert_eq!(KeyRole::Partition.limit(), 2048);
/// assert_eq!(KeyRole::Sort.limit(), 1024);
/// // A key whose writer was not told its role: the larger limit.
/// assert_eq!(KeyRole::Any.limit(), 2048);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyRole {
    /// A partition (hash) key: 2,048 bytes.
    Partition,
    /// A sort (range) key: 1,024 bytes.
    Sort,
    /// A key of a template made by hand with `KeyTemplate::new`, which
    /// does not say which key it is: held to 2,048 bytes, the most any key
    /// holds. A derived entity's keys always carry their role.
    Any,
}

impl KeyRole {
    /// The most bytes a key of this role may hold.
    pub const fn limit(self) -> usize {
        match self {
            KeyRole::Partition | KeyRole::Any => MAX_PARTITION_KEY_BYTES,
            KeyRole::Sort => MAX_SORT_KEY_BYTES,
        }
    }

    /// How an error names it: "partition key", "sort key", "key".
    pub const fn noun(self) -> &'static str {
        match self {
            KeyRole::Partition => "partition key",
            KeyRole::Sort => "sort key",
            KeyRole::Any => "key",
        }
    }
}

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
    /// A number DynamoDB cannot store (more than 38 significant digits,
    /// a magnitude outside 1E-130 to 1E+126): a native key attribute is
    /// sent as the number itself.
    BadNumber {
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A stored key does not have the template's shape.
    Malformed {
        /// What was expected at that point.
        expected: String,
    },
    /// The key, once written (escaped), is longer than DynamoDB holds: the
    /// error's field is the one whose text is the longest.
    TooLong {
        /// Which key it is: its limit is `role.limit()`.
        role: KeyRole,
        /// Its size in bytes (UTF-8, after escaping).
        size: usize,
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
            Self::BadNumber { problem } => f.write_str(problem),
            Self::Malformed { expected } => write!(f, "does not match the template: expected {expected}"),
            Self::TooLong { role, size } => write!(
                f,
                "makes the {} {size} bytes long (counted after escaping), over the {} bytes DynamoDB allows",
                role.noun(),
                role.limit()
            ),
        }
    }
}

/// A key could not be built from (or parsed into) its fields.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "EMPLOYEE")]
/// # #[pk("ORG#<org>")]
/// # #[sk("SITE#<country>#<city>#EMP#<number:d6>")]
/// # struct Employee { org: String, country: String, city: String, number: i32 }
/// use dynakey_runtime::KeyFormatReason;
/// let err = Employee::key("acme", "CH", "Zurich", -1).unwrap_err();
/// assert_eq!(err.field, "number");
/// assert_eq!(err.reason, KeyFormatReason::Negative { width: 6 });
/// assert!(err.to_string().contains("field `number`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct KeyFormatError {
    /// The entity's discriminator (the value stored in its discriminator
    /// attribute, e.g. `EMPLOYEE`; an error's `entity` is always the Rust
    /// type's name).
    pub discriminator: &'static str,
    /// The index whose key it is; `None` for the table's key.
    pub index: Option<&'static str>,
    /// The key template, as written in the attribute; empty for a native
    /// index key (the field's own attribute is the key).
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
        match (self.template, self.index) {
            ("", Some(index)) => write!(f, "{} native key of index {index}", self.discriminator)?,
            (template, index) => {
                write!(f, "{} key \"{template}\"", self.discriminator)?;
                if let Some(index) = index {
                    write!(f, " of index {index}")?;
                }
            }
        }
        match (self.field, &self.reason) {
            ("", KeyFormatReason::TooLong { .. }) => {
                write!(f, ": the text {} {}", shown(&self.value), self.reason)
            }
            (field, KeyFormatReason::TooLong { .. }) => {
                write!(f, ": field `{field}` = {} {}", shown(&self.value), self.reason)
            }
            ("", _) => write!(f, ": value {} {}", shown(&self.value), self.reason),
            (field, KeyFormatReason::Empty) if self.template.is_empty() => write!(
                f,
                ": field `{field}` is empty, and DynamoDB refuses an empty string or binary in a key attribute"
            ),
            (field, KeyFormatReason::Empty) => write!(
                f,
                ": field `{field}` is empty, and a key part needs a value (an empty key attribute is refused by DynamoDB)"
            ),
            (field, reason) => write!(f, ": field `{field}` = {} {reason}", shown(&self.value)),
        }
    }
}

impl std::error::Error for KeyFormatError {}

/// An entity could not be turned into an item.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "COUNTER")]
/// # #[pk("COUNTER#<n:d2>")]
/// # struct Counter { n: i32 }
/// use dynakey_runtime::{EncodeError, Entity};
/// let err = Counter { n: 100 }.to_item().unwrap_err();
/// assert!(matches!(&err, EncodeError::Key(k) if k.field == "n"));
/// assert_eq!(err.to_string(), Counter::key(100).unwrap_err().to_string());
/// ```
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
    /// A value has no stored form the item's decoder reads back (see
    /// [`Attr::unwritable`](crate::Attr::unwritable)): a `time::Date` or
    /// `OffsetDateTime` whose UTC year is outside 0000–9999, the same
    /// values the key functions refuse as
    /// [`OutOfRange`](KeyFormatReason::OutOfRange).
    Unwritable {
        /// The attribute path (`day`, `days[2]`, `meta.at`).
        attr: String,
        /// The value, as its type displays it.
        value: String,
        /// Why it has no stored form.
        why: String,
    },
}

impl EncodeError {
    /// The refusal of `u`, found in attribute `attr`.
    pub(crate) fn unwritable(attr: &str, u: crate::codec::Unwritable) -> Self {
        Self::Unwritable {
            attr: format!("{attr}{}", u.below),
            value: u.value,
            why: u.why,
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Key(e) => e.fmt(f),
            Self::Serde { field, message } => {
                write!(f, "field `{field}` could not be serialized: {message}")
            }
            Self::Unwritable { attr, value, why } => {
                write!(f, "attribute `{attr}` cannot be written: {value} {why}")
            }
        }
    }
}

/// `Key` forwards to the key error (its text is the key error's text, so
/// its source is not repeated).
impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Key(e) => e.source(),
            Self::Serde { .. } | Self::Unwritable { .. } => None,
        }
    }
}

impl From<KeyFormatError> for EncodeError {
    fn from(e: KeyFormatError) -> Self {
        Self::Key(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key error names the entity by its discriminator, and shows a long
    /// value cut to its start and its length, whatever the reason.
    #[test]
    fn a_long_value_is_cut_in_every_reason() {
        let long = format!("{}\u{1}", "x".repeat(900));
        for reason in [
            KeyFormatReason::ForbiddenChar { found: '\u{1}' },
            KeyFormatReason::Malformed {
                expected: "ORG#".into(),
            },
        ] {
            let e = KeyFormatError {
                discriminator: "ORG",
                index: None,
                template: "ORG#<id>",
                field: "id",
                value: long.clone(),
                reason,
            };
            let text = e.to_string();
            assert!(
                text.starts_with("ORG key \"ORG#<id>\": field `id` = \"xxxx"),
                "{text}"
            );
            assert!(!text.contains(&long[..100]), "{text}");
            assert!(text.contains("… (901 characters, 901 bytes)"), "{text}");
        }
    }
}
