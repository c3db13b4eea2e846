//! Hand-written expressions, their placeholders renamed into the
//! request's so they never collide with dynakey's own.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{IntoValue, Placeholders};
use crate::error::{Error, RefusedReason};

/// A hand-written expression whose `#name` and `:value` placeholders are
/// given separately and renamed when rendered, so they never collide with
/// the placeholders dynakey allocates. A name or value the text uses
/// without binding it is [`Error::Refused`] when rendered.
///
/// ```
/// use dynakey_runtime::expr::{Condition, RawExpr};
/// let raw = RawExpr::new("#a > :min AND size(#a) < :max").name("a", "score").value("min", 3u32).value(":max", 9u32);
/// let c = Condition::attr("kind").eq("x").and(Condition::raw(raw));
/// let (text, names, _) = c.render_standalone().unwrap();
/// assert_eq!(text, "(#n0 = :v0) AND (#n1 > :v1 AND size(#n1) < :v2)");
/// assert_eq!(names["#n1"], "score");
/// assert!(Condition::raw(RawExpr::new("#x = :y")).render_standalone().is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use]
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

    pub(crate) fn render(&self, cx: &mut Placeholders) -> Result<String, Error> {
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
                return Err(Error::refused(
                    RefusedReason::InvalidExpression,
                    format!("a lone {c:?} in expression {:?}", self.text),
                ));
            }
            if c == '#' {
                let Some((_, n)) = self.names.iter().find(|(p, _)| p == token) else {
                    return Err(Error::refused(
                        RefusedReason::InvalidExpression,
                        format!("#{token} has no name in expression {:?}", self.text),
                    ));
                };
                out.push_str(&cx.name(n));
            } else {
                let Some((_, v)) = self.values.iter().find(|(p, _)| p == token) else {
                    return Err(Error::refused(
                        RefusedReason::InvalidExpression,
                        format!(":{token} has no value in expression {:?}", self.text),
                    ));
                };
                out.push_str(&cx.value(v.clone()));
            }
        }
        Ok(out)
    }
}
