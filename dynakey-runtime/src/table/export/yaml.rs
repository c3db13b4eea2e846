//! JSON values as block YAML. No YAML crate is a dependency a DynamoDB
//! user already has, and a template needs little of YAML: maps, lists,
//! and scalars. Every string is written double-quoted with JSON's escapes
//! (a JSON string is a valid YAML double-quoted scalar), so no value is
//! ever read back as a number, boolean, null, date or tag (`"1e3"`,
//! `"no"`, `"2026-01-01"`, `"!Ref"` stay strings); keys are plain only
//! when they are letters, digits and `_`/`:` after a letter.

use serde_json::Value;

pub(super) fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => list(&mut out, a, 0),
        other => {
            scalar(&mut out, other);
            out.push('\n');
        }
    }
    out
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serializes")
}

fn key(k: &str) -> String {
    let plain = k.starts_with(|c: char| c.is_ascii_alphabetic())
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        && !k.ends_with(':')
        && !is_reserved(k);
    if plain {
        k.to_owned()
    } else {
        quoted(k)
    }
}

/// Plain words YAML 1.1 or 1.2 parsers read as booleans or null.
fn is_reserved(k: &str) -> bool {
    matches!(
        k.to_ascii_lowercase().as_str(),
        "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null"
    )
}

fn scalar(out: &mut String, v: &Value) {
    match v {
        Value::String(s) => out.push_str(&quoted(s)),
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
        // Numbers, booleans and null are written as JSON writes them,
        // which YAML reads the same.
        other => out.push_str(&other.to_string()),
    }
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn map(out: &mut String, m: &serde_json::Map<String, Value>, at: usize) {
    for (i, (k, v)) in m.iter().enumerate() {
        // The first entry of a map inside a list item follows its `- `.
        if i > 0 || !out.ends_with("- ") {
            indent(out, at);
        }
        out.push_str(&key(k));
        out.push(':');
        value(out, v, at);
    }
}

fn list(out: &mut String, a: &[Value], at: usize) {
    for v in a {
        indent(out, at);
        out.push_str("- ");
        match v {
            Value::Object(m) if !m.is_empty() => map(out, m, at + 2),
            Value::Array(inner) if !inner.is_empty() => {
                out.pop();
                out.push('\n');
                list(out, inner, at + 2);
            }
            other => {
                scalar(out, other);
                out.push('\n');
            }
        }
    }
}

/// What follows `key:`: a scalar on the line, or a block below it.
fn value(out: &mut String, v: &Value, at: usize) {
    if !is_block(v) {
        out.push(' ');
        scalar(out, v);
        out.push('\n');
        return;
    }
    out.push('\n');
    match v {
        Value::Object(m) => map(out, m, at + 2),
        Value::Array(a) => list(out, a, at + 2),
        _ => unreachable!("is_block holds only for maps and lists"),
    }
}

#[cfg(test)]
mod tests {
    use super::to_yaml;
    use serde_json::json;

    #[test]
    fn block_yaml_of_nested_maps_and_lists() {
        let v = json!({"A": {"B": [1, {"C": "x", "D": []}, [true, null]], "E": {}}, "no": "yes"});
        assert_eq!(
            to_yaml(&v),
            "A:\n  B:\n    - 1\n    - C: \"x\"\n      D: []\n    -\n      - true\n      - null\n  E: {}\n\"no\": \"yes\"\n"
        );
    }

    #[test]
    fn strings_are_always_quoted_with_escapes() {
        let v = json!({"k": "line\n\"q\" \\ #: - ! & * 1e3 \u{7} é"});
        assert_eq!(
            to_yaml(&v),
            "k: \"line\\n\\\"q\\\" \\\\ #: - ! & * 1e3 \\u0007 é\"\n"
        );
    }
}
