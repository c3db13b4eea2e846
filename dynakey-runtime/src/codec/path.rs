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
}

impl DecodeError {
    /// A value of the wrong type or out of range.
    pub fn new(path: &AttrPath<'_>, expected: impl Into<String>, found: impl Into<String>) -> Self {
        Self {
            path: path.to_string(),
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// A value of the wrong DynamoDB type.
    pub fn mismatch(path: &AttrPath<'_>, expected: &str, found: &AttributeValue) -> Self {
        Self::new(path, expected, describe(found))
    }

    /// A required attribute is absent.
    pub fn missing(path: &AttrPath<'_>) -> Self {
        Self::new(path, "a value", "nothing (attribute absent)")
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
    fn clip(s: &str) -> String {
        if s.chars().count() > 40 {
            format!("{:?}…", s.chars().take(40).collect::<String>())
        } else {
            format!("{s:?}")
        }
    }
    match v {
        AttributeValue::S(s) => format!("S {}", clip(s)),
        AttributeValue::N(n) => format!("N {}", clip(n)),
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
