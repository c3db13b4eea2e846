//! Inputs that may be absent (DYNA106): an `Option` feeds only a sparse
//! index, and a sparse index has an input that may be absent.

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, KeyKind, KeyModel, Part};

pub fn check_optional(cx: &Ctxt, e: &Entity) {
    no_optional(cx, e, &e.pk, "the table key");
    if let Some(sk) = &e.sk {
        no_optional(cx, e, sk, "the table key");
    }
    for ix in &e.indexes {
        let keys = ix.written_keys();
        if ix.sparse {
            let absent = keys
                .iter()
                .flat_map(|k| k.fields())
                .any(|f| e.fields[f].may_be_absent() || e.fields[f].synthetic);
            if !absent {
                let k = keys.last().expect("an index has a key");
                cx.report(k.tpl.span, Code::OptionalInput.msg(format!("index `{}` is sparse, but none of its inputs can be absent, so every item would be in it", ix.name)).help("make an input an Option (or #[dynamo(omit_empty)] on a string), or drop `sparse`"));
            }
        } else {
            let what = format!("index `{}` is not sparse and", ix.name);
            for k in keys {
                no_optional(cx, e, k, &what);
            }
        }
    }
}

fn no_optional(cx: &Ctxt, e: &Entity, key: &KeyModel, what: &str) {
    for part in &key.parts {
        let Part::Field { field, range, .. } = part else {
            continue;
        };
        let f = &e.fields[*field];
        if !f.optional {
            continue;
        }
        let name = &f.name.text;
        let help = if key.kind == KeyKind::Table {
            format!("a table key needs every input: make `{name}` a plain (non-Option) field")
        } else {
            "mark the index `sparse` so an item with no value stays out of it, or make the field required".to_owned()
        };
        key.tpl.report(
            cx,
            Code::OptionalInput
                .msg(format!(
                    "`{name}` is an Option, but {what} needs a value for every item"
                ))
                .help(help),
            range.clone(),
        );
    }
}
