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
//!
//! The grammar of a template, its formats and the rules above (what
//! delimits, what escapes, what no key holds) are `dynakey_core::template`'s,
//! which the derive checks templates with: the two cannot disagree.

use std::borrow::Cow;

pub use dynakey_core::template::{escape_char, PartFormat, TemplatePart};
use dynakey_core::template::{forbidden_raw, unescape};

use super::formats::KeyPartError;
use crate::error::{KeyFormatError, KeyFormatReason, KeyRole};

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
/// w.write_str("New York").unwrap();
/// w.write_str("10001").unwrap();
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
    pub fn build(&'static self) -> super::KeyWriter {
        super::KeyWriter::new(self)
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
            discriminator: self.entity,
            index: self.index,
            template: self.text,
            field,
            value: e.value,
            reason: e.reason,
        }
    }
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
    match s.chars().find(|c| forbidden_raw(*c)) {
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
