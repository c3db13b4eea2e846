//! Data rules: timestamps the runtime writes (DYNA113 type, DYNA114 one
//! field each, DYNA116 not in a key) and unique fields (DYNA117).

use syn::spanned::Spanned;

use crate::attr::{RawKeys, TemplateLit};
use crate::ctxt::Ctxt;
use crate::model::{Field, FieldRole, Stamp};
use crate::render::placeholder;
use crate::types::TypeKind;

use super::diag;

fn role_name(r: FieldRole) -> &'static str {
    match r {
        FieldRole::Plain => "plain",
        FieldRole::OmitEmpty => "omit_empty",
        FieldRole::Skip => "skip",
        FieldRole::Serde => "serde",
        FieldRole::Ttl => "ttl",
        FieldRole::Version => "version",
    }
}

fn marker(s: Stamp) -> &'static str {
    match s {
        Stamp::Created => "created_at",
        Stamp::Updated => "updated_at",
    }
}

/// The timestamp a field is marked with, checked (DYNA113, DYNA114).
pub fn stamp(
    cx: &Ctxt,
    f: &syn::Field,
    opts: &crate::attr::FieldOpts,
    name: &str,
    role: FieldRole,
    kind: TypeKind,
) -> Option<Stamp> {
    let (created, updated) = (opts.created_at.is_present(), opts.updated_at.is_present());
    if created && updated {
        cx.error(f.span(), format!("DYNA114: field `{name}` is marked both #[dynamo(created_at)] and #[dynamo(updated_at)]\n  = help: keep each timestamp in its own field: `created_at: Option<time::OffsetDateTime>` and `updated_at: Option<time::OffsetDateTime>`"));
    }
    let stamp = if created {
        Stamp::Created
    } else if updated {
        Stamp::Updated
    } else {
        return None;
    };
    let m = marker(stamp);
    if kind != TypeKind::DateTime {
        let ty = &f.ty;
        let ty = quote::quote!(#ty).to_string().replace(' ', "");
        cx.error(f.ty.span(), format!("DYNA113: #[dynamo({m})] on `{name}` takes a time::OffsetDateTime or Option<time::OffsetDateTime>, not `{ty}`\n  = help: declare `{name}: Option<time::OffsetDateTime>`: the runtime writes the time of the write, as RFC 3339 text"));
    } else if role != FieldRole::Plain {
        let r = role_name(role);
        cx.error(f.span(), format!("DYNA113: #[dynamo({m})] on `{name}`, which is also #[dynamo({r})]\n  = help: the runtime writes a timestamp as RFC 3339 text; drop `{r}` (a TTL is its own field)"));
    }
    Some(stamp)
}

/// The types a unique field takes (DYNA117): values whose text is one per
/// value.
pub fn unique_type(cx: &Ctxt, f: &syn::Field, name: &str, role: FieldRole, kind: TypeKind) {
    let ok_kind = matches!(
        kind,
        TypeKind::String
            | TypeKind::Int
            | TypeKind::Uuid
            | TypeKind::Date
            | TypeKind::DateTime
            | TypeKind::Bool
    );
    if !ok_kind {
        let ty = &f.ty;
        let ty = quote::quote!(#ty).to_string().replace(' ', "");
        cx.error(f.ty.span(), format!("DYNA117: #[dynamo(unique)] on `{name}` of type `{ty}`, whose stored text is not one per value\n  = help: a unique field is a string, an integer, a uuid, a date, an instant or a bool (or an Option of one); keep a normalized string beside it and mark that unique"));
    } else if !matches!(role, FieldRole::Plain | FieldRole::OmitEmpty) {
        let r = role_name(role);
        cx.error(f.span(), format!("DYNA117: #[dynamo(unique)] on `{name}`, which is #[dynamo({r})]\n  = help: a unique value is stored as its own attribute; drop `{r}`"));
    }
}

/// Across fields: one field per timestamp (DYNA114), timestamps out of
/// keys (DYNA116), unique fields out of the table key (DYNA117).
pub fn entity(cx: &Ctxt, fields: &[Field], raw: &RawKeys) {
    for s in [Stamp::Created, Stamp::Updated] {
        let marked: Vec<&Field> = fields.iter().filter(|f| f.stamp == Some(s)).collect();
        if let [first, rest @ ..] = &marked[..] {
            for f in rest {
                let m = marker(s);
                cx.error(f.span, format!("DYNA114: a second #[dynamo({m})] field, `{}`; `{}` is the first\n  = help: an entity has one {m} field: drop the marker from one of them", f.name(), first.name()));
            }
        }
    }
    let mut tpls: Vec<&TemplateLit> = raw.pk.iter().chain(raw.sk.iter()).collect();
    for ix in &raw.indexes {
        tpls.extend(ix.pk.iter().chain(ix.sk.iter()));
    }
    for f in fields {
        let name = f.name();
        let table_key = raw.pk.iter().chain(raw.sk.iter());
        for t in &tpls {
            let Some(range) = placeholder(&t.text, &name) else {
                continue;
            };
            if let Some(s) = f.stamp {
                let m = marker(s);
                diag(cx, t, "DYNA116", format!("`{name}` is #[dynamo({m})], which the runtime writes, so it cannot feed a key"), range.clone(), Some(format!("a key is built from the value before the write sets the time: key on another field (a v7 uuid sorts by creation time), or drop #[dynamo({m})] and set `{name}` yourself")));
            }
        }
        if f.unique {
            for t in table_key {
                if let Some(range) = placeholder(&t.text, &name) {
                    diag(cx, t, "DYNA117", format!("`{name}` is #[dynamo(unique)] and part of the table key, which is one item per value already"), range, Some(format!("drop #[dynamo(unique)] from `{name}`")));
                }
            }
        }
    }
}
