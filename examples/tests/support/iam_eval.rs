//! A small evaluator of IAM identity policies, as AWS documents their
//! logic ("Policy evaluation logic", "Condition operators", "Single-valued
//! vs. multivalued context keys"), for what dynakey's policies use:
//!
//! * an explicit `Deny` wins; else an `Allow` allows; else the implicit deny;
//! * `Action` matches case-insensitively, `Resource` case-sensitively,
//!   both with `*` (any run of characters) and `?` (one character);
//! * a statement's `Condition` holds when every operator holds, an
//!   operator when every key holds, a key when any of its values matches;
//! * `StringEquals`, `StringLike` (`*`, `?`; `${*}`, `${?}`, `${$}` are
//!   the literal characters, any other `${key}` is the request context's
//!   value of `key`), each alone or as `ForAllValues:` (every value of the
//!   request's key matches one of the policy's; true for an empty or
//!   absent key) and `ForAnyValue:` (some value matches; false for an
//!   empty or absent key), and `Null` (`"true"`: the key is absent).
//!
//! Anything else in a policy (`NotAction`, `NotResource`, other
//! operators) panics rather than guess.

use std::collections::BTreeMap;

use serde_json::Value;

/// One authorization: an action on a resource with its context keys.
#[derive(Debug, Clone)]
pub struct Request {
    pub action: String,
    pub resource: String,
    pub context: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    ImplicitDeny,
    ExplicitDeny,
}

fn strings(v: &Value) -> Vec<&str> {
    match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().expect("a list of strings"))
            .collect(),
        other => panic!("not a string or list of strings: {other}"),
    }
}

/// A pattern piece: literal text, `*` or `?`.
#[derive(Debug, PartialEq)]
enum Piece {
    Char(char),
    Any,
    One,
}

/// The pieces of `pattern`, with `${..}` variables resolved from the
/// context when `vars` (policy variables are read in conditions and
/// resources, not in actions).
fn pieces(pattern: &str, vars: Option<&BTreeMap<String, Vec<String>>>) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if let (Some(vars), Some(tail)) = (vars, rest.strip_prefix("${")) {
            let end = tail.find('}').expect("a closed policy variable");
            let name = &tail[..end];
            match name {
                "*" | "?" | "$" => out.push(Piece::Char(name.chars().next().unwrap())),
                _ => {
                    // An absent variable makes the pattern match nothing.
                    let value = vars.get(name)?.first()?;
                    out.extend(value.chars().map(Piece::Char));
                }
            }
            rest = &tail[end + 1..];
            continue;
        }
        out.push(match c {
            '*' => Piece::Any,
            '?' => Piece::One,
            c => Piece::Char(c),
        });
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

fn matches_pieces(p: &[Piece], s: &[char], fold: bool) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(Piece::Any) => (0..=s.len()).any(|i| matches_pieces(&p[1..], &s[i..], fold)),
        Some(Piece::One) => !s.is_empty() && matches_pieces(&p[1..], &s[1..], fold),
        Some(Piece::Char(c)) => {
            let eq = |a: char, b: char| {
                if fold {
                    a.eq_ignore_ascii_case(&b)
                } else {
                    a == b
                }
            };
            !s.is_empty() && eq(*c, s[0]) && matches_pieces(&p[1..], &s[1..], fold)
        }
    }
}

/// Whether `text` matches wildcard `pattern`.
pub fn like(
    pattern: &str,
    text: &str,
    fold: bool,
    vars: Option<&BTreeMap<String, Vec<String>>>,
) -> bool {
    let Some(p) = pieces(pattern, vars) else {
        return false;
    };
    let s: Vec<char> = text.chars().collect();
    matches_pieces(&p, &s, fold)
}

/// Whether value `v` of the request matches policy value `p` under
/// string operator `op`.
fn string_op(op: &str, p: &str, v: &str, ctx: &BTreeMap<String, Vec<String>>) -> bool {
    match op {
        "StringLike" => like(p, v, false, Some(ctx)),
        // Variables are substituted in StringEquals too; wildcards are not.
        "StringEquals" => {
            let Some(pieces) = pieces(p, Some(ctx)) else {
                return false;
            };
            let literal: Option<String> = pieces
                .iter()
                .map(|x| match x {
                    Piece::Char(c) => Some(*c),
                    Piece::Any => Some('*'),
                    Piece::One => Some('?'),
                })
                .collect();
            literal.as_deref() == Some(v)
        }
        other => panic!("the evaluator does not know operator {other}"),
    }
}

fn condition_holds(op: &str, key: &str, want: &Value, ctx: &BTreeMap<String, Vec<String>>) -> bool {
    let values: &[String] = ctx.get(key).map_or(&[], Vec::as_slice);
    let want = strings(want);
    if op == "Null" {
        let absent = values.is_empty();
        return want.iter().any(|w| match *w {
            "true" => absent,
            "false" => !absent,
            other => panic!("Null takes true or false, not {other}"),
        });
    }
    let any_match = |v: &str| want.iter().any(|p| string_op(op_base(op), p, v, ctx));
    if op.starts_with("ForAllValues:") {
        values.iter().all(|v| any_match(v))
    } else if op.starts_with("ForAnyValue:") {
        values.iter().any(|v| any_match(v))
    } else {
        // A single-valued operator: the key must be present.
        !values.is_empty() && values.iter().any(|v| any_match(v))
    }
}

fn op_base(op: &str) -> &str {
    op.rsplit(':').next().unwrap()
}

fn statement_applies(s: &Value, r: &Request) -> bool {
    for unsupported in ["NotAction", "NotResource", "NotPrincipal"] {
        assert!(
            s.get(unsupported).is_none(),
            "the evaluator does not know {unsupported}"
        );
    }
    let action = strings(&s["Action"])
        .iter()
        .any(|a| like(a, &r.action, true, None));
    let resource = strings(&s["Resource"])
        .iter()
        .any(|p| like(p, &r.resource, false, Some(&r.context)));
    if !(action && resource) {
        return false;
    }
    let Some(conds) = s.get("Condition") else {
        return true;
    };
    conds
        .as_object()
        .expect("a condition object")
        .iter()
        .all(|(op, keys)| {
            keys.as_object()
                .expect("keys of a condition")
                .iter()
                .all(|(k, want)| condition_holds(op, k, want, &r.context))
        })
}

/// The decision of `policy` (one identity policy document) on `r`.
pub fn evaluate(policy: &Value, r: &Request) -> Decision {
    let statements: Vec<&Value> = match &policy["Statement"] {
        Value::Array(a) => a.iter().collect(),
        one @ Value::Object(_) => vec![one],
        other => panic!("no statements: {other}"),
    };
    let mut allowed = false;
    for s in statements {
        if !statement_applies(s, r) {
            continue;
        }
        match s["Effect"].as_str() {
            Some("Deny") => return Decision::ExplicitDeny,
            Some("Allow") => allowed = true,
            other => panic!("effect {other:?}"),
        }
    }
    if allowed {
        Decision::Allow
    } else {
        Decision::ImplicitDeny
    }
}

/// The evaluator's own cases, from the semantics AWS documents.
pub fn self_check() {
    let ctx = |keys: &[&str]| {
        let mut c = BTreeMap::new();
        if !keys.is_empty() {
            c.insert(
                "dynamodb:LeadingKeys".to_owned(),
                keys.iter().map(|k| (*k).to_owned()).collect(),
            );
        }
        c.insert(
            "aws:PrincipalTag/tenant".to_owned(),
            vec!["acme".to_owned()],
        );
        c
    };
    let req = |action: &str, resource: &str, keys: &[&str]| Request {
        action: action.into(),
        resource: resource.into(),
        context: ctx(keys),
    };
    assert!(like("dynamodb:Get*", "DynamoDB:GetItem", true, None));
    assert!(!like("dynamodb:Get*", "dynamodb:PutItem", true, None));
    assert!(like("a?c", "abc", false, None));
    assert!(!like("a?c", "ac", false, None));
    assert!(like("T${*}", "T*", false, Some(&ctx(&[]))));
    assert!(!like("T${*}", "Tx", false, Some(&ctx(&[]))));
    assert!(like(
        "T#${aws:PrincipalTag/tenant}#*",
        "T#acme#1",
        false,
        Some(&ctx(&[]))
    ));
    assert!(!like(
        "T#${aws:PrincipalTag/tenant}#*",
        "T#globex#1",
        false,
        Some(&ctx(&[]))
    ));
    assert!(!like("${aws:nope}", "", false, Some(&ctx(&[]))));
    let arn = "arn:aws:dynamodb:us-east-1:1:table/t";
    let policy = serde_json::json!({"Statement": [
        {"Effect": "Allow", "Action": "dynamodb:*", "Resource": arn,
         "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["A#*", "B"]}}},
        {"Effect": "Deny", "Action": "dynamodb:DeleteItem", "Resource": "*"}
    ]});
    assert_eq!(
        evaluate(&policy, &req("dynamodb:GetItem", arn, &["A#1"])),
        Decision::Allow
    );
    assert_eq!(
        evaluate(&policy, &req("dynamodb:GetItem", arn, &["A#1", "B"])),
        Decision::Allow
    );
    assert_eq!(
        evaluate(&policy, &req("dynamodb:GetItem", arn, &["A#1", "C"])),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(&policy, &req("dynamodb:GetItem", arn, &["BB"])),
        Decision::ImplicitDeny
    );
    // ForAllValues holds for no values at all (the reason for `Null`).
    assert_eq!(
        evaluate(&policy, &req("dynamodb:Scan", arn, &[])),
        Decision::Allow
    );
    assert_eq!(
        evaluate(
            &policy,
            &req("dynamodb:GetItem", &format!("{arn}/index/x"), &["A#1"])
        ),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(&policy, &req("dynamodb:DeleteItem", arn, &["A#1"])),
        Decision::ExplicitDeny
    );
    let with_null = serde_json::json!({"Statement": {"Effect": "Allow", "Action": ["dynamodb:Scan"], "Resource": [arn],
        "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["A#*"]}, "Null": {"dynamodb:LeadingKeys": "false"}}}});
    assert_eq!(
        evaluate(&with_null, &req("dynamodb:Scan", arn, &[])),
        Decision::ImplicitDeny
    );
    let any = serde_json::json!({"Statement": {"Effect": "Allow", "Action": "dynamodb:Query", "Resource": arn,
        "Condition": {"ForAnyValue:StringEquals": {"dynamodb:LeadingKeys": ["A*"]}}}});
    assert_eq!(
        evaluate(&any, &req("dynamodb:Query", arn, &["A*", "Z"])),
        Decision::Allow
    );
    assert_eq!(
        evaluate(&any, &req("dynamodb:Query", arn, &["A1"])),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(&any, &req("dynamodb:Query", arn, &[])),
        Decision::ImplicitDeny
    );
}
