//! A table's own options: each entity listed once (DYNA301), each entity
//! of an `overlap(A, B)` one of the table's (DYNA112), and a schema
//! snapshot that reads: one named with `schema = ".."` exists, and the
//! default `dynakey/<Table>.schema`, when present, parses (DYNA500). The
//! entities' keys and indexes are checked against each other and against
//! the snapshot at `table_step!` (`tablecheck`).

use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use crate::diag::{Code, Message};
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

/// `schema = ".."` names a snapshot that exists and reads as one; the
/// default `dynakey/<Table>.schema` may be absent (no snapshot yet), but
/// one that is there must read, or the drift checks would be off unseen.
pub fn check_snapshot(cx: &Ctxt, t: &Table) {
    let span = t.schema_lit.as_ref().map_or(t.ident.span(), |l| l.span());
    if let Some(m) = unreadable(&t.ident, &t.schema_path, t.schema_lit.as_ref()) {
        cx.report(span, m);
    }
}

/// Why the snapshot at `path` cannot be used, if it cannot (`named`: the
/// table's `schema = ".."`, or `None` for the default path).
fn unreadable(ident: &syn::Ident, path: &str, named: Option<&syn::LitStr>) -> Option<Message> {
    let shown = named.map_or_else(|| format!("dynakey/{ident}.schema"), syn::LitStr::value);
    match std::fs::read_to_string(path) {
        Ok(text) => dynakey_core::snapshot::parse(&text).err().map(|e| {
            Code::Snapshot
                .msg(format!("the schema snapshot {shown} of table `{ident}` could not be read: {e}"))
                .help("rewrite it from the code with `DYNAKEY_SCHEMA=overwrite cargo test`")
        }),
        Err(_) if named.is_none() => None,
        Err(e) => Some(Code::Snapshot.msg(format!("the schema snapshot {shown} of table `{ident}` does not exist ({path}: {e})")).help(format!("the path is relative to the file that holds #[derive(DynamoTable)], as `include_str!` reads it; write the snapshot with `DYNAKEY_SCHEMA=overwrite cargo test`, or drop `schema` for the default `dynakey/{ident}.schema` in the crate"))),
    }
}

fn name(p: &syn::Path) -> String {
    p.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::unreadable;
    use crate::diag::Code;

    fn file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("dynakey-derive-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn a_default_snapshot_may_be_absent_but_not_unreadable() {
        let shop = syn::Ident::new("Shop", proc_macro2::Span::call_site());
        assert!(unreadable(&shop, "/nonexistent/dynakey/Shop.schema", None).is_none());

        let broken = file(
            "broken.schema",
            "dynakey-schema 3\ntable Shop\n  key pk \"A",
        );
        let m = unreadable(&shop, &broken, None)
            .expect("a broken default snapshot")
            .render();
        let head = format!(
            "{}: the schema snapshot dynakey/Shop.schema of table `Shop` could not be read",
            Code::Snapshot
        );
        assert!(m.starts_with(&head), "{m}");

        let newer = file("newer.schema", "dynakey-schema 99\n");
        let m = unreadable(&shop, &newer, None)
            .expect("a newer format")
            .render();
        assert!(
            m.contains("format 99") && m.contains("newer dynakey"),
            "{m}"
        );
    }

    #[test]
    fn a_named_snapshot_must_exist() {
        let shop = syn::Ident::new("Shop", proc_macro2::Span::call_site());
        let lit = syn::LitStr::new("missing.schema", proc_macro2::Span::call_site());
        let m = unreadable(&shop, "/nonexistent/missing.schema", Some(&lit))
            .expect("missing")
            .render();
        assert!(
            m.contains("missing.schema of table `Shop` does not exist"),
            "{m}"
        );
    }
}
