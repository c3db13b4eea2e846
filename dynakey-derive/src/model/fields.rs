//! The fields of a struct into field models: each one's role (one of
//! `omit_empty`, `skip`, `serde`, `ttl`, `version`, or none) and its other
//! options. A field model holds one role and one timestamp, so two roles
//! (DYNA112) or both timestamps (DYNA114) are reported here; the rules over
//! a field's options are checks (`check/options.rs`, `check/timestamps.rs`).

use syn::spanned::Spanned;

use crate::attr;
use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{DefaultValue, Field, FieldRole, Stamp};
use crate::types;
use crate::unraw::Name;

pub fn fields(cx: &Ctxt, named: &syn::FieldsNamed) -> Vec<Field> {
    let mut out = Vec::new();
    for f in &named.named {
        let opts = attr::field(cx, f);
        let Some(ident) = f.ident.as_ref() else {
            continue;
        };
        let name = Name::new(ident);
        let (inner, optional) = match types::option_inner(&f.ty) {
            Some(t) => (t.clone(), true),
            None => (f.ty.clone(), false),
        };
        let kind = types::kind(&inner);
        let role = role(cx, f, &opts, &name.text);
        let default = opts.default.as_ref().map(|d| match &**d {
            darling::util::Override::Inherit => DefaultValue::Trait,
            darling::util::Override::Explicit(p) => DefaultValue::Path(p.clone()),
        });
        let stamp = match (opts.created_at.is_present(), opts.updated_at.is_present()) {
            (true, true) => {
                cx.report(f.span(), Code::DuplicateTimestamp.msg(format!("field `{}` is marked both #[dynamo(created_at)] and #[dynamo(updated_at)]", name.text)).help("keep each timestamp in its own field: `created_at: Option<time::OffsetDateTime>` and `updated_at: Option<time::OffsetDateTime>`"));
                Some(Stamp::Created)
            }
            (true, false) => Some(Stamp::Created),
            (false, true) => Some(Stamp::Updated),
            (false, false) => None,
        };
        out.push(Field {
            attr: opts
                .rename
                .as_ref()
                .map(|r| r.as_str().to_owned())
                .unwrap_or_else(|| name.text.clone()),
            name,
            ty_span: f.ty.span(),
            inner_span: inner.span(),
            ty_text: Field::type_text(&f.ty),
            ty: f.ty.clone(),
            inner,
            optional,
            kind,
            role,
            default,
            default_span: opts.default.as_ref().map(|d| d.span()),
            rename_span: opts.rename.as_ref().map(|r| r.span()),
            validate: opts.validate.clone(),
            stamp,
            unique: opts.unique.is_some(),
            unique_scope: match &opts.unique {
                Some(darling::util::Override::Explicit(u)) => u.scope.clone(),
                _ => None,
            },
            span: f.span(),
            synthetic: false,
        });
    }
    out
}

/// The one role of a field; two roles are DYNA112.
fn role(cx: &Ctxt, f: &syn::Field, opts: &attr::FieldOpts, name: &str) -> FieldRole {
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
        cx.report(
            f.span(),
            Code::Options
                .msg(format!(
                    "field `{name}` is {}, which cannot go together",
                    names.join(" and ")
                ))
                .help("a field has one of omit_empty, skip, serde, ttl and version"),
        );
    }
    let role = roles.first().map_or(FieldRole::Plain, |(r, _)| *r);
    role
}
