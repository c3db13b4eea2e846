//! Keys that could not be parsed back into their fields (DYNA105): two
//! placeholders with no literal between them, and a `path` field (which
//! may hold any text) followed by more of the template.

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, Part};
use crate::template::Format;

pub fn check_parse_back(cx: &Ctxt, e: &Entity) {
    for k in e.templates() {
        let name = |f: usize| &e.fields[f].name.text;
        for (i, part) in k.parts.iter().enumerate() {
            let Part::Field {
                field,
                format,
                range,
                ..
            } = part
            else {
                continue;
            };
            if let Some(Part::Field { field: prev, .. }) = i.checked_sub(1).map(|j| &k.parts[j]) {
                let (prev, this) = (name(*prev), name(*field));
                k.tpl.report(cx, Code::AmbiguousParts.msg(format!("`<{prev}>` and `<{this}>` have no literal between them, so the key cannot be parsed back")).help(format!("put a delimiter between them, as in `<{prev}>#<{this}>`")), range.clone());
            }
            if *format == Format::Path && i + 1 < k.parts.len() {
                k.tpl.report(cx, Code::AmbiguousParts.msg(format!("`<{}:path>` is followed by more of the template, so the key cannot be parsed back: a path may hold any text", name(*field))).help("end the template with the `path` field, or drop `:path` so the value is escaped"), range.clone());
            }
        }
    }
}
