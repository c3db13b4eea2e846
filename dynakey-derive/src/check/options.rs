//! Options that an entity takes once (DYNA112): one `version` field, one
//! `ttl` field. (Options of one field that cannot go together are reported
//! where the field is read, in `fields`.)

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::Entity;

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
