//! The stored names of a value enum's variants: text a key can hold
//! (DYNA109), one per variant (DYNA112).

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::Value;

pub fn check_variant_names(cx: &Ctxt, v: &Value) {
    let Value::Enum { variants, .. } = v else {
        return;
    };
    for (i, (variant, name)) in variants.iter().enumerate() {
        // Any other text is fine in a key: the template escapes what sorts
        // at or below its delimiter.
        if name.is_empty() || name.chars().any(dynakey_core::template::forbidden_raw) {
            cx.report(variant.span(), Code::Shape.msg("a variant's stored name must be non-empty text without control characters or U+10FFFF"));
        }
        if let Some((other, _)) = variants[..i].iter().find(|(_, n)| n == name) {
            cx.report(
                variant.span(),
                Code::Options
                    .msg(format!(
                        "variants `{other}` and `{variant}` are both stored as {name:?}"
                    ))
                    .help("rename one"),
            );
        }
    }
}
