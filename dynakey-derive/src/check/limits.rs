//! Limits of one key (DYNA111; the limits on indexes are checked where the
//! indexes are read): a key template holds at most 16 fields, so that the
//! typed update's checks of a key (DYNA226) stay one bound over them.

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::Entity;

pub const MAX_KEY_FIELDS: usize = 16;

pub fn check_limits(cx: &Ctxt, e: &Entity) {
    for k in e.templates() {
        let n = k.distinct_fields().len();
        if n > MAX_KEY_FIELDS {
            k.tpl.report(cx, Code::Limits.msg(format!("the template has {n} fields; a key holds at most {MAX_KEY_FIELDS}")).help("keep fewer fields in the key: a value the key does not sort or select by can stay an attribute"), 0..k.tpl.text.len());
        }
    }
}
