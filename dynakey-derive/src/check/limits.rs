//! Limits (DYNA111): DynamoDB's indexes per table, and a key template of
//! at most 16 fields, so that the typed update's checks of a key (DYNA226)
//! stay one bound over them.

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, KeyKind};

const MAX_KEY_FIELDS: usize = 16;
const MAX_GSI: usize = 20;
const MAX_LSI: usize = 5;

pub fn check_limits(cx: &Ctxt, e: &Entity) {
    let entity = &e.ident;
    let of = |kind| {
        let templates = e.indexes.iter().filter(|ix| ix.kind == kind).count();
        templates + e.natives.iter().filter(|n| n.kind == kind).count()
    };
    let (gsis, lsis) = (of(KeyKind::Global), of(KeyKind::Local));
    if gsis > MAX_GSI {
        cx.report(entity.span(), Code::Limits.msg(format!("`{entity}` declares {gsis} global indexes; DynamoDB allows {MAX_GSI} per table")).help("overload one index for several access patterns"));
    }
    if lsis > MAX_LSI {
        cx.report(
            entity.span(),
            Code::Limits
                .msg(format!(
                    "`{entity}` declares {lsis} local indexes; DynamoDB allows {MAX_LSI} per table"
                ))
                .help("move an access pattern to a global index"),
        );
    }
    for k in e.templates() {
        let n = k.distinct_fields().len();
        if n > MAX_KEY_FIELDS {
            k.tpl.report(cx, Code::Limits.msg(format!("the template has {n} fields; a key holds at most {MAX_KEY_FIELDS}")).help("keep fewer fields in the key: a value the key does not sort or select by can stay an attribute"), 0..k.tpl.text.len());
        }
    }
}
