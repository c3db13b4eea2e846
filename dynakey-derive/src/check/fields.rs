//! Fields: their role (one of `omit_empty`, `skip`, `serde`, `ttl`,
//! `version`, or none) and the types those roles take (DYNA112).

use syn::spanned::Spanned;

use crate::attr;
use crate::ctxt::Ctxt;
use crate::model::{DefaultValue, Field, FieldRole};
use crate::types::{self, TypeKind};

pub fn fields(cx: &Ctxt, named: &syn::FieldsNamed) -> Vec<Field> {
    let mut out = Vec::new();
    for f in &named.named {
        let opts = attr::field(cx, f);
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let (inner, optional) = match types::option_inner(&f.ty) {
            Some(t) => (t.clone(), true),
            None => (f.ty.clone(), false),
        };
        let kind = types::kind(&inner);
        let name = ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
        let roles: Vec<(FieldRole, &str)> = [
            (
                opts.omit_empty.is_present(),
                FieldRole::OmitEmpty,
                "omit_empty",
            ),
            (opts.skip.is_present(), FieldRole::Skip, "skip"),
            (opts.serde.is_present(), FieldRole::Serde, "serde"),
            (opts.ttl.is_present(), FieldRole::Ttl, "ttl"),
            (opts.version.is_present(), FieldRole::Version, "version"),
        ]
        .into_iter()
        .filter(|(on, _, _)| *on)
        .map(|(_, r, n)| (r, n))
        .collect();
        if roles.len() > 1 {
            let names: Vec<String> = roles.iter().map(|(_, n)| format!("`{n}`")).collect();
            cx.error(
                f.span(),
                format!(
                    "DYNA112: field `{name}` is {}, which cannot go together\n  = help: a field has one of omit_empty, skip, serde, ttl and version",
                    names.join(" and ")
                ),
            );
        }
        let role = roles.first().map_or(FieldRole::Plain, |(r, _)| *r);
        if let (FieldRole::Skip, Some(r)) = (role, &opts.rename) {
            cx.error(r.span(), format!("DYNA112: field `{name}` is #[dynamo(skip)] and renamed\n  = help: a skipped field is not stored; drop `rename`"));
        }
        if role == FieldRole::Ttl && kind != TypeKind::DateTime {
            cx.error(f.ty.span(), format!("DYNA112: #[dynamo(ttl)] on `{name}` takes a time::OffsetDateTime or Option<time::OffsetDateTime>\n  = help: the TTL attribute is stored as epoch seconds"));
        }
        if role == FieldRole::Version && (kind != TypeKind::Int || optional) {
            cx.error(f.ty.span(), format!("DYNA112: #[dynamo(version)] on `{name}` takes a plain integer field (u64 is usual)\n  = help: the version starts at 0 for a new item and grows by one with every put or update"));
        }
        let default = opts.default.as_ref().map(|d| match &**d {
            darling::util::Override::Inherit => DefaultValue::Trait,
            darling::util::Override::Explicit(p) => DefaultValue::Path(p.clone()),
        });
        if let Some(d) = &opts.default {
            if optional
                || matches!(
                    role,
                    FieldRole::Skip | FieldRole::Version | FieldRole::OmitEmpty
                )
            {
                cx.error(d.span(), format!("DYNA112: #[dynamo(default)] on `{name}`, which already reads as absent or default\n  = help: an `Option`, `omit_empty`, `skip` or `version` field needs no default"));
            }
        }
        let stamp = super::rules::stamp(cx, f, &opts, &name, role, kind);
        if opts.unique.is_present() {
            super::rules::unique_type(cx, f, &name, role, kind);
        }
        out.push(Field {
            validate: opts.validate.clone(),
            stamp,
            unique: opts.unique.is_present(),
            attr: opts
                .rename
                .as_ref()
                .map(|r| r.as_str().to_owned())
                .unwrap_or_else(|| name.clone()),
            ident,
            ty: f.ty.clone(),
            inner,
            optional,
            kind,
            role,
            default,
            span: f.span(),
        });
    }
    out
}
