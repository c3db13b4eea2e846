//! A table's lists: each entity listed once (DYNA301), and each entity of
//! an `overlap(A, B)` one of the table's (DYNA112). The entities' keys and
//! indexes are checked against each other at `table_step!` (`tablecheck`).

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

fn name(p: &syn::Path) -> String {
    p.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}
