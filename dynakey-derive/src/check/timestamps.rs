//! Timestamps the runtime writes: the type they take and no other role
//! (DYNA113), one field each (DYNA114), and none in a key (DYNA116).

use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use crate::diag::render::placeholder;
use crate::diag::Code;
use crate::model::{Entity, Field, FieldRole, Stamp};
use crate::types::TypeKind;

pub fn check_timestamps(cx: &Ctxt, e: &Entity) {
    for (_, f) in e.struct_fields() {
        if let Some(s) = f.stamp {
            stamp_type(cx, f, s);
        }
    }
    for s in [Stamp::Created, Stamp::Updated] {
        let marked: Vec<&Field> = e.fields.iter().filter(|f| f.stamp == Some(s)).collect();
        if let [first, rest @ ..] = &marked[..] {
            for f in rest {
                let m = marker(s);
                cx.report(
                    f.span,
                    Code::DuplicateTimestamp
                        .msg(format!(
                            "a second #[dynamo({m})] field, `{}`; `{}` is the first",
                            f.name.text, first.name.text
                        ))
                        .help(format!(
                            "an entity has one {m} field: drop the marker from one of them"
                        )),
                );
            }
        }
    }
    for k in e.templates() {
        for f in e.fields.iter().filter(|f| f.stamp.is_some()) {
            let Some(range) = placeholder(&k.tpl.text, &f.name.text) else {
                continue;
            };
            let m = marker(f.stamp.expect("filtered"));
            let name = &f.name.text;
            k.tpl.report(cx, Code::TimestampInKey.msg(format!("`{name}` is #[dynamo({m})], which the runtime writes, so it cannot feed a key")).help(format!("a key is built from the value before the write sets the time: key on another field (a v7 uuid sorts by creation time), or drop #[dynamo({m})] and set `{name}` yourself")), range);
        }
    }
}

fn marker(s: Stamp) -> &'static str {
    match s {
        Stamp::Created => "created_at",
        Stamp::Updated => "updated_at",
    }
}

fn stamp_type(cx: &Ctxt, f: &Field, s: Stamp) {
    let m = marker(s);
    let name = &f.name.text;
    if f.kind != TypeKind::DateTime {
        let ty = f.ty_text.clone();
        cx.report(f.ty.span(), Code::TimestampType.msg(format!("#[dynamo({m})] on `{name}` takes a time::OffsetDateTime or Option<time::OffsetDateTime>, not `{ty}`")).help(format!("declare `{name}: Option<time::OffsetDateTime>`: the runtime writes the time of the write, as RFC 3339 text")));
    } else if f.role != FieldRole::Plain {
        let r = f.role.word();
        cx.report(f.span, Code::TimestampType.msg(format!("#[dynamo({m})] on `{name}`, which is also #[dynamo({r})]")).help(format!("the runtime writes a timestamp as RFC 3339 text; drop `{r}` (a TTL is its own field)")));
    }
}
