//! Options over the whole model (DYNA112): an entity takes one `version`
//! field and one `ttl` field, and a nested value's fields take none of the
//! options only an entity's fields have. (Options of one field that cannot
//! go together are reported where the field is read, in `model`.)

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, Field};

pub fn check_options(cx: &Ctxt, e: &Entity) {
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
pub fn check_value_options(cx: &Ctxt, fields: &[Field]) {
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
