//! Condition and update expressions. Every attribute name is sent through a
//! `#n` placeholder and every value through a `:v` placeholder: nothing a
//! caller passes is ever written into the expression text, so reserved words
//! (`status`, `name`), names holding `.` or `#`, and values that look like
//! expressions are all safe.
//!
//! ```
//! use dynakey_runtime::expr::{Condition, Path, Update};
//! let c = Condition::attr("status").eq("open").and(Condition::attr("a.b").not_exists());
//! let (text, names, values) = c.render_standalone().unwrap();
//! assert_eq!(text, "(#n0 = :v0) AND (attribute_not_exists(#n1))");
//! assert_eq!(names["#n1"], "a.b");
//! assert_eq!(values.len(), 1);
//! let u = Update::new().set("count", 3u32).remove(Path::new("tags").index(0));
//! assert!(!u.is_empty());
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Attr;
use crate::error::Error;

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

    fn render(&self, cx: &mut Placeholders) -> String {
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

/// Names and values collected while rendering expressions, shared by every
/// expression of one request so their placeholders never collide.
///
/// ```
/// use dynakey_runtime::expr::Placeholders;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let mut p = Placeholders::default();
/// assert_eq!(p.name("status"), "#n0");
/// assert_eq!(p.name("status"), "#n0"); // reused
/// assert_eq!(p.value(AttributeValue::S(":x OR 1=1".into())), ":v0");
/// ```
#[derive(Debug, Default, Clone)]
pub struct Placeholders {
    names: HashMap<String, String>,
    by_name: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
    seq: usize,
}

impl Placeholders {
    /// The placeholder of attribute name `n`.
    pub fn name(&mut self, n: &str) -> String {
        if let Some(p) = self.by_name.get(n) {
            return p.clone();
        }
        let p = format!("#n{}", self.by_name.len());
        self.by_name.insert(n.to_owned(), p.clone());
        self.names.insert(p.clone(), n.to_owned());
        p
    }

    /// A new placeholder for value `v`.
    pub fn value(&mut self, v: AttributeValue) -> String {
        let p = format!(":v{}", self.seq);
        self.seq += 1;
        self.values.insert(p.clone(), v);
        p
    }

    /// `ExpressionAttributeNames`, or `None` when empty (DynamoDB refuses an
    /// empty map).
    pub fn names(&self) -> Option<HashMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// `ExpressionAttributeValues`, or `None` when empty.
    pub fn values(&self) -> Option<HashMap<String, AttributeValue>> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }
}

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// An attribute.
    Path(Path),
    /// A value.
    Value(AttributeValue),
    /// `size(path)`.
    Size(Path),
}

impl Operand {
    fn render(&self, cx: &mut Placeholders) -> String {
        match self {
            Operand::Path(p) => p.render(cx),
            Operand::Value(v) => cx.value(v.clone()),
            Operand::Size(p) => format!("size({})", p.render(cx)),
        }
    }
}

/// A value in an expression: anything with an attribute form, and `&str`.
///
/// ```
/// use dynakey_runtime::expr::IntoValue;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// assert_eq!("x".into_value(), AttributeValue::S("x".into()));
/// assert_eq!(None::<u8>.into_value(), AttributeValue::Null(true));
/// ```
pub trait IntoValue {
    /// The attribute value (`NULL` for an absent `Option`).
    fn into_value(self) -> AttributeValue;
}

impl<T: Attr> IntoValue for T {
    fn into_value(self) -> AttributeValue {
        self.to_attr().unwrap_or(AttributeValue::Null(true))
    }
}

impl IntoValue for &str {
    fn into_value(self) -> AttributeValue {
        AttributeValue::S(self.to_owned())
    }
}

fn val<T: IntoValue>(v: T) -> Operand {
    Operand::Value(v.into_value())
}

/// A condition on an item (ConditionExpression, FilterExpression).
///
/// ```
/// use dynakey_runtime::expr::Condition;
/// let c = Condition::attr("version").eq(3u32).or(Condition::attr("version").not_exists());
/// let (text, _, _) = c.render_standalone().unwrap();
/// assert_eq!(text, "(#n0 = :v0) OR (attribute_not_exists(#n0))");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Condition {
    /// `a <op> b`.
    Compare(Operand, &'static str, Operand),
    /// `a BETWEEN lo AND hi`.
    Between(Operand, Operand, Operand),
    /// `a IN (b, c, …)`.
    In(Operand, Vec<Operand>),
    /// `attribute_exists(path)`.
    Exists(Path),
    /// `attribute_not_exists(path)`.
    NotExists(Path),
    /// `begins_with(path, v)`.
    BeginsWith(Path, Operand),
    /// `contains(path, v)`.
    Contains(Path, Operand),
    /// `attribute_type(path, t)`.
    AttrType(Path, String),
    /// Both.
    And(Box<Condition>, Box<Condition>),
    /// Either.
    Or(Box<Condition>, Box<Condition>),
    /// Not.
    Not(Box<Condition>),
    /// A hand-written expression; see [`Condition::raw`].
    Raw(RawExpr),
}

/// A hand-written expression whose `#name` and `:value` placeholders are
/// given separately and renamed when rendered, so they never collide with
/// the placeholders dynakey allocates.
#[derive(Debug, Clone, PartialEq)]
pub struct RawExpr {
    text: String,
    names: Vec<(String, String)>,
    values: Vec<(String, AttributeValue)>,
}

impl RawExpr {
    /// A raw expression; add its names and values with [`RawExpr::name`] and
    /// [`RawExpr::value`].
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            names: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Binds `#placeholder` (with or without the `#`) to an attribute name.
    pub fn name(mut self, placeholder: &str, attribute: impl Into<String>) -> Self {
        self.names.push((
            placeholder.trim_start_matches('#').to_owned(),
            attribute.into(),
        ));
        self
    }

    /// Binds `:placeholder` (with or without the `:`) to a value.
    pub fn value<T: IntoValue>(mut self, placeholder: &str, v: T) -> Self {
        self.values.push((
            placeholder.trim_start_matches(':').to_owned(),
            v.into_value(),
        ));
        self
    }

    fn render(&self, cx: &mut Placeholders) -> Result<String, Error> {
        let mut out = String::with_capacity(self.text.len());
        let mut chars = self.text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != '#' && c != ':' {
                out.push(c);
                continue;
            }
            let start = i + 1;
            let mut end = start;
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let token = &self.text[start..end];
            if token.is_empty() {
                return Err(Error::Validation {
                    message: format!("a lone {c:?} in expression {:?}", self.text),
                });
            }
            if c == '#' {
                let Some((_, n)) = self.names.iter().find(|(p, _)| p == token) else {
                    return Err(Error::Validation {
                        message: format!("#{token} has no name in expression {:?}", self.text),
                    });
                };
                out.push_str(&cx.name(n));
            } else {
                let Some((_, v)) = self.values.iter().find(|(p, _)| p == token) else {
                    return Err(Error::Validation {
                        message: format!(":{token} has no value in expression {:?}", self.text),
                    });
                };
                out.push_str(&cx.value(v.clone()));
            }
        }
        Ok(out)
    }
}

/// An attribute to compare, from [`Condition::attr`].
#[derive(Debug, Clone)]
pub struct AttrRef(Path);

macro_rules! cmp {
    ($($(#[$m:meta])* $f:ident => $op:literal),*) => {$(
        $(#[$m])*
        pub fn $f<T: IntoValue>(self, v: T) -> Condition {
            Condition::Compare(Operand::Path(self.0), $op, val(v))
        }
    )*};
}

impl AttrRef {
    cmp! {
        /// `= v`
        eq => "=",
        /// `<> v`
        ne => "<>",
        /// `< v`
        lt => "<",
        /// `<= v`
        le => "<=",
        /// `> v`
        gt => ">",
        /// `>= v`
        ge => ">="
    }

    /// `BETWEEN lo AND hi`.
    pub fn between<T: IntoValue>(self, lo: T, hi: T) -> Condition {
        Condition::Between(Operand::Path(self.0), val(lo), val(hi))
    }

    /// `IN (v, …)`.
    pub fn is_in<T: IntoValue>(self, vs: impl IntoIterator<Item = T>) -> Condition {
        Condition::In(Operand::Path(self.0), vs.into_iter().map(val).collect())
    }

    /// `attribute_exists`.
    pub fn exists(self) -> Condition {
        Condition::Exists(self.0)
    }

    /// `attribute_not_exists`.
    pub fn not_exists(self) -> Condition {
        Condition::NotExists(self.0)
    }

    /// `begins_with`.
    pub fn begins_with<T: IntoValue>(self, v: T) -> Condition {
        Condition::BeginsWith(self.0, val(v))
    }

    /// `contains` (a substring, or a member of a set or list).
    pub fn contains<T: IntoValue>(self, v: T) -> Condition {
        Condition::Contains(self.0, val(v))
    }

    /// `size(path) <op> n`, e.g. `size_cmp(">", 3)`.
    pub fn size_cmp(self, op: &'static str, n: u64) -> Condition {
        Condition::Compare(Operand::Size(self.0), op, val(n))
    }

    /// `attribute_type(path, t)` with `t` one of `S N B BOOL NULL L M SS NS BS`.
    pub fn has_type(self, t: &str) -> Condition {
        Condition::AttrType(self.0, t.to_owned())
    }

    /// Compares with another attribute: `self <op> other`.
    pub fn cmp_attr(self, op: &'static str, other: impl Into<Path>) -> Condition {
        Condition::Compare(Operand::Path(self.0), op, Operand::Path(other.into()))
    }
}

impl Condition {
    /// The attribute `path` (a top-level name unless built with [`Path`]).
    pub fn attr(path: impl Into<Path>) -> AttrRef {
        AttrRef(path.into())
    }

    /// A hand-written condition: `Condition::raw(RawExpr::new("#a > :b").name("a", "x").value("b", 1))`.
    pub fn raw(expr: RawExpr) -> Self {
        Condition::Raw(expr)
    }

    /// Both conditions.
    pub fn and(self, other: Condition) -> Self {
        Condition::And(Box::new(self), Box::new(other))
    }

    /// `existing AND next`, or `next` alone when there is nothing yet: how
    /// builders add a condition to the one they hold.
    ///
    /// ```
    /// use dynakey_runtime::expr::Condition;
    /// let one = Condition::join(None, Condition::attr("a").exists());
    /// let two = Condition::join(Some(one.clone()), Condition::attr("b").exists());
    /// assert_eq!(two, one.and(Condition::attr("b").exists()));
    /// ```
    pub fn join(existing: Option<Condition>, next: Condition) -> Self {
        match existing {
            Some(c) => c.and(next),
            None => next,
        }
    }

    /// Either condition.
    pub fn or(self, other: Condition) -> Self {
        Condition::Or(Box::new(self), Box::new(other))
    }

    /// The negation.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Self {
        Condition::Not(Box::new(self))
    }

    /// Renders into `cx`, returning the expression text.
    pub fn render(&self, cx: &mut Placeholders) -> Result<String, Error> {
        Ok(match self {
            Condition::Compare(a, op, b) => {
                let a = a.render(cx);
                format!("{a} {op} {}", b.render(cx))
            }
            Condition::Between(a, lo, hi) => {
                let a = a.render(cx);
                let lo = lo.render(cx);
                format!("{a} BETWEEN {lo} AND {}", hi.render(cx))
            }
            Condition::In(a, vs) => {
                if vs.is_empty() || vs.len() > 100 {
                    return Err(Error::Validation {
                        message: format!("IN takes 1 to 100 values, not {}", vs.len()),
                    });
                }
                let a = a.render(cx);
                let vs: Vec<String> = vs.iter().map(|v| v.render(cx)).collect();
                format!("{a} IN ({})", vs.join(", "))
            }
            Condition::Exists(p) => format!("attribute_exists({})", p.render(cx)),
            Condition::NotExists(p) => format!("attribute_not_exists({})", p.render(cx)),
            Condition::BeginsWith(p, v) => {
                let p = p.render(cx);
                format!("begins_with({p}, {})", v.render(cx))
            }
            Condition::Contains(p, v) => {
                let p = p.render(cx);
                format!("contains({p}, {})", v.render(cx))
            }
            Condition::AttrType(p, t) => {
                let p = p.render(cx);
                format!(
                    "attribute_type({p}, {})",
                    cx.value(AttributeValue::S(t.clone()))
                )
            }
            Condition::And(a, b) => format!("({}) AND ({})", a.render(cx)?, b.render(cx)?),
            Condition::Or(a, b) => format!("({}) OR ({})", a.render(cx)?, b.render(cx)?),
            Condition::Not(a) => format!("NOT ({})", a.render(cx)?),
            Condition::Raw(r) => r.render(cx)?,
        })
    }

    /// Renders alone: the text, the names and the values.
    #[allow(clippy::type_complexity)]
    pub fn render_standalone(
        &self,
    ) -> Result<
        (
            String,
            HashMap<String, String>,
            HashMap<String, AttributeValue>,
        ),
        Error,
    > {
        let mut cx = Placeholders::default();
        let text = self.render(&mut cx)?;
        Ok((text, cx.names, cx.values))
    }
}

/// What a `SET` action assigns.
#[derive(Debug, Clone, PartialEq)]
enum SetTo {
    Value(AttributeValue),
    Copy(Path),
    IfNotExists(AttributeValue),
    Increment(AttributeValue),
    Append(AttributeValue),
}

/// An update expression: `SET`, `REMOVE`, `ADD`, `DELETE` actions, or one
/// hand-written expression.
///
/// ```
/// use dynakey_runtime::expr::{RawExpr, Update};
/// let u = Update::new().set("status", "done").increment("attempts", 1).remove("lease");
/// let mut cx = dynakey_runtime::expr::Placeholders::default();
/// assert_eq!(
///     u.render(&mut cx).unwrap(),
///     "SET #n0 = :v0, #n1 = if_not_exists(#n1, :v1) + :v2 REMOVE #n2"
/// );
/// let raw = Update::raw(RawExpr::new("SET #c = #c + :one").name("c", "count").value("one", 1));
/// assert!(raw.render(&mut cx).unwrap().starts_with("SET #n3"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update {
    set: Vec<(Path, SetTo)>,
    remove: Vec<Path>,
    add: Vec<(Path, AttributeValue)>,
    delete: Vec<(Path, AttributeValue)>,
    raw: Option<RawExpr>,
}

impl Update {
    /// An empty update.
    pub fn new() -> Self {
        Self::default()
    }

    /// A hand-written update expression (used alone).
    pub fn raw(expr: RawExpr) -> Self {
        Self {
            raw: Some(expr),
            ..Self::default()
        }
    }

    /// `SET path = v` (an absent `Option` removes the attribute instead; use
    /// [`Update::set_value`] to store a `NULL`).
    pub fn set<T: IntoValue>(mut self, path: impl Into<Path>, v: T) -> Self {
        match v.into_value() {
            AttributeValue::Null(true) => self.remove.push(path.into()),
            a => self.set.push((path.into(), SetTo::Value(a))),
        }
        self
    }

    /// `SET path = v` with a raw attribute value.
    pub fn set_value(mut self, path: impl Into<Path>, v: AttributeValue) -> Self {
        self.set.push((path.into(), SetTo::Value(v)));
        self
    }

    /// `SET path = from`: copies another attribute (an index key that is a
    /// bare field is rebuilt this way without reading the item).
    pub fn set_copy(mut self, path: impl Into<Path>, from: impl Into<Path>) -> Self {
        self.set.push((path.into(), SetTo::Copy(from.into())));
        self
    }

    /// `SET path = if_not_exists(path, v)`.
    pub fn set_if_not_exists<T: IntoValue>(mut self, path: impl Into<Path>, v: T) -> Self {
        let a = v.into_value();
        self.set.push((path.into(), SetTo::IfNotExists(a)));
        self
    }

    /// `SET path = if_not_exists(path, 0) + n`.
    pub fn increment(mut self, path: impl Into<Path>, n: i64) -> Self {
        self.set.push((
            path.into(),
            SetTo::Increment(AttributeValue::N(n.to_string())),
        ));
        self
    }

    /// `SET path = list_append(if_not_exists(path, []), v)`; `v` must be a list.
    pub fn append<T: IntoValue>(mut self, path: impl Into<Path>, v: T) -> Self {
        let a = v.into_value();
        self.set.push((path.into(), SetTo::Append(a)));
        self
    }

    /// `REMOVE path`.
    pub fn remove(mut self, path: impl Into<Path>) -> Self {
        self.remove.push(path.into());
        self
    }

    /// `ADD path v` (numbers and sets).
    pub fn add<T: IntoValue>(mut self, path: impl Into<Path>, v: T) -> Self {
        let a = v.into_value();
        self.add.push((path.into(), a));
        self
    }

    /// `DELETE path v` (members of a set).
    pub fn delete<T: IntoValue>(mut self, path: impl Into<Path>, v: T) -> Self {
        let a = v.into_value();
        self.delete.push((path.into(), a));
        self
    }

    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.raw.is_none()
            && self.set.is_empty()
            && self.remove.is_empty()
            && self.add.is_empty()
            && self.delete.is_empty()
    }

    /// Renders into `cx`, returning the expression text.
    pub fn render(&self, cx: &mut Placeholders) -> Result<String, Error> {
        if let Some(raw) = &self.raw {
            if self.set.len() + self.remove.len() + self.add.len() + self.delete.len() > 0 {
                return Err(Error::Validation {
                    message: "a raw update expression cannot be mixed with other actions".into(),
                });
            }
            return raw.render(cx);
        }
        if self.is_empty() {
            return Err(Error::Validation {
                message: "an update needs at least one action".into(),
            });
        }
        let mut clauses = Vec::new();
        if !self.set.is_empty() {
            let parts: Vec<String> = self
                .set
                .iter()
                .map(|(p, to)| {
                    let p = p.render(cx);
                    match to {
                        SetTo::Value(v) => format!("{p} = {}", cx.value(v.clone())),
                        SetTo::Copy(from) => format!("{p} = {}", from.render(cx)),
                        SetTo::IfNotExists(v) => {
                            format!("{p} = if_not_exists({p}, {})", cx.value(v.clone()))
                        }
                        SetTo::Increment(n) => {
                            let zero = cx.value(AttributeValue::N("0".into()));
                            format!("{p} = if_not_exists({p}, {zero}) + {}", cx.value(n.clone()))
                        }
                        SetTo::Append(v) => {
                            let empty = cx.value(AttributeValue::L(Vec::new()));
                            format!(
                                "{p} = list_append(if_not_exists({p}, {empty}), {})",
                                cx.value(v.clone())
                            )
                        }
                    }
                })
                .collect();
            clauses.push(format!("SET {}", parts.join(", ")));
        }
        if !self.remove.is_empty() {
            let parts: Vec<String> = self.remove.iter().map(|p| p.render(cx)).collect();
            clauses.push(format!("REMOVE {}", parts.join(", ")));
        }
        for (kw, list) in [("ADD", &self.add), ("DELETE", &self.delete)] {
            if !list.is_empty() {
                let parts: Vec<String> = list
                    .iter()
                    .map(|(p, v)| {
                        let p = p.render(cx);
                        format!("{p} {}", cx.value(v.clone()))
                    })
                    .collect();
                clauses.push(format!("{kw} {}", parts.join(", ")));
            }
        }
        Ok(clauses.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_placeholders_are_renamed() {
        let mut cx = Placeholders::default();
        let first = Condition::attr("x").eq(1u8).render(&mut cx).unwrap();
        assert_eq!(first, "#n0 = :v0");
        let raw = RawExpr::new("#a = :a AND size(#b) > :n")
            .name("a", "status")
            .name("#b", "x")
            .value(":a", "open")
            .value("n", 2u8);
        let text = Condition::raw(raw).render(&mut cx).unwrap();
        assert_eq!(text, "#n1 = :v1 AND size(#n0) > :v2");
        assert_eq!(cx.names().unwrap()["#n1"], "status");
    }

    #[test]
    fn raw_missing_placeholder_is_refused() {
        let mut cx = Placeholders::default();
        let err = RawExpr::new("#a = :b")
            .name("a", "x")
            .render(&mut cx)
            .unwrap_err();
        assert!(matches!(err, Error::Validation { .. }), "{err}");
    }

    #[test]
    fn values_never_enter_the_text() {
        let c = Condition::attr("#weird.name").eq(":v0 OR attribute_exists(pk)");
        let (text, names, values) = c.render_standalone().unwrap();
        assert_eq!(text, "#n0 = :v0");
        assert_eq!(names["#n0"], "#weird.name");
        assert_eq!(
            values[":v0"],
            AttributeValue::S(":v0 OR attribute_exists(pk)".into())
        );
    }

    #[test]
    fn empty_update_is_refused() {
        let mut cx = Placeholders::default();
        assert!(Update::new().render(&mut cx).is_err());
    }
}
