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

mod condition;
mod path;
mod raw;
mod update;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Attr;

pub use condition::{AttrRef, Condition};
pub use path::Path;
pub use raw::RawExpr;
pub use update::Update;

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

/// A comparison operator: what [`AttrRef::cmp_attr`] and
/// [`AttrRef::size_cmp`] take, so no caller text reaches the expression.
///
/// ```
/// use dynakey_runtime::expr::{CmpOp, Condition};
/// let c = Condition::attr("tags").size_cmp(CmpOp::Gt, 3);
/// assert_eq!(c.render_standalone().unwrap().0, "size(#n0) > :v0");
/// assert_eq!(CmpOp::Ne.as_str(), "<>");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator as DynamoDB writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

impl std::fmt::Display for CmpOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One side of a comparison.
///
/// ```
/// use dynakey_runtime::expr::{CmpOp, Condition, Operand, Path};
/// let c = Condition::Compare(Operand::Size(Path::new("tags")), CmpOp::Ge, Operand::Value(1u8.into_value()));
/// # use dynakey_runtime::expr::IntoValue;
/// assert_eq!(c.render_standalone().unwrap().0, "size(#n0) >= :v0");
/// ```
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

pub(crate) fn val<T: IntoValue>(v: T) -> Operand {
    Operand::Value(v.into_value())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, RefusedReason};

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
        assert!(
            matches!(
                err,
                Error::Refused {
                    reason: RefusedReason::InvalidExpression,
                    ..
                }
            ),
            "{err}"
        );
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
