//! Attribute paths for decode errors, built without allocating while decoding
//! succeeds and rendered (`orders[2].total`) only when it fails.

use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;

/// Where a value sits inside an item.
#[derive(Debug, Clone, Copy)]
pub enum AttrPath<'a> {
    /// A top-level attribute.
    Root(&'a str),
    /// A member of a map.
    Field(&'a AttrPath<'a>, &'a str),
    /// An element of a list.
    Index(&'a AttrPath<'a>, usize),
}

impl<'a> AttrPath<'a> {
    /// A top-level attribute.
    pub fn root(name: &'a str) -> Self {
        AttrPath::Root(name)
    }

    /// The member `name` below this path (a top-level name for the empty root).
    pub fn field(&'a self, name: &'a str) -> AttrPath<'a> {
        match self {
            AttrPath::Root("") => AttrPath::Root(name),
            _ => AttrPath::Field(self, name),
        }
    }

    /// The element `i` below this path.
    pub fn index(&'a self, i: usize) -> AttrPath<'a> {
        AttrPath::Index(self, i)
    }
}

impl fmt::Display for AttrPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttrPath::Root(n) => f.write_str(n),
            AttrPath::Field(p, n) => write!(f, "{p}.{n}"),
            AttrPath::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// An item could not be decoded: which attribute, what was expected, what was
/// found.
///
/// ```
/// use dynakey_runtime::{Attr, AttrPath};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let root = AttrPath::root("user");
/// let err = u8::from_attr(&AttributeValue::N("300".into()), &root.field("age")).unwrap_err();
/// assert_eq!(err.path, "user.age");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeError {
    /// The attribute path, e.g. `orders[2].total`.
    pub path: String,
    /// What the codec expected there.
    pub expected: String,
    /// What it found (a type tag and a short rendering of the value).
    pub found: String,
    /// Which kind of failure it is.
    pub kind: DecodeErrorKind,
}

/// What kind of value a [`DecodeError`] refused.
///
/// ```
/// use dynakey_runtime::{Attr, AttrPath, DecodeErrorKind};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let err = u8::from_attr(&AttributeValue::S("x".into()), &AttrPath::root("n")).unwrap_err();
/// assert_eq!(err.kind, DecodeErrorKind::Invalid);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A value of the wrong type, out of range or of the wrong form.
    Invalid,
    /// A required attribute is absent.
    Missing,
    /// A map or list nested past the [`MAX_NESTING`](crate::codec::MAX_NESTING)
    /// levels DynamoDB stores: refused before it is read, so that a crafted
    /// item cannot exhaust the stack. `path` names the map or list.
    TooDeep,
}

impl DecodeError {
    /// A value of the wrong type or out of range.
    pub fn new(path: &AttrPath<'_>, expected: impl Into<String>, found: impl Into<String>) -> Self {
        Self {
            path: path.to_string(),
            expected: expected.into(),
            found: found.into(),
            kind: DecodeErrorKind::Invalid,
        }
    }

    /// A value of the wrong DynamoDB type.
    pub fn mismatch(path: &AttrPath<'_>, expected: &str, found: &AttributeValue) -> Self {
        Self::new(path, expected, describe(found))
    }

    /// A required attribute is absent.
    pub fn missing(path: &AttrPath<'_>) -> Self {
        Self {
            kind: DecodeErrorKind::Missing,
            ..Self::new(path, "a value", "nothing (attribute absent)")
        }
    }

    /// A map or list at `path` and `below` it (`.a[2]`, or empty) that
    /// holds values past the levels DynamoDB stores.
    ///
    /// ```
    /// use dynakey_runtime::{AttrPath, DecodeError, DecodeErrorKind};
    /// let err = DecodeError::too_deep(&AttrPath::root("doc"), ".next");
    /// assert_eq!((err.path.as_str(), err.kind), ("doc.next", DecodeErrorKind::TooDeep));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "attribute `doc.next`: expected at most 32 levels of maps and lists (what DynamoDB stores), found a map or list at level 32 holding more"
    /// );
    /// ```
    pub fn too_deep(path: &AttrPath<'_>, below: &str) -> Self {
        Self {
            path: format!("{path}{below}"),
            expected: format!(
                "at most {} levels of maps and lists (what DynamoDB stores)",
                super::MAX_NESTING
            ),
            found: format!("a map or list at level {} holding more", super::MAX_NESTING),
            kind: DecodeErrorKind::TooDeep,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "attribute `{}`: expected {}, found {}",
            self.path, self.expected, self.found
        )
    }
}

impl std::error::Error for DecodeError {}

/// A short description of an attribute value for error messages.
pub fn describe(v: &AttributeValue) -> String {
    use crate::shown::shown;
    match v {
        AttributeValue::S(s) => format!("S {}", shown(s)),
        AttributeValue::N(n) => format!("N {}", shown(n)),
        AttributeValue::B(b) => format!("B ({} bytes)", b.as_ref().len()),
        AttributeValue::Bool(b) => format!("BOOL {b}"),
        AttributeValue::Null(_) => "NULL".to_owned(),
        AttributeValue::L(l) => format!("L ({} elements)", l.len()),
        AttributeValue::M(m) => format!("M ({} entries)", m.len()),
        AttributeValue::Ss(s) => format!("SS ({} members)", s.len()),
        AttributeValue::Ns(s) => format!("NS ({} members)", s.len()),
        AttributeValue::Bs(s) => format!("BS ({} members)", s.len()),
        _ => "an unknown attribute type".to_owned(),
    }
}

/// Binary as text for people: up to 32 bytes as hex (`0x7f00`), since a
/// binary key attribute is told apart by its bytes; longer ones by length.
pub(crate) fn binary_text(b: &[u8]) -> String {
    use std::fmt::Write as _;
    if b.len() > 32 {
        return format!("<{} bytes>", b.len());
    }
    let mut s = String::with_capacity(2 + 2 * b.len());
    s.push_str("0x");
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}
