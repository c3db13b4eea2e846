//! Key templates at run time: how the fields of one key become its text,
//! how the text is read back, and the sort-key conditions over it.
//!
//! The derive describes each template as a static [`KeyTemplate`] and
//! generated code writes a key with a [`KeyWriter`] and reads one with a
//! [`KeyReader`], so every rule below lives here, once, and the property
//! tests of this crate exercise exactly the code a derived entity runs.
//!
//! # The text of a field
//!
//! * A **fixed-width** field (`d<w>`, `n<w>`, `n<w>.<p>`, `rev`, and the
//!   text of a `Uuid`, `time::Date` or `time::OffsetDateTime`) is written as
//!   its format says. Its width alone tells where it ends.
//! * A **variable-width** field (a string, a unit enum, a `bool`, an
//!   unformatted number in a partition key) is *escaped*: every character
//!   from U+0000 up to the template's escape character (inclusive) is
//!   written as the escape character and two uppercase hex digits. The
//!   escape character is the one just above the template's highest
//!   delimiter, and at least `%`: with `#` it is `%`, so `New York` is
//!   written `New%20York` and `a#b` is written `a%23b`.
//!
//!   After escaping, no character of a value sorts at or below the
//!   delimiter, so the delimiter ends the field wherever it appears, one
//!   key text has one reading, and text order is value order for every
//!   value: `New` < `New York` < `Newark` as values and as keys
//!   (`New#` < `New%20York#` < `Newark#`).
//! * A template that is one bare placeholder (`<owner>`) holds the value as
//!   it is (the key equals the attribute), and so does a last field with the
//!   `path` format (`<folder:path>`), which may hold the delimiter so that a
//!   text prefix selects a subtree.
//!
//! U+10FFFF is refused everywhere (range conditions use it as their upper
//! bound), as is an empty field; raw text (bare and `path` fields) also
//! refuses control characters.

use std::borrow::Cow;

use super::formats::KeyPartError;
use super::HIGH;
use crate::error::{KeyFormatError, KeyFormatReason, KeyRole};

/// How one placeholder's value becomes text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartFormat {
    /// No format: the type's text form (escaped when its width varies).
    Text,
    /// `d<w>`: a zero-padded unsigned integer of `w` digits.
    Padded(u32),
    /// `n<w>`: a sign character and `w` digits.
    Signed(u32),
    /// `n<w>.<p>`: a sign, `w` digits, `.` and `p` digits.
    Decimal(u32, u32),
    /// `rev`: 13 digits of reversed epoch milliseconds.
    Reverse,
    /// `path`: the last field's text as it is, delimiters included.
    Path,
}

impl PartFormat {
    /// The width of the text when the format fixes it.
    ///
    /// ```
    /// use dynakey_runtime::key::PartFormat;
    /// assert_eq!(PartFormat::Signed(4).width(), Some(5));
    /// assert_eq!(PartFormat::Decimal(8, 2).width(), Some(12));
    /// assert_eq!(PartFormat::Text.width(), None);
    /// ```
    pub const fn width(self) -> Option<usize> {
        match self {
            PartFormat::Padded(w) => Some(w as usize),
            PartFormat::Signed(w) => Some(w as usize + 1),
            PartFormat::Decimal(w, p) => {
                Some(w as usize + 1 + if p > 0 { p as usize + 1 } else { 0 })
            }
            PartFormat::Reverse => Some(13),
            PartFormat::Text | PartFormat::Path => None,
        }
    }
}

/// One part of a template: literal text or a placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// Literal text, copied into the key.
    Lit(&'static str),
    /// A placeholder.
    Field {
        /// The field's name.
        name: &'static str,
        /// Its format.
        format: PartFormat,
    },
}

/// A key template, as the derive describes it to the runtime.
///
/// ```
/// use dynakey_runtime::key::{KeyTemplate, KeyWriter, PartFormat, TemplatePart::*};
/// static T: KeyTemplate = KeyTemplate::new(
///     "SITE",
///     "CITY#<city>#<zip>",
///     &[Lit("CITY#"), Field { name: "city", format: PartFormat::Text }, Lit("#"),
///       Field { name: "zip", format: PartFormat::Text }],
/// );
/// assert_eq!(T.escape(), '%');
/// let mut w = KeyWriter::new(&T);
/// w.str("New York").unwrap();
/// w.str("10001").unwrap();
/// assert_eq!(w.finish().unwrap(), "CITY#New%20York#10001");
/// ```
#[derive(Debug)]
#[must_use]
pub struct KeyTemplate {
    entity: &'static str,
    attr: &'static str,
    index: Option<&'static str>,
    pub(super) text: &'static str,
    pub(super) parts: &'static [TemplatePart],
    pub(super) escape: char,
    pub(super) raw: bool,
    /// Which key it is, for its size limit: the writer refuses and the
    /// reader refuses a longer key alike.
    pub(super) role: KeyRole,
}

impl KeyTemplate {
    /// Describes a template of entity `entity` (its discriminator, for
    /// errors) written `text`, made of `parts`.
    pub const fn new(
        entity: &'static str,
        text: &'static str,
        parts: &'static [TemplatePart],
    ) -> Self {
        let raw = parts.len() == 1 && matches!(parts[0], TemplatePart::Field { .. });
        KeyTemplate {
            entity,
            attr: "",
            index: None,
            text,
            parts,
            escape: escape_char(parts),
            raw,
            role: KeyRole::Any,
        }
    }

    /// The same template as a key of index `name`, so its errors name the
    /// index.
    ///
    /// ```
    /// use dynakey_runtime::key::{KeyTemplate, PartFormat, TemplatePart::*};
    /// static T: KeyTemplate = KeyTemplate::new("TASK", "<owner>",
    ///     &[Field { name: "owner", format: PartFormat::Text }]).of_index("GSI1");
    /// assert_eq!(T.index(), Some("GSI1"));
    /// ```
    pub const fn of_index(mut self, name: &'static str) -> Self {
        self.index = Some(name);
        self
    }

    /// The same template as a key of `role`: its keys are held to that
    /// role's size limit when written and when read back (a template made
    /// with [`KeyTemplate::new`] is of [`KeyRole::Any`], held to 2,048
    /// bytes, the most any key holds).
    ///
    /// ```
    /// use dynakey_runtime::key::{KeyTemplate, PartFormat, TemplatePart::*};
    /// use dynakey_runtime::{KeyFormatReason, KeyRole};
    /// static T: KeyTemplate = KeyTemplate::new("NOTE", "N#<id>",
    ///     &[Lit("N#"), Field { name: "id", format: PartFormat::Text }]).of_role(KeyRole::Sort);
    /// let err = T.build().str(&"x".repeat(1023)).finish().unwrap_err();
    /// assert_eq!(err.reason, KeyFormatReason::TooLong { role: KeyRole::Sort, size: 1025 });
    /// ```
    pub const fn of_role(mut self, role: KeyRole) -> Self {
        self.role = role;
        self
    }

    /// A derived entity's template: of entity `entity` (its discriminator),
    /// filling attribute `attr` of index `index` (`None`: the table's),
    /// written `text`; its parts come from [`parts`](crate::key::parts)
    /// (the derive adds its role with [`of_role`](Self::of_role)).
    #[doc(hidden)]
    pub const fn __derived(
        entity: &'static str,
        attr: &'static str,
        index: Option<&'static str>,
        text: &'static str,
        parts: &'static [TemplatePart],
    ) -> Self {
        let mut t = Self::new(entity, text, parts);
        t.attr = attr;
        t.index = index;
        t
    }

    /// Which key this is (partition or sort; [`KeyRole::Any`] for a
    /// template made by hand), which sets its size limit.
    pub const fn role(&self) -> KeyRole {
        self.role
    }

    /// A key of this template, written value by value.
    pub fn build(&'static self) -> super::KeyBuilder {
        super::KeyBuilder::new(self)
    }

    /// The attribute the key fills (empty for a template made with
    /// [`KeyTemplate::new`]).
    pub const fn attr(&self) -> &'static str {
        self.attr
    }

    /// The entity's discriminator.
    pub const fn entity(&self) -> &'static str {
        self.entity
    }

    /// The index whose key this is; `None` for the table's.
    pub const fn index(&self) -> Option<&'static str> {
        self.index
    }

    /// The template as written, e.g. `SITE#<country>#<city>`.
    pub const fn text(&self) -> &'static str {
        self.text
    }

    /// Its parts.
    pub const fn parts(&self) -> &'static [TemplatePart] {
        self.parts
    }

    /// The escape character of its variable-width fields.
    pub const fn escape(&self) -> char {
        self.escape
    }

    /// Whether the template is one bare placeholder, whose value is the
    /// key as it is.
    pub const fn is_raw(&self) -> bool {
        self.raw
    }

    /// The literal text before the first placeholder.
    pub const fn prefix(&self) -> &'static str {
        match self.parts.first() {
            Some(TemplatePart::Lit(l)) => l,
            _ => "",
        }
    }

    /// The placeholders, in order.
    pub fn fields(&self) -> impl Iterator<Item = (&'static str, PartFormat)> + '_ {
        self.parts.iter().filter_map(|p| match *p {
            TemplatePart::Field { name, format } => Some((name, format)),
            TemplatePart::Lit(_) => None,
        })
    }

    pub(super) fn err(&self, field: &'static str, e: KeyPartError) -> KeyFormatError {
        KeyFormatError {
            entity: self.entity,
            index: self.index,
            template: self.text,
            field,
            value: e.value,
            reason: e.reason,
        }
    }
}

/// The escape character of a template: one above the highest delimiter
/// (a character below `0` next to a placeholder), and at least `%`.
///
/// ```
/// use dynakey_runtime::key::{escape_char, PartFormat, TemplatePart::*};
/// let f = Field { name: "a", format: PartFormat::Text };
/// assert_eq!(escape_char(&[Lit("A#"), f]), '%');
/// assert_eq!(escape_char(&[Lit("A-"), f, Lit("-B")]), '.');
/// assert_eq!(escape_char(&[f]), '%');
/// ```
pub const fn escape_char(parts: &[TemplatePart]) -> char {
    let mut high = b'%' - 1;
    let mut i = 0;
    while i < parts.len() {
        if let TemplatePart::Field { .. } = parts[i] {
            if i > 0 {
                if let TemplatePart::Lit(l) = parts[i - 1] {
                    let b = l.as_bytes();
                    if !b.is_empty() && b[b.len() - 1] < b'0' && b[b.len() - 1] > high {
                        high = b[b.len() - 1];
                    }
                }
            }
            if i + 1 < parts.len() {
                if let TemplatePart::Lit(l) = parts[i + 1] {
                    let b = l.as_bytes();
                    if !b.is_empty() && b[0] < b'0' && b[0] > high {
                        high = b[0];
                    }
                }
            }
        }
        i += 1;
    }
    (high + 1) as char
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `s` escaped with `esc` (see the module docs).
pub(crate) fn escape_into(out: &mut String, s: &str, esc: char) -> Result<(), KeyFormatReason> {
    if !s.chars().any(|c| c <= esc || c == HIGH) {
        out.push_str(s);
        return Ok(());
    }
    for c in s.chars() {
        if c == HIGH {
            return Err(KeyFormatReason::ForbiddenChar { found: c });
        }
        if c <= esc {
            let b = c as u32 as u8;
            out.push(esc);
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push(c);
        }
    }
    Ok(())
}

/// Reads back what [`escape_into`] wrote; `None` unless `s` is exactly the
/// escaped form of some text (so reading and writing round-trip).
pub(super) fn unescape(s: &str, esc: char) -> Option<Cow<'_, str>> {
    if !s.chars().any(|c| c <= esc || c == HIGH) {
        return Some(Cow::Borrowed(s));
    }
    let hex = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    };
    let mut out = String::with_capacity(s.len());
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == esc {
            let b = s.as_bytes();
            let (h, l) = (hex(*b.get(i + 1)?)?, hex(*b.get(i + 2)?)?);
            let code = (h << 4) | l;
            if u32::from(code) > esc as u32 {
                return None;
            }
            out.push(code as char);
            chars.next();
            chars.next();
        } else if c < esc || c == HIGH {
            return None;
        } else {
            out.push(c);
        }
    }
    Some(Cow::Owned(out))
}

/// A field's value from its text in a key: unescaped when the field is
/// escaped (the text itself when it does not read back, or is raw or of a
/// fixed width).
pub(super) fn field_value(tpl: &KeyTemplate, format: PartFormat, text: &str) -> String {
    match format {
        PartFormat::Text if !tpl.raw => {
            unescape(text, tpl.escape).map_or_else(|| text.to_owned(), Cow::into_owned)
        }
        _ => text.to_owned(),
    }
}

/// Checks raw text (a bare or `path` field): no control characters, no
/// U+10FFFF.
pub(crate) fn check_raw(s: &str) -> Result<(), KeyFormatReason> {
    match s.chars().find(|c| *c < ' ' || *c == HIGH) {
        Some(found) => Err(KeyFormatReason::ForbiddenChar { found }),
        None => Ok(()),
    }
}

/// A format call that does not match the template (generated code never
/// makes one).
pub(super) fn mismatch() -> KeyPartError {
    KeyPartError::new(
        "",
        KeyFormatReason::Malformed {
            expected: "the format of the template".into(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trips_and_is_canonical() {
        for s in ["New York", "a#b", "%", "plain", "a%23", "\u{1}x", "é#"] {
            let mut out = String::new();
            escape_into(&mut out, s, '%').unwrap();
            assert!(!out.contains('#') && !out.contains(' '), "{out}");
            assert_eq!(unescape(&out, '%').as_deref(), Some(s));
        }
        // Not what the writer writes: refused.
        for bad in ["a#b", "a%41", "a%2", "a%2g", "a%2a", "a b"] {
            assert_eq!(unescape(bad, '%'), None, "{bad}");
        }
    }
}
