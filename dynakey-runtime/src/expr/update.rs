//! Update expressions: `SET`, `REMOVE`, `ADD` and `DELETE` actions, or one
//! hand-written expression.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{IntoValue, Path, Placeholders, RawExpr};
use crate::error::{Error, RefusedReason};

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
#[must_use]
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

    /// The top-level attributes this update sets (`SET`, `ADD`, `DELETE`)
    /// and removes, for the cost estimate; `None` for a raw expression,
    /// whose targets are not known.
    pub(crate) fn targets(&self) -> Option<(Vec<&str>, Vec<&str>)> {
        if self.raw.is_some() {
            return None;
        }
        let set = self
            .set
            .iter()
            .map(|(p, _)| p)
            .chain(self.add.iter().map(|(p, _)| p))
            .chain(self.delete.iter().map(|(p, _)| p))
            .filter_map(|p| p.top())
            .collect();
        let removed = self.remove.iter().filter_map(|p| p.top()).collect();
        Some((set, removed))
    }

    /// Every value the update sends, with the path it goes to (what the
    /// checks before sending read: numbers, nesting, key sizes).
    pub(crate) fn values(&self) -> impl Iterator<Item = (&Path, &AttributeValue)> {
        let set = self.set.iter().filter_map(|(p, to)| match to {
            SetTo::Value(v) | SetTo::IfNotExists(v) | SetTo::Increment(v) | SetTo::Append(v) => {
                Some((p, v))
            }
            SetTo::Copy(_) => None,
        });
        let add = self.add.iter().chain(&self.delete).map(|(p, v)| (p, v));
        set.chain(add)
    }

    /// Whether an action writes (into) the top-level attribute `name`.
    pub(crate) fn touches(&self, name: &str) -> bool {
        let top = |p: &Path| p.top() == Some(name);
        self.set.iter().any(|(p, _)| top(p))
            || self.remove.iter().any(top)
            || self.add.iter().any(|(p, _)| top(p))
            || self.delete.iter().any(|(p, _)| top(p))
    }

    /// What a `SET` or `REMOVE` of the top-level attribute `name` leaves in
    /// it, given what it held (`old`): `Some(None)` when removed, `None`
    /// when another action writes it (an increment, an append, ...).
    pub(crate) fn assigned(
        &self,
        name: &str,
        old: Option<&AttributeValue>,
    ) -> Option<Option<AttributeValue>> {
        let whole = |p: &Path| p.top() == Some(name) && p.is_top();
        if self.remove.iter().any(whole) {
            return Some(None);
        }
        let mut sets = self.set.iter().filter(|(p, _)| whole(p));
        let out = match sets.next() {
            Some((_, SetTo::Value(v))) => Some(Some(v.clone())),
            Some((_, SetTo::IfNotExists(v))) => {
                Some(Some(old.cloned().unwrap_or_else(|| v.clone())))
            }
            _ => None,
        };
        let others = self
            .add
            .iter()
            .chain(&self.delete)
            .any(|(p, _)| p.top() == Some(name));
        out.filter(|_| sets.next().is_none() && !others)
    }

    /// A value a `SET` (or `SET .. if_not_exists`) assigns to the whole
    /// top-level attribute `name`, if any.
    pub(crate) fn assigned_value(&self, name: &str) -> Option<&AttributeValue> {
        self.set.iter().find_map(|(p, to)| match to {
            SetTo::Value(v) | SetTo::IfNotExists(v) if p.top() == Some(name) && p.is_top() => {
                Some(v)
            }
            _ => None,
        })
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
                return Err(Error::refused(
                    RefusedReason::InvalidExpression,
                    "a raw update expression cannot be mixed with other actions",
                ));
            }
            return raw.render(cx);
        }
        if self.is_empty() {
            return Err(Error::refused(
                RefusedReason::InvalidExpression,
                "an update needs at least one action",
            ));
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
