//! The text form of an [`Explain`].

use std::collections::BTreeMap;
use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;

use super::sdk::value_text;
use super::Explain;

/// `expr` with each `#name` and `:value` placeholder replaced.
pub(super) fn resolve(
    expr: &str,
    names: &BTreeMap<String, String>,
    values: &BTreeMap<String, AttributeValue>,
) -> String {
    let mut out = String::with_capacity(expr.len());
    let mut rest = expr;
    while let Some(i) = rest.find(['#', ':']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let end = tail[1..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(tail.len(), |e| e + 1);
        let token = &tail[..end];
        match (names.get(token), values.get(token)) {
            (Some(n), _) => out.push_str(n),
            (_, Some(v)) => out.push_str(&value_text(v)),
            _ => out.push_str(token),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

fn item(
    f: &mut fmt::Formatter<'_>,
    pad: &str,
    label: &str,
    m: &BTreeMap<String, AttributeValue>,
) -> fmt::Result {
    if m.is_empty() {
        return Ok(());
    }
    let parts: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{k} = {}", value_text(v)))
        .collect();
    writeln!(f, "{pad}{label}: {}", parts.join(", "))
}

impl Explain {
    fn write(&self, f: &mut fmt::Formatter<'_>, pad: &str) -> fmt::Result {
        write!(f, "{pad}{}", self.operation)?;
        if !self.table.is_empty() {
            write!(f, " {}", self.table)?;
        }
        if let Some(ix) = &self.index {
            write!(f, " index {ix}")?;
        }
        writeln!(f)?;
        let inner = format!("{pad}  ");
        item(f, &inner, "key", &self.key)?;
        item(f, &inner, "item", &self.item)?;
        let exprs = [
            ("key condition", &self.key_condition),
            ("update", &self.update),
            ("condition", &self.condition),
            ("filter", &self.filter),
            ("projection", &self.projection),
        ];
        for (label, e) in exprs {
            if let Some(e) = e {
                let plain = resolve(e, &self.names, &self.values);
                writeln!(f, "{inner}{label}: {e}    ({plain})")?;
            }
        }
        for (k, v) in &self.names {
            writeln!(f, "{inner}{k} = {v}")?;
        }
        for (k, v) in &self.values {
            writeln!(f, "{inner}{k} = {}", value_text(v))?;
        }
        for (k, v) in &self.options {
            writeln!(f, "{inner}{k} = {v}")?;
        }
        for a in &self.actions {
            a.write(f, &inner)?;
        }
        if let Some(c) = &self.cost {
            writeln!(f, "{inner}cost: {c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Explain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, "")
    }
}
