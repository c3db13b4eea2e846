//! Indexes into index models. An index the model cannot hold is left out,
//! reported: a name empty (DYNA109), given twice or alike another in snake
//! case (DYNA108: they would name the same functions), and a global index
//! without a partition key or a local one without a sort key or on a table
//! without one (DYNA109).

use std::collections::HashMap;

use crate::attr::{IndexKind, RawIndex, RawKeys};
use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Field, IndexModel, KeyKind, KeyModel, KeyRole, NativeIndex, Projection};

use super::keys::{key, KeySpec};
use super::native::{native_index, snake};
use super::projection::projection;

pub fn indexes(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &mut Vec<Field>,
    raw: &RawKeys,
    table_pk: &KeyModel,
    has_sk: bool,
) -> (Vec<IndexModel>, Vec<NativeIndex>) {
    let mut out = Vec::new();
    let mut natives = Vec::new();
    // The snake-case stem of each index's functions, and the first index
    // that has it: the same name twice, or two names alike, would give
    // the same functions.
    let mut stems: HashMap<String, String> = HashMap::new();
    for ix in &raw.indexes {
        let which = match ix.kind {
            IndexKind::Global => "gsi",
            IndexKind::Local => "lsi",
        };
        if ix.name.is_empty() {
            cx.report(
                ix.name_span,
                Code::Shape
                    .msg(format!("#[{which}] has an empty index name"))
                    .help(format!("name the index, as in #[{which}(\"GSI1\", ..)]")),
            );
            continue;
        }
        let stem = snake(&ix.name);
        match stems.get(&stem) {
            Some(first) if *first == ix.name => {
                cx.report(
                    ix.name_span,
                    Code::IndexNames
                        .msg(format!("index `{}` is declared twice", ix.name))
                        .help("give each index its own name"),
                );
                continue;
            }
            Some(first) => {
                cx.report(ix.name_span, Code::IndexNames.msg(format!("indexes `{first}` and `{}` would both name their functions `{stem}_pk`, `{stem}_sk`, … (an index's functions are its name in snake case)", ix.name)).help("give the indexes names that differ in more than case and separators"));
                continue;
            }
            None => {
                stems.insert(stem, ix.name.clone());
            }
        }
        if let Some(n) = native_index(cx, entity, fields, ix) {
            natives.push(n);
            continue;
        }
        let model = match ix.kind {
            IndexKind::Global => global(cx, entity, fields, ix),
            IndexKind::Local => local(cx, entity, fields, ix, table_pk, has_sk),
        };
        if let Some(m) = model {
            out.push(m);
        }
    }
    (out, natives)
}

fn attrs(ix: &RawIndex, stem: &str) -> (String, String) {
    let pk = ix
        .pk_attr
        .as_ref()
        .map(|a| a.0.clone())
        .unwrap_or_else(|| format!("{stem}pk"));
    let sk = ix
        .sk_attr
        .as_ref()
        .map(|a| a.0.clone())
        .unwrap_or_else(|| format!("{stem}sk"));
    (pk, sk)
}

fn spec(ix: &RawIndex, role: KeyRole, kind: KeyKind, attr: String, snake: &str) -> KeySpec {
    let which = if role == KeyRole::Sort { "sk" } else { "pk" };
    KeySpec {
        role,
        kind,
        attr,
        fn_name: format!("{snake}_{which}"),
        index: Some(ix.name.clone()),
    }
}

fn global(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &mut Vec<Field>,
    ix: &RawIndex,
) -> Option<IndexModel> {
    let snake = snake(&ix.name);
    let (pk_attr, sk_attr) = attrs(ix, &attr_stem(&ix.name));
    let Some(pk_tpl) = &ix.pk else {
        cx.report(
            ix.name_span,
            Code::Shape
                .msg(format!("global index `{}` has no partition key", ix.name))
                .help(format!(
                    "add `pk = \"...\"`, as in #[gsi(\"{}\", pk = \"TEAM#<team>\")]",
                    ix.name
                )),
        );
        return None;
    };
    let pk = key(
        cx,
        entity,
        fields,
        pk_tpl,
        spec(ix, KeyRole::Partition, KeyKind::Global, pk_attr, &snake),
    );
    let sk = ix.sk.as_ref().map(|t| {
        key(
            cx,
            entity,
            fields,
            t,
            spec(ix, KeyRole::Sort, KeyKind::Global, sk_attr, &snake),
        )
    });
    Some(finish(cx, fields, ix, KeyKind::Global, snake, pk, sk))
}

fn local(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &mut Vec<Field>,
    ix: &RawIndex,
    table_pk: &KeyModel,
    has_sk: bool,
) -> Option<IndexModel> {
    if !has_sk {
        cx.report(
            ix.name_span,
            Code::Shape
                .msg(format!(
                    "local index `{}` needs a table with a sort key",
                    ix.name
                ))
                .help("add #[sk(\"...\")], or make it a global index"),
        );
        return None;
    }
    let Some(sk_tpl) = &ix.sk else {
        cx.report(
            ix.name_span,
            Code::Shape
                .msg(format!("local index `{}` has no sort key", ix.name))
                .help("add `sk = \"...\"`"),
        );
        return None;
    };
    let snake = snake(&ix.name);
    let (_, sk_attr) = attrs(ix, &attr_stem(&ix.name));
    let sk = key(
        cx,
        entity,
        fields,
        sk_tpl,
        spec(ix, KeyRole::Sort, KeyKind::Local, sk_attr, &snake),
    );
    // A local index's partition key is the table's, under the index's name.
    let mut pk = table_pk.clone();
    pk.kind = KeyKind::Local;
    pk.fn_name = format!("{snake}_pk");
    pk.index = Some(ix.name.clone());
    Some(finish(cx, fields, ix, KeyKind::Local, snake, pk, Some(sk)))
}

/// The index with its projection; its keys are partial when it does not
/// hold whole items.
fn finish(
    cx: &Ctxt,
    fields: &[Field],
    ix: &RawIndex,
    kind: KeyKind,
    snake: String,
    mut pk: KeyModel,
    mut sk: Option<KeyModel>,
) -> IndexModel {
    let projection = projection(cx, ix.projection.as_ref(), fields);
    let partial = projection != Projection::All;
    pk.partial = partial;
    if let Some(k) = &mut sk {
        k.partial = partial;
    }
    IndexModel {
        name: ix.name.clone(),
        name_span: ix.name_span,
        kind,
        pk,
        sk,
        sparse: ix.sparse,
        snake,
        projection,
    }
}

/// The stem of an index's default key attribute names (`GSI1` → `gsi1pk`,
/// `ByCity` → `bycitypk`): the name in lower case, as it always was, so
/// stored attribute names stay what they are. Function names come from
/// [`snake`] instead (`by_city_pk`), as for native indexes.
fn attr_stem(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'i');
    }
    s
}
