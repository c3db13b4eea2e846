//! Indexes: names (DYNA108, DYNA109), limits (DYNA111), and whether their
//! inputs may be absent (DYNA106).

use std::collections::HashMap;

use proc_macro2::Span;

use crate::attr::{IndexKind, RawKeys};
use crate::model::{Field, IndexModel, KeyKind, KeyModel, Projection};

use super::keys::KeyCtx;

const MAX_GSI: usize = 20;
const MAX_LSI: usize = 5;

pub fn indexes(
    ctx: &KeyCtx<'_>,
    raw: &RawKeys,
    table_pk: Option<&KeyModel>,
    has_sk: bool,
) -> Vec<IndexModel> {
    let cx = ctx.cx;
    let mut out = Vec::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    let (mut gsis, mut lsis) = (0, 0);
    for ix in &raw.indexes {
        let which = if ix.kind == IndexKind::Global {
            "gsi"
        } else {
            "lsi"
        };
        if ix.name.is_empty() {
            cx.error(
                ix.name_span,
                format!("DYNA109: #[{which}] has an empty index name"),
            );
            continue;
        }
        if seen.insert(ix.name.clone(), ix.name_span).is_some() {
            cx.error(
                ix.name_span,
                format!(
                    "DYNA108: index `{}` is declared twice\n  = help: give each index its own name",
                    ix.name
                ),
            );
            continue;
        }
        let sn = snake(&ix.name);
        let pk_attr = ix
            .pk_attr
            .as_ref()
            .map(|a| a.0.clone())
            .unwrap_or_else(|| format!("{sn}pk"));
        let sk_attr = ix
            .sk_attr
            .as_ref()
            .map(|a| a.0.clone())
            .unwrap_or_else(|| format!("{sn}sk"));
        let model = match ix.kind {
            IndexKind::Global => {
                gsis += 1;
                let Some(pk_tpl) = &ix.pk else {
                    cx.error(ix.name_span, format!("DYNA109: global index `{}` has no partition key\n  = help: add `pk = \"...\"`, as in #[gsi(\"{}\", pk = \"TEAM#<team>\")]", ix.name, ix.name));
                    continue;
                };
                let pk = ctx.key(
                    pk_tpl,
                    false,
                    KeyKind::Global,
                    pk_attr,
                    format!("{sn}_pk"),
                    Some(ix.name.clone()),
                );
                let sk = ix.sk.as_ref().map(|t| {
                    ctx.key(
                        t,
                        true,
                        KeyKind::Global,
                        sk_attr,
                        format!("{sn}_sk"),
                        Some(ix.name.clone()),
                    )
                });
                let (Some(pk), sk) = (pk, sk) else { continue };
                let sk = match sk {
                    Some(Some(s)) => Some(s),
                    Some(None) => continue,
                    None => None,
                };
                let (projection, pk, sk) = projected(ctx, ix, pk, sk);
                IndexModel {
                    name: ix.name.clone(),
                    kind: KeyKind::Global,
                    pk,
                    sk,
                    sparse: ix.sparse,
                    snake: sn,
                    projection,
                }
            }
            IndexKind::Local => {
                lsis += 1;
                if !has_sk {
                    cx.error(ix.name_span, format!("DYNA109: local index `{}` needs a table with a sort key\n  = help: add #[sk(\"...\")], or make it a global index", ix.name));
                    continue;
                }
                let Some(sk_tpl) = &ix.sk else {
                    cx.error(ix.name_span, format!("DYNA109: local index `{}` has no sort key\n  = help: add `sk = \"...\"`", ix.name));
                    continue;
                };
                let Some(table_pk) = table_pk else { continue };
                let Some(sk) = ctx.key(
                    sk_tpl,
                    true,
                    KeyKind::Local,
                    sk_attr,
                    format!("{sn}_sk"),
                    Some(ix.name.clone()),
                ) else {
                    continue;
                };
                let mut pk = table_pk.clone();
                pk.kind = KeyKind::Local;
                pk.fn_name = format!("{sn}_pk");
                pk.index = Some(ix.name.clone());
                let (projection, pk, sk) = projected(ctx, ix, pk, Some(sk));
                IndexModel {
                    name: ix.name.clone(),
                    kind: KeyKind::Local,
                    pk,
                    sk,
                    sparse: ix.sparse,
                    snake: sn,
                    projection,
                }
            }
        };
        // DYNA106 on the index.
        let inputs: Vec<&Field> = model
            .pk
            .fields()
            .chain(model.sk.iter().flat_map(|k| k.fields()))
            .map(|i| &ctx.fields[i])
            .collect();
        if model.sparse {
            if !inputs.iter().any(|f| f.may_be_absent()) {
                let tpl = ix.sk.as_ref().or(ix.pk.as_ref());
                let msg = format!("DYNA106: index `{}` is sparse, but none of its inputs can be absent, so every item would be in it\n  = help: make an input an Option (or #[dynamo(omit_empty)] on a string), or drop `sparse`", ix.name);
                cx.error(tpl.map(|t| t.span).unwrap_or(ix.name_span), msg);
            }
        } else {
            let what = format!("index `{}` is not sparse and", ix.name);
            if model.kind == KeyKind::Global {
                if let Some(t) = &ix.pk {
                    ctx.no_optional(t, &model.pk, &what);
                }
            }
            if let (Some(t), Some(k)) = (&ix.sk, &model.sk) {
                ctx.no_optional(t, k, &what);
            }
        }
        out.push(model);
    }
    if gsis > MAX_GSI {
        cx.error(ctx.ident.span(), format!("DYNA111: `{}` declares {gsis} global indexes; DynamoDB allows {MAX_GSI} per table\n  = help: overload one index for several access patterns", ctx.ident));
    }
    if lsis > MAX_LSI {
        cx.error(
            ctx.ident.span(),
            format!(
                "DYNA111: `{}` declares {lsis} local indexes; DynamoDB allows {MAX_LSI} per table",
                ctx.ident
            ),
        );
    }
    out
}

/// An index name as the snake-case part of identifiers (`GSI1` → `gsi1`).
fn snake(name: &str) -> String {
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

/// The index's projection, and its keys marked partial when it does not
/// hold whole items.
fn projected(
    ctx: &KeyCtx<'_>,
    ix: &crate::attr::RawIndex,
    mut pk: KeyModel,
    mut sk: Option<KeyModel>,
) -> (Projection, KeyModel, Option<KeyModel>) {
    let projection = super::projection::projection(ctx.cx, ix.projection.as_ref(), ctx.fields);
    let partial = projection != Projection::All;
    pk.partial = partial;
    if let Some(k) = &mut sk {
        k.partial = partial;
    }
    (projection, pk, sk)
}
