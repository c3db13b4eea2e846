//! A table's own options: each entity listed once (DYNA301), each entity
//! of an `overlap(A, B)` one of the table's (DYNA112), and a schema
//! snapshot named with `schema = ".."` that exists and reads (DYNA500). The
//! entities' keys and indexes are checked against each other and against
//! the snapshot at `table_step!` (`tablecheck`).

use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::Table;

pub fn check_lists(cx: &Ctxt, t: &Table) {
    let (ident, entities) = (&t.ident, &t.entities);
    for (i, a) in entities.iter().enumerate() {
        if entities[..i].iter().any(|b| b == a) {
            cx.report(
                a.span(),
                Code::SameDiscriminator
                    .msg(format!("`{}` is listed twice in table `{ident}`", name(a)))
                    .help("list each entity once"),
            );
        }
    }
    for (a, b) in &t.overlaps {
        for p in [a, b] {
            if !entities.contains(p) {
                cx.report(
                    p.span(),
                    Code::Options
                        .msg(format!(
                            "`{}` in `overlap` is not an entity of table `{ident}`",
                            name(p)
                        ))
                        .help("list it in `entities(..)`, or drop it from `overlap`"),
                );
            }
        }
    }
}

/// `schema = ".."` names a snapshot that exists and reads as one.
pub fn check_snapshot(cx: &Ctxt, t: &Table) {
    let (ident, schema_path) = (&t.ident, &t.schema_path);
    if let Some(lit) = &t.schema_lit {
        match std::fs::read_to_string(schema_path) {
            Ok(text) => {
                if let Err(e) = dynakey_core::snapshot::parse(&text) {
                    cx.report(lit.span(), Code::Snapshot.msg(format!("the schema snapshot {} of table `{ident}` could not be read: {e}", lit.value())).help("rewrite it from the code with `DYNAKEY_SCHEMA=overwrite cargo test`"));
                }
            }
            Err(e) => cx.report(lit.span(), Code::Snapshot.msg(format!("the schema snapshot {} of table `{ident}` does not exist ({schema_path}: {e})", lit.value())).help(format!("the path is relative to the file that holds #[derive(DynamoTable)], as `include_str!` reads it; write the snapshot with `DYNAKEY_SCHEMA=overwrite cargo test`, or drop `schema` for the default `dynakey/{ident}.schema` in the crate"))),
        }
    }
}

fn name(p: &syn::Path) -> String {
    p.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}
