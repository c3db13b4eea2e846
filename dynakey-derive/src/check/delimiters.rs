//! Delimiters and literals, so that text order is value order (DYNA115):
//! the literal after a field of varying width starts with a delimiter that
//! sorts below digits and letters (`#`, `-`, `.`, `/`, `!`, a space…), and
//! no literal character sorts below the lowest delimiter. Escaping then
//! keeps every character of a value above its delimiter. After a
//! fixed-width field any character may follow. A literal holds no control
//! character and no U+10FFFF (DYNA100).

use dynakey_core::template::{forbidden_raw, is_delimiter};

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, Field, KeyModel, Part};
use crate::template::Format;
use crate::types::TypeKind;

pub fn check_delimiters(cx: &Ctxt, e: &Entity) {
    for k in e.templates() {
        check_key(cx, &e.fields, k);
    }
}

/// Whether a field's text varies in width (so it is escaped and ended by
/// its delimiter). Types the derive cannot classify count as varying: the
/// stricter rule.
fn varies(f: &Field, format: Format) -> bool {
    !format.fixed_width() && !matches!(f.kind, TypeKind::Uuid | TypeKind::Date | TypeKind::DateTime)
}

fn check_key(cx: &Ctxt, fields: &[Field], k: &KeyModel) {
    let tpl = &k.tpl;
    // (delimiter, where, after which field)
    let mut delims = Vec::new();
    for (i, part) in k.parts.iter().enumerate() {
        if let (Part::Field { field, format, .. }, Some(Part::Lit { text, range })) =
            (part, k.parts.get(i + 1))
        {
            let f = &fields[*field];
            if !varies(f, *format) {
                continue;
            }
            if let Some(d) = text.chars().next() {
                delims.push((d, range.start, f.name.text.clone()));
            }
        }
    }
    for (d, at, name) in &delims {
        if !is_delimiter(*d) {
            tpl.report(cx, Code::DelimiterOrder.msg(format!("the delimiter `{d}` after `<{name}>` sorts above digits, so values holding digits (or letters) sort out of the order of the fields")).help("start the literal after a text field with a character below `0`, such as `#`; any character may follow a fixed-width field (`d6`, `n4`, a date, a uuid)"), *at..*at + d.len_utf8());
        }
    }
    let lowest = delims.iter().map(|(d, _, _)| *d).min();
    for part in &k.parts {
        let Part::Lit { text, range } = part else {
            continue;
        };
        for (off, c) in text.char_indices() {
            let at = range.start + off;
            let culprit = at..at + c.len_utf8();
            if forbidden_raw(c) {
                tpl.report(
                    cx,
                    Code::TemplateSyntax
                        .msg(format!("the literal holds {c:?}, which a key cannot hold"))
                        .help("use printable characters in key literals"),
                    culprit,
                );
            } else if let Some(lowest) = lowest.filter(|l| c < *l) {
                tpl.report(cx, Code::DelimiterOrder.msg(format!("the literal holds {c:?}, which sorts below the delimiter `{lowest}`, so keys sort out of the order of their fields")).help(format!("use only characters above `{lowest}` in literals, or a lower delimiter")), culprit);
            }
        }
    }
}
