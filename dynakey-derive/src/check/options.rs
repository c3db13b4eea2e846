//! Options over the whole model (DYNA112): an entity takes one `version`
//! field and one `ttl` field, and a nested value's fields take none of the
//! options only an entity's fields have. (Options of one field that cannot
//! go together are reported where the field is read, in `model`.)

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, Value};
use crate::types::TypeKind;

pub fn check_options(cx: &Ctxt, e: &Entity) {
    for (_, f) in e.struct_fields() {
        if f.ttl() && f.kind != TypeKind::DateTime {
            cx.report(f.ty_span, Code::Options.msg(format!("#[dynamo(ttl)] on `{}` takes a time::OffsetDateTime or Option<time::OffsetDateTime>", f.name.text)).help("the TTL attribute is stored as epoch seconds"));
        }
        if f.version() && (f.kind != TypeKind::Int || f.optional) {
            cx.report(f.ty_span, Code::Options.msg(format!("#[dynamo(version)] on `{}` takes a plain integer field (u64 is usual)", f.name.text)).help("the version starts at 0 for a new item and grows by one with every put or update"));
        }
        if let (true, Some(span)) = (f.skip(), f.rename_span) {
            cx.report(
                span,
                Code::Options
                    .msg(format!(
                        "field `{}` is #[dynamo(skip)] and renamed",
                        f.name.text
                    ))
                    .help("a skipped field is not stored; drop `rename`"),
            );
        }
        if let Some(span) = f.default_span {
            if f.optional || f.skip() || f.version() || f.omit_empty() {
                cx.report(
                    span,
                    Code::Options
                        .msg(format!(
                            "#[dynamo(default)] on `{}`, which already reads as absent or default",
                            f.name.text
                        ))
                        .help(
                            "an `Option`, `omit_empty`, `skip` or `version` field needs no default",
                        ),
                );
            }
        }
    }
    if e.fields.iter().filter(|f| f.version()).count() > 1 {
        cx.report(
            e.ident.span(),
            Code::Options
                .msg("more than one #[dynamo(version)] field")
                .help("an entity has one version attribute"),
        );
    }
    if e.fields.iter().filter(|f| f.ttl()).count() > 1 {
        cx.report(
            e.ident.span(),
            Code::Options
                .msg("more than one #[dynamo(ttl)] field")
                .help("a table has one TTL attribute"),
        );
    }
}

/// Options of a nested value's fields that only an entity's fields take
/// (DYNA112).
pub fn check_value_options(cx: &Ctxt, v: &Value) {
    let Value::Struct { fields, .. } = v else {
        return;
    };
    for f in fields
        .iter()
        .filter(|f| f.serde() || f.ttl() || f.version())
    {
        cx.report(f.span, Code::Options.msg(format!("field `{}`: #[dynamo(serde)], #[dynamo(ttl)] and #[dynamo(version)] are for entity fields, not nested values", f.name.text)));
    }
    for f in fields
        .iter()
        .filter(|f| f.stamp.is_some() || f.unique || f.validate.is_some())
    {
        cx.report(f.span, Code::Options.msg(format!("field `{}`: #[dynamo(created_at)], #[dynamo(updated_at)], #[dynamo(unique)] and #[dynamo(validate)] are for entity fields, not nested values", f.name.text)).help("validate a nested value in its entity's validator, #[dynamo(validate = ..)] on the entity"));
    }
}
