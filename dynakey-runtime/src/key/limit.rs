//! DynamoDB's key size limits: a partition key holds at most 2,048 bytes of
//! UTF-8, a sort key at most 1,024, on the table and on every index. The
//! writer counts a key after escaping (what is sent), so a value of 681
//! `#` (2,043 bytes once escaped as `%23`) is what makes a key long, not
//! its 681 characters.

use super::formats::KeyPartError;
use super::template::{field_value, KeyTemplate, PartFormat, TemplatePart};
use crate::error::{KeyFormatError, KeyFormatReason};

pub use crate::error::{KeyRole, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};

/// Refuses `text`, a key of template `tpl`, when it is longer than `role`
/// allows, naming the field whose text is the longest as the one that made
/// it long. For a key the writer did not write itself (an item's key
/// attribute): the fields are found by reading the text back.
///
/// ```
/// use dynakey_runtime::key::{check_key_size, KeyRole, KeyTemplate, PartFormat, TemplatePart::*};
/// use dynakey_runtime::KeyFormatReason;
/// static T: KeyTemplate = KeyTemplate::new("DOC", "DOC#<id>#<rev:d4>",
///     &[Lit("DOC#"), Field { name: "id", format: PartFormat::Text }, Lit("#"),
///       Field { name: "rev", format: PartFormat::Padded(4) }]);
/// let key = format!("DOC#{}#0001", "%23".repeat(340));
/// assert_eq!(key.len(), 1029);
/// let err = check_key_size(&T, KeyRole::Sort, &key).unwrap_err();
/// assert_eq!((err.field, err.value.len()), ("id", 340)); // the value as given: 340 `#`
/// assert_eq!(err.reason, KeyFormatReason::TooLong { role: KeyRole::Sort, size: 1029 });
/// assert!(check_key_size(&T, KeyRole::Partition, &key).is_ok());
/// ```
pub fn check_key_size(
    tpl: &'static KeyTemplate,
    role: KeyRole,
    text: &str,
) -> Result<(), KeyFormatError> {
    if text.len() <= role.limit() {
        return Ok(());
    }
    let (field, value) = widest_read_back(tpl, text);
    Err(tpl.err(
        field,
        KeyPartError::new(
            value,
            KeyFormatReason::TooLong {
                role,
                size: text.len(),
            },
        ),
    ))
}

/// The field of `tpl` whose text in `key` is the longest, and its value;
/// `("", key)` when the key does not read back under the template (then
/// the key as a whole is what is long).
fn widest_read_back(tpl: &'static KeyTemplate, key: &str) -> (&'static str, String) {
    let mut rest = key;
    let mut best: Option<(&'static str, PartFormat, &str)> = None;
    for (i, part) in tpl.parts.iter().enumerate() {
        match *part {
            TemplatePart::Lit(l) => match rest.strip_prefix(l) {
                Some(r) => rest = r,
                None => break,
            },
            TemplatePart::Field { name, format } => {
                let end = match format.width() {
                    Some(w) if rest.is_char_boundary(w.min(rest.len())) => w.min(rest.len()),
                    Some(_) => break,
                    None if tpl.raw || format == PartFormat::Path => rest.len(),
                    None => match tpl.parts.get(i + 1) {
                        Some(TemplatePart::Lit(l)) => l
                            .chars()
                            .next()
                            .and_then(|d| rest.find(d))
                            .unwrap_or(rest.len()),
                        _ => rest.len(),
                    },
                };
                let (text, r) = rest.split_at(end);
                if best.is_none_or(|(_, _, b)| text.len() > b.len()) {
                    best = Some((name, format, text));
                }
                rest = r;
            }
        }
    }
    match best {
        Some((name, format, text)) => (name, field_value(tpl, format, text)),
        None => ("", key.to_owned()),
    }
}
