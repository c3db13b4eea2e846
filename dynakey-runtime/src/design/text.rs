//! Escaping for the views: HTML text, Markdown code spans and text inside
//! table cells, and a short readable form of an attribute value. Keys and
//! values come from users and from live data, so nothing is trusted: every
//! character that means something to the format is escaped, and control
//! characters are shown, not written.

use std::fmt::Write;

use aws_sdk_dynamodb::types::AttributeValue;

/// Text safe inside HTML elements and quoted attributes.
pub(crate) fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Control characters written as `\u{..}` (and `\` as `\\` before them),
/// so a value shows on one line whatever it holds.
pub(crate) fn visible(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A Markdown code span that stays one table cell: the fence is longer
/// than any run of backticks inside, `|` is escaped (GitHub tables split
/// on it even inside code), control characters are shown. The empty
/// string is `(empty)`.
pub(crate) fn md_code(s: &str) -> String {
    if s.is_empty() {
        return "*(empty)*".to_owned();
    }
    let s = visible(s).replace('|', "\\|");
    let mut run = 0;
    let mut longest = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') || (s.starts_with(' ') && s.ends_with(' '))
    {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// Plain text for a Markdown table cell or paragraph: every character
/// that could start inline syntax (emphasis, code, links, HTML, entities,
/// a cell break) is backslash-escaped.
pub(crate) fn md_text(s: &str) -> String {
    let s = visible(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_[]<>|~&".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    // A block marker at the start of a line.
    if out.starts_with(['#', '-', '+', '=']) {
        out.insert(0, '\\');
    }
    out
}

/// A short readable form of an attribute value: strings as they are,
/// numbers as written, the rest in a compact DynamoDB-like form.
pub(crate) fn value(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".to_owned(),
        AttributeValue::B(b) => crate::codec::binary_text(b.as_ref()),
        AttributeValue::Ss(v) => format!("{{{}}}", quoted(v.iter()).join(", ")),
        AttributeValue::Ns(v) => format!("{{{}}}", v.join(", ")),
        AttributeValue::Bs(v) => format!("{{{} binary}}", v.len()),
        AttributeValue::L(v) => {
            format!("[{}]", v.iter().map(nested).collect::<Vec<_>>().join(", "))
        }
        AttributeValue::M(m) => {
            let mut keys: Vec<_> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k}: {}", nested(&m[k])))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        _ => "?".to_owned(),
    }
}

fn nested(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => format!("{s:?}"),
        other => value(other),
    }
}

fn quoted<'a>(v: impl Iterator<Item = &'a String>) -> Vec<String> {
    v.map(|s| format!("{s:?}")).collect()
}

/// The DynamoDB type letter of a value (`S`, `N`, `BOOL`, `M`, ...).
pub(crate) fn type_of(v: &AttributeValue) -> &'static str {
    match v {
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::B(_) => "B",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::L(_) => "L",
        AttributeValue::M(_) => "M",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Bs(_) => "BS",
        _ => "S",
    }
}

/// The DynamoDB type letter a field of Rust type `ty` (as written, without
/// spaces: `Option<Vec<String>>`) is stored as, for a design without an
/// example value: numbers `N`, `bool` `BOOL`, text, uuids and times `S`,
/// bytes `B`, sets of text or numbers `SS`/`NS`, other lists `L`, maps `M`.
/// `ttl` fields are epoch seconds (`N`). A type of the user's own could be a
/// unit enum (text) or a struct (a map): it is drawn as text.
pub(crate) fn type_of_rust(ty: &str, ttl: bool) -> &'static str {
    if ttl {
        return "N";
    }
    let (outer, inner) = match ty.split_once('<') {
        Some((o, rest)) => (
            o.rsplit("::").next().unwrap_or(o),
            rest.strip_suffix('>').unwrap_or(rest),
        ),
        None => (ty.rsplit("::").next().unwrap_or(ty), ""),
    };
    const NUMBERS: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "f32", "f64", "Decimal",
    ];
    match outer {
        "Option" | "Box" => type_of_rust(inner, false),
        o if NUMBERS.contains(&o) => "N",
        "bool" => "BOOL",
        "String" | "str" | "Uuid" | "Date" | "OffsetDateTime" | "PrimitiveDateTime" | "Time" => "S",
        "Blob" | "Bytes" => "B",
        "Vec" if inner == "u8" => "B",
        "HashSet" | "BTreeSet" => match type_of_rust(inner, false) {
            "N" => "NS",
            "B" => "BS",
            _ => "SS",
        },
        "Vec" | "VecDeque" => "L",
        "HashMap" | "BTreeMap" => "M",
        _ => "S",
    }
}

/// At most `max` characters of `s`, with `…` when cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_each_format_reads_as_syntax() {
        assert_eq!(
            html("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(html("a\u{1}b"), "a\\u{1}b");
        assert_eq!(md_code("A|B"), "`A\\|B`");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`x"), "`` `x ``");
        assert_eq!(md_code("a\nb"), "`a\\nb`");
        assert_eq!(md_code(""), "*(empty)*");
        assert_eq!(md_text("*a_b*|<i>"), "\\*a\\_b\\*\\|\\<i\\>");
        assert_eq!(clip("abcdef", 3), "abc…");
        assert_eq!(clip("abc", 3), "abc");
    }

    #[test]
    fn values_read_compactly() {
        let m = AttributeValue::M(
            [
                ("b".to_owned(), AttributeValue::N("2".into())),
                ("a".to_owned(), AttributeValue::S("x".into())),
            ]
            .into_iter()
            .collect(),
        );
        assert_eq!(value(&m), "{a: \"x\", b: 2}");
        assert_eq!(value(&AttributeValue::Ss(vec!["p".into()])), "{\"p\"}");
        assert_eq!(type_of(&m), "M");
    }

    #[test]
    fn rust_types_map_to_dynamodb_types() {
        for (ty, want) in [
            ("String", "S"),
            ("Option<u32>", "N"),
            ("rust_decimal::Decimal", "N"),
            ("bool", "BOOL"),
            ("uuid::Uuid", "S"),
            ("Option<OffsetDateTime>", "S"),
            ("Vec<u8>", "B"),
            ("HashSet<String>", "SS"),
            ("BTreeSet<i64>", "NS"),
            ("Vec<String>", "L"),
            ("HashMap<String,u32>", "M"),
            ("Status", "S"),
        ] {
            assert_eq!(type_of_rust(ty, false), want, "{ty}");
        }
        assert_eq!(type_of_rust("Option<OffsetDateTime>", true), "N");
    }
}
