//! Conditions (`ConditionExpression`, `FilterExpression`): comparisons,
//! functions and their combinations, rendered through placeholders.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{val, CmpOp, IntoValue, Operand, Path, Placeholders, RawExpr};
use crate::error::{Error, RefusedReason};

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
#[must_use]
pub enum Condition {
    /// `a <op> b`.
    Compare(Operand, CmpOp, Operand),
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

/// An attribute to compare, from [`Condition::attr`].
#[derive(Debug, Clone)]
pub struct AttrRef(Path);

macro_rules! cmp {
    ($($(#[$m:meta])* $f:ident => $op:expr),*) => {$(
        $(#[$m])*
        pub fn $f<T: IntoValue>(self, v: T) -> Condition {
            Condition::Compare(Operand::Path(self.0), $op, val(v))
        }
    )*};
}

impl AttrRef {
    cmp! {
        /// `= v`
        eq => CmpOp::Eq,
        /// `<> v`
        ne => CmpOp::Ne,
        /// `< v`
        lt => CmpOp::Lt,
        /// `<= v`
        le => CmpOp::Le,
        /// `> v`
        gt => CmpOp::Gt,
        /// `>= v`
        ge => CmpOp::Ge
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

    /// `size(path) <op> n`, e.g. `size_cmp(CmpOp::Gt, 3)`.
    pub fn size_cmp(self, op: CmpOp, n: u64) -> Condition {
        Condition::Compare(Operand::Size(self.0), op, val(n))
    }

    /// `attribute_type(path, t)` with `t` one of `S N B BOOL NULL L M SS NS BS`.
    pub fn has_type(self, t: &str) -> Condition {
        Condition::AttrType(self.0, t.to_owned())
    }

    /// Compares with another attribute: `self <op> other`.
    pub fn cmp_attr(self, op: CmpOp, other: impl Into<Path>) -> Condition {
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
                format!("{a} {} {}", op.as_str(), b.render(cx))
            }
            Condition::Between(a, lo, hi) => {
                let a = a.render(cx);
                let lo = lo.render(cx);
                format!("{a} BETWEEN {lo} AND {}", hi.render(cx))
            }
            Condition::In(a, vs) => {
                if vs.is_empty() || vs.len() > 100 {
                    return Err(Error::refused(
                        RefusedReason::InvalidExpression,
                        format!("IN takes 1 to 100 values, not {}", vs.len()),
                    ));
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
