//! Values whose stored form could not be read back: every write asks
//! [`Attr::unwritable`](super::Attr::unwritable) of what it writes and
//! refuses such a value before anything is sent, so no item is stored that
//! `get` would then fail to decode.

use std::fmt;

/// A value [`Attr::to_attr`](super::Attr::to_attr) has no form for that
/// [`Attr::from_attr`](super::Attr::from_attr) reads back (a `time::Date`
/// outside the years 0000–9999), and where it sits below the attribute.
///
/// ```
/// use dynakey_runtime::Attr;
/// let d = time::Date::from_calendar_date(-1, time::Month::December, 31).unwrap();
/// let u = vec![d].unwritable().unwrap();
/// assert_eq!((u.below.as_str(), u.value.as_str()), ("[0]", "-0001-12-31"));
/// assert!(time::macros::date!(2026 - 07 - 16).unwritable().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unwritable {
    /// The path below the attribute (`[2]`, `.at`), empty for the
    /// attribute itself.
    pub below: String,
    /// The value, as its type displays it.
    pub value: String,
    /// Why it has no stored form.
    pub why: String,
}

impl Unwritable {
    /// `value` cannot be stored, because `why`.
    pub fn new(value: impl Into<String>, why: impl Into<String>) -> Self {
        Unwritable {
            below: String::new(),
            value: value.into(),
            why: why.into(),
        }
    }

    /// The same value found under `step` (`[2]`, `.at`) of its container.
    #[must_use]
    pub fn under(mut self, step: impl fmt::Display) -> Self {
        self.below = format!("{step}{}", self.below);
        self
    }
}

/// The first unwritable element of a list, by position.
pub(crate) fn first_in_list<'a, T: super::Attr + 'a>(
    items: impl IntoIterator<Item = &'a T>,
) -> Option<Unwritable> {
    items
        .into_iter()
        .enumerate()
        .find_map(|(i, v)| v.unwritable().map(|u| u.under(format_args!("[{i}]"))))
}

/// The first unwritable value of a map, by key.
pub(crate) fn first_in_map<'a, T: super::Attr + 'a>(
    entries: impl IntoIterator<Item = (&'a String, &'a T)>,
) -> Option<Unwritable> {
    entries
        .into_iter()
        .find_map(|(k, v)| v.unwritable().map(|u| u.under(format_args!(".{k}"))))
}
