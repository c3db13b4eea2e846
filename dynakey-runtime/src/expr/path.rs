//! Attribute paths: a top-level name, map members and list elements, each
//! name sent through its own `#n` placeholder.

use std::fmt::Write as _;

use super::Placeholders;

/// One segment of an attribute path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Name(String),
    Index(usize),
}

/// An attribute path: a top-level name, map members and list elements.
///
/// A name is always one attribute, whatever it holds: `Path::from("a.b")`
/// is the attribute named `a.b`, not the member `b` of `a` (use
/// [`Path::field`] for that).
///
/// ```
/// use dynakey_runtime::expr::Path;
/// let p = Path::new("address").field("city");
/// assert_eq!(p.to_string(), "address.city");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct Path(Vec<Part>);

impl Path {
    /// A top-level attribute.
    pub fn new(name: impl Into<String>) -> Self {
        Path(vec![Part::Name(name.into())])
    }

    /// The member `name` of this map attribute.
    pub fn field(mut self, name: impl Into<String>) -> Self {
        self.0.push(Part::Name(name.into()));
        self
    }

    /// The element `i` of this list attribute.
    pub fn index(mut self, i: usize) -> Self {
        self.0.push(Part::Index(i));
        self
    }

    /// The top-level attribute name.
    pub(crate) fn top(&self) -> Option<&str> {
        match self.0.first() {
            Some(Part::Name(n)) => Some(n),
            _ => None,
        }
    }

    /// How many names and indexes it has: a value it sets lies that many
    /// levels down the item.
    pub(crate) fn depth(&self) -> usize {
        self.0.len()
    }

    /// Whether the path is a top-level attribute alone.
    pub(crate) fn is_top(&self) -> bool {
        self.0.len() == 1
    }

    pub(crate) fn render(&self, cx: &mut Placeholders) -> String {
        let mut s = String::new();
        for (i, p) in self.0.iter().enumerate() {
            match p {
                Part::Name(n) => {
                    if i > 0 {
                        s.push('.');
                    }
                    s.push_str(&cx.name(n));
                }
                Part::Index(ix) => {
                    let _ = write!(s, "[{ix}]");
                }
            }
        }
        s
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            match p {
                Part::Name(n) if i == 0 => f.write_str(n)?,
                Part::Name(n) => write!(f, ".{n}")?,
                Part::Index(ix) => write!(f, "[{ix}]")?,
            }
        }
        Ok(())
    }
}

impl From<&str> for Path {
    fn from(s: &str) -> Self {
        Path::new(s)
    }
}
impl From<String> for Path {
    fn from(s: String) -> Self {
        Path::new(s)
    }
}
impl From<&String> for Path {
    fn from(s: &String) -> Self {
        Path::new(s.clone())
    }
}
