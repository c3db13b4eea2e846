//! What an index holds: `projection = "ALL" | "KEYS_ONLY" | "INCLUDE(a, b)"`
//! on `#[gsi(..)]` / `#[lsi(..)]`, the included names resolved to stored
//! fields (DYNA118: another form, or a name of no stored field).

use super::stored_field_help;
use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Field, Projection, TemplateLit};

pub fn projection(cx: &Ctxt, tpl: Option<&TemplateLit>, fields: &[Field]) -> Projection {
    let Some(t) = tpl else {
        return Projection::All;
    };
    let text = t.text.as_str();
    match text.trim() {
        "ALL" => return Projection::All,
        "KEYS_ONLY" => return Projection::KeysOnly,
        _ => {}
    }
    let body = text
        .trim_end()
        .strip_suffix(')')
        .and_then(|s| s.trim_start().strip_prefix("INCLUDE("));
    let Some(body) = body else {
        t.report(
            cx,
            Code::Projection
                .msg("an index projection is `ALL`, `KEYS_ONLY` or `INCLUDE(field, ..)`")
                .fix(),
            0..text.len(),
        );
        return Projection::All;
    };
    let start = text.find('(').map_or(0, |i| i + 1);
    let mut out = Vec::new();
    let mut at = start;
    for part in body.split(',') {
        let name = part.trim();
        let from = at + (part.len() - part.trim_start().len());
        at += part.len() + 1;
        let stored = fields
            .iter()
            .position(|f| f.name.text == name && f.stored());
        match stored {
            Some(i) if !out.contains(&i) => out.push(i),
            Some(_) => {}
            None => {
                let help = stored_field_help(name, fields);
                let range = from..(from + name.len()).max(from + 1).min(text.len());
                t.report(
                    cx,
                    Code::Projection
                        .msg(format!(
                            "the projection includes `{name}`, which is no stored field"
                        ))
                        .help(help),
                    range,
                );
            }
        }
    }
    Projection::Include(out)
}
