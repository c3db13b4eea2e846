//! Native multi-attribute index keys (`#[gsi("ByRegion", pk(tenant,
//! region), sk(status, created_at))]`) into their models, each field
//! resolved by name (DYNA101). What the model cannot hold is reported:
//! a native key where DynamoDB has none (DYNA122: on the table, on a local
//! index, or beside a template), a key of no field or of more than four, a
//! field named twice (DYNA120), and the options a native index has no place
//! for (DYNA112). Each field's form is checked in `check` (DYNA121).

use super::stored_field_help;
use crate::attr::{IndexKind, NativeList, NativeTableKey, RawIndex};
use crate::ctxt::Ctxt;
use crate::diag::render::as_written;
use crate::diag::Code;
use crate::model::{Field, KeyKind, NativeAttr, NativeIndex};

use super::keys::synthetic;
use super::projection::projection;

/// DynamoDB's limit of attributes per native key (partition or sort).
const MAX_ATTRS: usize = 4;

/// `pk(a, b)` as written, and the byte range of each name in it.
fn written(which: &str, list: &NativeList) -> (String, Vec<std::ops::Range<usize>>) {
    let mut text = format!("{which}(");
    let mut ranges = Vec::new();
    for (i, (name, _)) in list.names.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        ranges.push(text.len()..text.len() + name.len());
        text.push_str(name);
    }
    text.push(')');
    (text, ranges)
}

/// An index's name as the snake-case part of its functions (native and
/// template indexes alike): `ByRegion` → `by_region`, `GSI1` → `gsi1`,
/// `by-day` → `by_day`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        });
        prev = Some(c);
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'i');
    }
    out
}

/// The model of a native index, its mistakes reported; `None` when it is
/// not one.
pub fn native_index(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &mut Vec<Field>,
    ix: &RawIndex,
) -> Option<NativeIndex> {
    if !ix.is_native() {
        return None;
    }
    let snake = snake(&ix.name);
    // The native key as written, for the redraw.
    let (which, list) = match (&ix.pk_native, &ix.sk_native) {
        (Some(l), _) => ("pk", l),
        (None, Some(l)) => ("sk", l),
        (None, None) => unreachable!("is_native"),
    };
    let (text, _) = written(which, list);
    let whole = 0..text.len();
    if ix.kind == IndexKind::Local {
        cx.report(list.span, Code::NativeKeyPlace.msg(format!("local index `{}` cannot have a native multi-attribute key: DynamoDB builds keys from several attributes only in global secondary indexes", ix.name)).draw(as_written(&text, whole)).help(format!("write the sort key as a template (sk = \"<status>#<n:d3>\"), or make it a global index: #[gsi(\"{}\", ..)]", ix.name)));
        return Some(empty(ix, snake));
    }
    if ix.pk.is_some() || ix.sk.is_some() {
        cx.report(
            list.span,
            Code::NativeKeyPlace
                .msg(format!(
                    "index `{}` mixes a template key with a native one",
                    ix.name
                ))
                .draw(as_written(&text, whole))
                .help("write both keys as field lists (pk(a, b), sk(c, d)), or both as templates"),
        );
        return Some(empty(ix, snake));
    }
    for (given, option) in [
        (ix.sparse, "sparse"),
        (ix.pk_attr.is_some(), "pk_attr"),
        (ix.sk_attr.is_some(), "sk_attr"),
    ] {
        if given {
            let why = if option == "sparse" {
                "a native index is sparse by absence: an item without one of its key attributes (a `None` field) is not in it"
            } else {
                "a native key's attributes are the fields' own (rename a field with #[dynamo(rename = \"..\")])"
            };
            cx.report(
                ix.name_span,
                Code::Options
                    .msg(format!(
                        "`{option}` does not apply to native index `{}`",
                        ix.name
                    ))
                    .help(format!("drop it; {why}")),
            );
        }
    }
    let Some(pk) = &ix.pk_native else {
        cx.report(ix.name_span, Code::Shape.msg(format!("global index `{}` has no partition key", ix.name)).help(format!("add `pk(..)` with its fields, as in #[gsi(\"{}\", pk(tenant), sk(status, created_at))]", ix.name)));
        return Some(empty(ix, snake));
    };
    let mut attrs = Vec::new();
    let pk = resolve(cx, entity, fields, ix, "pk", pk, &mut attrs);
    let sk = match &ix.sk_native {
        Some(list) => resolve(cx, entity, fields, ix, "sk", list, &mut attrs),
        None => Vec::new(),
    };
    Some(NativeIndex {
        name: ix.name.clone(),
        kind: KeyKind::Global,
        snake,
        pk,
        sk,
        attrs,
        projection: projection(cx, ix.projection.as_ref(), fields),
    })
}

fn empty(ix: &RawIndex, snake: String) -> NativeIndex {
    NativeIndex {
        name: ix.name.clone(),
        kind: match ix.kind {
            IndexKind::Global => KeyKind::Global,
            IndexKind::Local => KeyKind::Local,
        },
        snake,
        pk: Vec::new(),
        sk: Vec::new(),
        attrs: Vec::new(),
        projection: crate::model::Projection::All,
    }
}

/// The fields of one native key, in order, each resolved by name and
/// recorded in `attrs` where it is written.
fn resolve(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &mut Vec<Field>,
    ix: &RawIndex,
    which: &str,
    list: &NativeList,
    attrs: &mut Vec<NativeAttr>,
) -> Vec<usize> {
    let (text, ranges) = written(which, list);
    let span = list.span;
    if list.names.is_empty() {
        cx.report(
            span,
            Code::NativeKeyShape
                .msg(format!(
                    "the native {which} of index `{}` names no field",
                    ix.name
                ))
                .draw(as_written(&text, which.len()..text.len()))
                .help("name one to four fields, as in pk(tenant, region)"),
        );
    }
    if list.names.len() > MAX_ATTRS {
        let extra = ranges[MAX_ATTRS].start..ranges[ranges.len() - 1].end;
        cx.report(list.names[MAX_ATTRS].1, Code::NativeKeyShape.msg(format!("the native {which} of index `{}` has {} attributes; DynamoDB allows {MAX_ATTRS}", ix.name, list.names.len())).draw(as_written(&text, extra)).help("keep four; join the others into a template index, or filter on them"));
    }
    let mut out = Vec::new();
    for ((name, name_span), range) in list.names.iter().zip(ranges) {
        let idx = match fields.iter().position(|f| f.name.text == *name) {
            Some(i) => i,
            None => {
                let help = stored_field_help(name, fields);
                cx.report(
                    *name_span,
                    Code::UnknownField
                        .msg(format!("`{name}` names no field of `{entity}`"))
                        .draw(as_written(&text, range.clone()))
                        .help(&help),
                );
                fields.push(synthetic(name, *name_span));
                fields.len() - 1
            }
        };
        if attrs.iter().any(|a| a.field == idx) {
            cx.report(
                *name_span,
                Code::NativeKeyShape
                    .msg(format!(
                        "field `{name}` appears twice in the native keys of index `{}`",
                        ix.name
                    ))
                    .draw(as_written(&text, range.clone()))
                    .help("each attribute is one element of the index's key: name it once"),
            );
            continue;
        }
        attrs.push(NativeAttr {
            field: idx,
            span: *name_span,
            written: text.clone(),
            range,
        });
        out.push(idx);
    }
    out
}

/// DYNA122 for the table key: DynamoDB builds a key from several
/// attributes only in a global index, so the model has no place for it.
pub fn table_key_place(cx: &Ctxt, keys: &[NativeTableKey]) {
    for k in keys {
        let label = k.label;
        cx.report(
            k.span,
            Code::NativeKeyPlace
                .msg(format!("the table's {label} cannot be a native multi-attribute key: DynamoDB builds keys from several attributes only in global secondary indexes"))
                .draw(as_written(&k.written, label.len() + 3..k.written.len() - 2))
                .help(format!("write a template, as in #[{label}(\"TENANT#<tenant>#REGION#<region>\")], or declare the native key on an index: #[gsi(\"ByRegion\", pk(tenant, region))]")),
        );
    }
}
