//! Vector indexes (`#[vector_index(..)]`): every message of the DYNA6xx
//! family is in this file, listed in [`CODES`] (code, title, check, fix),
//! so the derive's central list of codes can take them over as they are.
//! The table-level rules (DYNA610–DYNA612) are checked in
//! `tablecheck::vector` with the words written here.
//!
//! DynamoDB's rules behind them, from the SDK's `VectorIndex` /
//! `SearchSchemaElement` documentation and the embedded engine's captured
//! `CreateTable` answers (dynoxide-rs 3.2, `actions/create_table.rs`,
//! `validation.rs`): dimensions 1–4,096; distance `COSINE`, `EUCLIDEAN` or
//! `DOT_PRODUCT`; at most one `HASH` element per search schema, each
//! attribute once, each defined in `AttributeDefinitions` (so of type S, N
//! or B); vector, local and global indexes share one namespace of names;
//! five vector indexes per table; two indexes on one vector attribute agree
//! on dimensions; the vector attribute is not a defined (key) attribute.

use proc_macro2::Span;
use syn::Type;

use super::stored_field_help;
use crate::attr::{RawKeys, RawProblem, RawVector};
use crate::ctxt::Ctxt;
use crate::diag::render::did_you_mean;
use crate::diag::Code;
use crate::model::{Field, FieldRole, VectorIndex, VectorLen};
use crate::types::{self, TypeKind};

use super::native::snake;
use super::projection::projection;

fn error(cx: &Ctxt, span: Span, code: Code, message: String, help: String) {
    cx.report(span, code.msg(message).help(help));
}

/// What the parser could not read (DYNA600).
fn problems(cx: &Ctxt, raw: &RawVector) {
    for (p, span) in &raw.problems {
        match p {
            RawProblem::NoName => error(cx, *span, Code::VectorShape, "#[vector_index] starts with the index name".into(), "write #[vector_index(\"BySimilar\", vector = embedding, dimensions = 768, distance = \"COSINE\")]".into()),
            RawProblem::Twice(option) => twice(cx, *span, option, &raw.name),
            RawProblem::Unknown(option) => unknown_option(cx, *span, option),
        }
    }
}

/// An option given twice (DYNA600).
fn twice(cx: &Ctxt, span: Span, option: &str, index: &str) {
    error(
        cx,
        span,
        Code::VectorShape,
        format!("`{option}` of #[vector_index(\"{index}\")] is given twice"),
        "keep one; a second one would silently win".into(),
    );
}

const OPTIONS: &[&str] = &[
    "vector",
    "dimensions",
    "distance",
    "scope",
    "filter",
    "projection",
];

/// An unknown option (DYNA600).
fn unknown_option(cx: &Ctxt, span: Span, found: &str) {
    let hint = match did_you_mean(found, OPTIONS.iter().copied()) {
        Some(s) => format!("did you mean `{s}`? "),
        None => String::new(),
    };
    let list = OPTIONS
        .iter()
        .map(|o| format!("`{o}`"))
        .collect::<Vec<_>>()
        .join(", ");
    error(
        cx,
        span,
        Code::VectorShape,
        format!("unknown #[vector_index] option `{found}`"),
        format!("{hint}options are {list}"),
    );
}

/// The distances: (API name, the runtime's `Distance` variant).
const DISTANCES: [(&str, &str); 3] = [
    ("COSINE", "Cosine"),
    ("EUCLIDEAN", "Euclidean"),
    ("DOT_PRODUCT", "DotProduct"),
];

/// The API name of a `Distance` variant.
pub fn api_distance(variant: &str) -> &'static str {
    DISTANCES
        .iter()
        .find(|(_, v)| *v == variant)
        .map_or("", |(a, _)| a)
}

/// DynamoDB's limits (see the module's documentation).
const MAX_DIMENSIONS: u64 = 4096;
const MAX_PER_TABLE: usize = 5;
/// INLINE_FILTER elements of one index (AWS's DynamoDB vector search
/// reference: "up to 18 inline filters").
const MAX_FILTERS: usize = 18;
/// Generated functions a vector index's search function must not take
/// the name of.
const RESERVED: &[&str] = &["pk", "sk", "key", "attrs", "update", "patch"];

/// The stored field named `name`, or DYNA605.
fn field(cx: &Ctxt, fields: &[Field], name: &(String, Span), what: &str) -> Option<usize> {
    let found = fields
        .iter()
        .position(|f| f.name.text == name.0 && f.stored() && !f.synthetic);
    if found.is_none() {
        let help = stored_field_help(&name.0, fields);
        error(
            cx,
            name.1,
            Code::VectorField,
            format!("{what} `{}` is no stored field of the entity", name.0),
            help,
        );
    }
    found
}

/// The length of a vector type (`[f32; N]`, `Vec<f32>`), or `None` when it
/// is no vector type.
fn vector_len(ty: &Type) -> Option<VectorLen> {
    let is_f32 = |t: &Type| matches!(t, Type::Path(p) if p.path.is_ident("f32"));
    match ty {
        Type::Array(a) if is_f32(&a.elem) => Some(match &a.len {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }) => VectorLen::Literal(n.base10_parse().ok()?),
            other => VectorLen::Const(other.clone()),
        }),
        Type::Path(p) if types::is_list(ty) => {
            let seg = p.path.segments.last()?;
            match &seg.arguments {
                syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => {
                    match a.args.first() {
                        Some(syn::GenericArgument::Type(t)) if is_f32(t) => {
                            Some(VectorLen::Runtime)
                        }
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        Type::Group(g) => vector_len(&g.elem),
        Type::Paren(p) => vector_len(&p.elem),
        _ => None,
    }
}

/// Why a field cannot be a scope or filter attribute (DYNA604), if it
/// cannot: what the derive sees of its type. A type it cannot classify (a
/// unit enum, a nested struct) is checked by the `NativeKeyAttr` bound of
/// the generated code (DYNA121 names it).
fn schema_refusal(f: &Field) -> Option<&'static str> {
    let last = |t: &Type| match t {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    };
    match f.role {
        FieldRole::Serde => return Some("is stored through serde"),
        FieldRole::Ttl => return Some("is the TTL attribute"),
        _ => {}
    }
    let inner = &f.inner;
    if types::option_inner(inner).is_some() {
        return Some("is a nested Option");
    }
    if f.kind == TypeKind::Bool {
        return Some("is stored as a boolean (BOOL)");
    }
    if types::is_set(inner) {
        return Some("is stored as a set");
    }
    if types::is_list(inner) || matches!(inner, Type::Array(_) | Type::Slice(_)) {
        return Some("is stored as a list (L)");
    }
    if matches!(last(inner).as_deref(), Some("HashMap" | "BTreeMap")) {
        return Some("is stored as a map (M)");
    }
    if !matches!(inner, Type::Path(_) | Type::Group(_) | Type::Paren(_)) {
        return Some("has no S, N or B form");
    }
    None
}

/// The model of each vector index, every mistake reported.
pub fn vectors(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &[Field],
    keys: &RawKeys,
    raws: &[RawVector],
) -> Vec<VectorIndex> {
    let mut out: Vec<VectorIndex> = Vec::new();
    // Names and function stems taken: the global and local indexes'.
    let mut stems: Vec<(String, String)> = keys
        .indexes
        .iter()
        .map(|ix| (ix.name.clone(), snake(&ix.name)))
        .collect();
    for (n, raw) in raws.iter().enumerate() {
        problems(cx, raw);
        if raw
            .problems
            .iter()
            .any(|(p, _)| matches!(p, RawProblem::NoName))
        {
            continue;
        }
        if n == MAX_PER_TABLE {
            error(cx, raw.name_span, Code::VectorLimit, format!("`{entity}` declares {} vector indexes; DynamoDB allows {MAX_PER_TABLE} per table", raws.len()), "search one index with different filters instead of adding one".into());
        }
        let Some(model) = one(cx, fields, raw, &mut stems) else {
            continue;
        };
        // Two indexes on one vector attribute agree on dimensions.
        if let Some(other) = out
            .iter()
            .find(|o| o.vector == model.vector && o.dimensions != model.dimensions)
        {
            error(
                cx,
                raw.dimensions.as_ref().map_or(raw.name_span, |d| d.1),
                Code::VectorDimensions,
                format!(
                    "vector indexes `{}` and `{}` read field `{}` with {} and {} dimensions",
                    other.name,
                    model.name,
                    fields[model.vector].name.text,
                    other.dimensions,
                    model.dimensions
                ),
                "DynamoDB requires every vector index on one attribute to have the same dimensions"
                    .into(),
            );
        }
        out.push(model);
    }
    out
}

fn one(
    cx: &Ctxt,
    fields: &[Field],
    raw: &RawVector,
    stems: &mut Vec<(String, String)>,
) -> Option<VectorIndex> {
    let name = &raw.name;
    let valid = (3..=255).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if !valid {
        error(
            cx,
            raw.name_span,
            Code::VectorShape,
            format!("`{name}` is no index name DynamoDB takes"),
            "an index name has 3 to 255 characters among a-z, A-Z, 0-9, `_`, `.` and `-`".into(),
        );
        return None;
    }
    let stem = snake(name);
    if let Some((other, _)) = stems.iter().find(|(other, s)| other == name || *s == stem) {
        let message = if other == name {
            format!("an index named `{name}` is declared already")
        } else {
            format!("indexes `{other}` and `{name}` would both name their functions `{stem}..` (an index's functions are its name in snake case)")
        };
        error(cx, raw.name_span, Code::VectorName, message, "vector, global and local indexes share one namespace: give the vector index its own name".into());
        return None;
    }
    if RESERVED.contains(&stem.as_str()) {
        error(cx, raw.name_span, Code::VectorName, format!("vector index `{name}` would name its search function `{stem}`, which the entity has already"), "give the vector index another name".into());
        return None;
    }
    stems.push((name.clone(), stem.clone()));
    let missing = |what: &str, example: &str| {
        error(
            cx,
            raw.name_span,
            Code::VectorShape,
            format!("vector index `{name}` has no `{what}`"),
            format!("add `{example}`"),
        );
    };
    if raw.vector.is_none() {
        missing("vector", "vector = embedding");
    }
    if raw.dimensions.is_none() {
        missing("dimensions", "dimensions = 768");
    }
    if raw.distance.is_none() {
        missing("distance", "distance = \"COSINE\"");
    }
    let vector = raw
        .vector
        .as_ref()
        .and_then(|v| field(cx, fields, v, "vector field"));
    let len = vector.and_then(|i| {
        let f = &fields[i];
        let len = vector_len(&f.inner);
        if len.is_none() {
            let ty = &f.ty_text;
            error(cx, f.ty_span, Code::VectorType, format!("field `{}` of type `{ty}` cannot hold the vector of index `{name}`", f.name.text), "store the embedding as `[f32; N]` (its length checked by the type) or `Vec<f32>` (checked before each search), or an `Option` of one".into());
        }
        len
    });
    let dimensions = raw.dimensions.as_ref().and_then(|(text, span)| {
        let n: u64 = text.parse().unwrap_or(u64::MAX);
        if !(1..=MAX_DIMENSIONS).contains(&n) {
            error(cx, *span, Code::VectorDimensions, format!("vector index `{name}` has {text} dimensions; DynamoDB takes 1 to {MAX_DIMENSIONS}"), "give the length of the embeddings, within 1–4,096".into());
            return None;
        }
        if let Some(VectorLen::Literal(l)) = &len {
            if *l != n {
                let f = &fields[vector.unwrap_or_default()];
                error(cx, *span, Code::VectorDimensions, format!("vector index `{name}` has {n} dimensions, but field `{}` holds {l} elements", f.name.text), format!("write `dimensions = {l}`, or make the field `[f32; {n}]`"));
                return None;
            }
        }
        Some(n as u32)
    });
    let distance = raw.distance.as_ref().and_then(|(d, span)| {
        let known = DISTANCES;
        let found = known.iter().find(|(api, _)| api == d).map(|(_, v)| *v);
        if found.is_none() {
            let hint = match did_you_mean(&d.to_uppercase(), known.iter().map(|(a, _)| *a)) {
                Some(s) => format!("did you mean \"{s}\"? "),
                None => String::new(),
            };
            error(
                cx,
                *span,
                Code::VectorDistance,
                format!("`{d}` is no distance function of DynamoDB"),
                format!("{hint}the distances are \"COSINE\", \"EUCLIDEAN\" and \"DOT_PRODUCT\""),
            );
        }
        found
    });
    let schema = schema(cx, fields, raw, vector);
    let projection = projection(cx, raw.projection.as_ref(), fields);
    let (scope, filters) = schema?;
    Some(VectorIndex {
        name: name.clone(),
        snake: stem,
        vector: vector?,
        len: len?,
        dimensions: dimensions?,
        distance: distance?,
        scope,
        filters,
        projection,
    })
}

/// The scope and filter fields, checked (DYNA604–DYNA606).
#[allow(clippy::type_complexity)]
fn schema(
    cx: &Ctxt,
    fields: &[Field],
    raw: &RawVector,
    vector: Option<usize>,
) -> Option<(Option<usize>, Vec<usize>)> {
    let name = &raw.name;
    let mut ok = true;
    let mut seen: Vec<usize> = Vec::new();
    let mut check = |n: &(String, Span), what: &str| -> Option<usize> {
        let i = field(cx, fields, n, what)?;
        let f = &fields[i];
        let why = if Some(i) == vector {
            Some("is the index's vector")
        } else {
            schema_refusal(f)
        };
        if let Some(why) = why {
            error(cx, n.1, Code::VectorSchemaType, format!("{what} `{}` of vector index `{name}` {why}; DynamoDB scopes and filters by top-level S, N or B attributes", f.name.text), "scope and filter by a String, number, Uuid, date, Blob or unit enum field".into());
            return None;
        }
        if seen.contains(&i) {
            error(
                cx,
                n.1,
                Code::VectorSchema,
                format!(
                    "field `{}` is in the search schema of vector index `{name}` twice",
                    f.name.text
                ),
                "list each field once: as the scope or as a filter".into(),
            );
            return None;
        }
        seen.push(i);
        Some(i)
    };
    let mut scope = None;
    if let Some((names, span)) = &raw.scope {
        if names.len() > 1 {
            error(cx, *span, Code::VectorSchema, format!("vector index `{name}` is scoped by {} fields; DynamoDB scopes a search by at most one (its HASH element)", names.len()), "keep one scope field and make the others filters: filter(..)".into());
            ok = false;
        }
        for n in names {
            match check(n, "scope field") {
                Some(i) => scope = scope.or(Some(i)),
                None => ok = false,
            }
        }
    }
    if let Some((names, span)) = raw.filter.as_ref().filter(|(n, _)| n.len() > MAX_FILTERS) {
        error(cx, *span, Code::VectorSchema, format!("vector index `{name}` filters by {} fields; DynamoDB takes at most {MAX_FILTERS} (INLINE_FILTER elements)", names.len()), "filter by the fields searches narrow by most, and check the others on the results".into());
        ok = false;
    }
    let mut filters = Vec::new();
    for n in raw.filter.iter().flat_map(|(names, _)| names) {
        match check(n, "filter field") {
            Some(i) => filters.push(i),
            None => ok = false,
        }
    }
    ok.then_some((scope, filters))
}
