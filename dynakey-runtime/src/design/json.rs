//! A small JSON value that keeps the order its fields were written in, and
//! its pretty printer (two spaces, as NoSQL Workbench writes its models).
//! Its own, so the output is the same byte for byte whatever features
//! `serde_json` is compiled with (`preserve_order` changes its map order).

use std::fmt::Write;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;

/// A JSON value with ordered objects.
#[derive(Debug, Clone)]
pub(crate) enum Json {
    Bool(bool),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub(crate) fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    pub(crate) fn obj<K: Into<String>>(fields: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Obj(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// The pretty text, ending without a newline.
    pub(crate) fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let pad = |out: &mut String, d: usize| {
            out.push('\n');
            for _ in 0..d {
                out.push_str("  ");
            }
        };
        match self {
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Str(s) => quote(out, s),
            Json::Arr(v) if v.is_empty() => out.push_str("[]"),
            Json::Obj(v) if v.is_empty() => out.push_str("{}"),
            Json::Arr(v) => {
                out.push('[');
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    x.write(out, depth + 1);
                }
                pad(out, depth);
                out.push(']');
            }
            Json::Obj(v) => {
                out.push('{');
                for (i, (k, x)) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    quote(out, k);
                    out.push_str(": ");
                    x.write(out, depth + 1);
                }
                pad(out, depth);
                out.push('}');
            }
        }
    }
}

/// A JSON string literal: `"` and `\` escaped, control characters as
/// `\uXXXX` (or their short forms).
fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An attribute value in DynamoDB's JSON form (`{"S": "x"}`), as NoSQL
/// Workbench keeps sample data; binary as base64.
pub(crate) fn attribute(v: &AttributeValue) -> Json {
    let b64 = |b: &aws_sdk_dynamodb::primitives::Blob| {
        Json::str(aws_smithy_types::base64::encode(b.as_ref()))
    };
    let (tag, body) = match v {
        AttributeValue::S(s) => ("S", Json::str(s.clone())),
        AttributeValue::N(n) => ("N", Json::str(n.clone())),
        AttributeValue::B(b) => ("B", b64(b)),
        AttributeValue::Bool(b) => ("BOOL", Json::Bool(*b)),
        AttributeValue::Null(_) => ("NULL", Json::Bool(true)),
        AttributeValue::Ss(v) => ("SS", Json::Arr(v.iter().cloned().map(Json::Str).collect())),
        AttributeValue::Ns(v) => ("NS", Json::Arr(v.iter().cloned().map(Json::Str).collect())),
        AttributeValue::Bs(v) => ("BS", Json::Arr(v.iter().map(b64).collect())),
        AttributeValue::L(v) => ("L", Json::Arr(v.iter().map(attribute).collect())),
        AttributeValue::M(m) => ("M", item(m)),
        _ => ("NULL", Json::Bool(true)),
    };
    Json::obj([(tag, body)])
}

/// An item in DynamoDB's JSON form, attributes by name.
pub(crate) fn item(m: &Item) -> Json {
    let mut names: Vec<&String> = m.keys().collect();
    names.sort();
    Json::obj(names.into_iter().map(|k| (k.clone(), attribute(&m[k]))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_prints_in_order_and_escapes() {
        let j = Json::obj([
            ("b", Json::Arr(vec![Json::Bool(true), Json::Arr(vec![])])),
            ("a", Json::str("q\"\\\n\u{1}é")),
            ("e", Json::Obj(vec![])),
        ]);
        assert_eq!(
            j.pretty(),
            "{\n  \"b\": [\n    true,\n    []\n  ],\n  \"a\": \"q\\\"\\\\\\n\\u0001é\",\n  \"e\": {}\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&j.pretty()).unwrap();
        assert_eq!(back["a"], "q\"\\\n\u{1}é");
    }
}
