//! Key-text types as attributes: a uuid, a date or an instant is stored as
//! its key text, so an attribute and a key hold the same string. The impls
//! live with the key formats (the codec below knows nothing of keys).

use aws_sdk_dynamodb::types::AttributeValue;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::formats::KeyText;
use crate::codec::{Attr, AttrPath, DecodeError, Unwritable};

/// Key-text types (uuid, date, instant) are stored as their key text, so an
/// attribute and a key hold the same string. Reading is lenient where
/// other clients write other valid forms: any uuid form (uppercase,
/// braced, simple), and an instant in RFC 3339 with any offset; keys stay
/// strict.
macro_rules! as_key_text {
    ($($t:ty => $what:literal, $lenient:expr),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                let mut s = String::new();
                // A value with no key text (a date outside 0000–9999) is
                // refused by every write through `unwritable` before this
                // is sent; `Display` only keeps the function total.
                if self.write_text(&mut s).is_err() {
                    s = self.to_string();
                }
                Some(AttributeValue::S(s))
            }
            /// The key functions' rule (`KeyText::write_text`): what has
            /// no key text has no stored form `from_attr` reads.
            fn unwritable(&self) -> Option<Unwritable> {
                let mut s = String::new();
                self.write_text(&mut s).err().map(|e| {
                    let why = format!("{}, so it has no stored form ({})", e.reason, $what);
                    Unwritable::new(self.to_string(), why)
                })
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                match value {
                    AttributeValue::S(s) => <$t as KeyText>::parse_text(s)
                        .ok()
                        .or_else(|| $lenient(s))
                        .ok_or_else(|| DecodeError::new(path, $what, format!("S {s:?}"))),
                    other => Err(DecodeError::mismatch(path, $what, other)),
                }
            }
        }
    )*};
}

as_key_text!(
    Uuid => "S holding a uuid", |s: &str| Uuid::try_parse(s).ok(),
    Date => "S holding a date YYYY-MM-DD", |_: &str| None,
    OffsetDateTime => "S holding an instant (RFC 3339)", |s: &str| {
        OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
    }
);
