//! Drift between a table's committed schema snapshot and its entities
//! (DYNA501–DYNA506): a change that strands stored items is an error
//! unless a migration of the table's `#[dynamo(migrations = PATH)]` covers
//! it. What changed is found here, at expansion, with spans; whether a
//! migration covers it can only be known from the `const` list, so for a
//! table with migrations each change becomes a trait bound on a constant
//! the runtime computes from the list, whose unmet bound carries the
//! change's message (no const-evaluation panic).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::meta::{MetaEntity, MetaKey, Owner};
use crate::ctxt::Ctxt;
use dynakey_core::snapshot::{Entity as SnapEntity, Key as SnapKey};

/// A change that strands stored items, and what would cover it.
struct Drift {
    code: &'static str,
    /// The headline.
    message: String,
    /// The lines that show it (each starting `\n  | `).
    drawing: String,
    help: String,
    /// The runtime's test over the migrations (a `const fn` call taking
    /// the list first).
    covered_by: TokenStream,
    /// What the trait of the check is named after (`OrderSortKey`).
    what: String,
    span: Span,
}

fn rekey(krate: &TokenStream, ty: &str) -> TokenStream {
    quote!(#krate::__private::schema::rekeyed(M, #ty))
}

fn text(k: &MetaKey) -> (String, String) {
    (k.attr.clone(), k.text())
}

/// `was:` / `now:` lines, the new one with a caret at the first difference.
fn was_now(was: Option<(String, String)>, now: Option<(String, String)>) -> String {
    let line = |k: &Option<(String, String)>| match k {
        Some((attr, tpl)) => format!("{attr} = \"{tpl}\""),
        None => "none".to_owned(),
    };
    let (w, n) = (line(&was), line(&now));
    let mut out = format!("\n  | was: {w}\n  | now: {n}");
    if let (Some(_), Some(_)) = (&was, &now) {
        let first = w.chars().zip(n.chars()).take_while(|(a, b)| a == b).count();
        out.push_str(&format!(
            "\n  |      {}^ first difference",
            " ".repeat(first)
        ));
    }
    out
}

const REKEY_HELP: &str = "keep the old struct beside the new one, declare Migration::rekey::<Old, New>(..) in the table's migrations, run db.migrate(..), then rewrite the snapshot (DYNAKEY_SCHEMA=overwrite cargo test)";

fn entity_drifts(
    table: &str,
    krate: &TokenStream,
    e: &MetaEntity,
    was: &SnapEntity,
    span: Span,
    out: &mut Vec<Drift>,
) {
    let name = e.name();
    let head = |code: &str| format!("{code}: in table `{table}`, `{name}` ");
    if was.discriminator != e.disc || was.discriminator_attr != e.disc_attr {
        out.push(Drift {
            code: "DYNA502",
            message: format!(
                "{}changed its discriminator, so typed reads skip every stored item",
                head("DYNA502")
            ),
            drawing: format!(
                "\n  | was: \"{}\" in `{}`\n  | now: \"{}\" in `{}`",
                was.discriminator, was.discriminator_attr, e.disc, e.disc_attr
            ),
            help: REKEY_HELP.into(),
            covered_by: rekey(krate, &name),
            what: format!("{name}Discriminator"),
            span,
        });
    }
    let snap = |k: Option<&SnapKey>| k.map(|k| (k.attr.clone(), k.template.clone()));
    for (which, w, n) in [
        ("partition key", snap(Some(&was.pk)), Some(text(&e.pk))),
        ("sort key", snap(was.sk.as_ref()), e.sk.as_ref().map(text)),
    ] {
        if w != n {
            let what = if which == "sort key" {
                "SortKey"
            } else {
                "PartitionKey"
            };
            out.push(Drift {
                code: "DYNA501",
                message: format!("{}changed its {which}, so every stored item is under a key the code no longer builds or reads", head("DYNA501")),
                drawing: was_now(w, n),
                help: REKEY_HELP.into(),
                covered_by: rekey(krate, &name),
                what: format!("{name}{what}"),
                span,
            });
        }
    }
    for w in &was.indexes {
        let Some(n) = e.indexes.iter().find(|n| n.name == w.name) else {
            continue;
        };
        // A local index's partition key is the table's.
        let (w_pk, w_sk) = w.key_pair();
        let w_pk = snap(Some(w_pk.as_ref().unwrap_or(&was.pk)));
        let w_sk = snap(w_sk.as_ref());
        let (n_pk, n_sk) = (Some(text(&n.pk)), n.sk.as_ref().map(text));
        if w.global == n.global && w_pk == n_pk && w_sk == n_sk {
            continue;
        }
        let drawing = if w_pk == n_pk {
            was_now(w_sk, n_sk)
        } else {
            was_now(w_pk, n_pk)
        };
        let ty = &name;
        out.push(Drift {
            code: "DYNA504",
            message: format!("{}changed index `{}`, so the index keys of stored items are not what the code writes", head("DYNA504"), w.name),
            drawing,
            help: format!("declare Migration::backfill::<{name}>(..) in the table's migrations and run db.migrate(..) (db.sync_table(..) first when the index is new to the table)"),
            covered_by: quote!(#krate::__private::schema::backfilled(M, #ty)),
            what: format!("{name}Index{}", crate::unraw::camel(&w.name)),
            span,
        });
    }
    for n in &e.fields {
        match was.fields.iter().find(|w| w.name == n.name) {
            Some(w) => {
                if w.attr != n.attr {
                    let (from, to, ty) = (&w.attr, &n.attr, &name);
                    out.push(Drift {
                        code: "DYNA503",
                        message: format!("{}stores field `{}` as `{}` where stored items hold `{}`, so they read without it", head("DYNA503"), n.name, n.attr, w.attr),
                        drawing: String::new(),
                        help: format!("declare Migration::rename_attribute::<{name}>(.., \"{from}\", \"{to}\") in the table's migrations and run db.migrate(..)"),
                        covered_by: quote!(#krate::__private::schema::renamed(M, #ty, #from, #to)),
                        what: format!("{name}Attribute{}", crate::unraw::camel(&n.name)),
                        span,
                    });
                }
                if w.ty != n.ty {
                    out.push(Drift {
                        code: "DYNA506",
                        message: format!("{}changed the type of field `{}` from `{}` to `{}`, so stored items may not read", head("DYNA506"), n.name, w.ty, n.ty),
                        drawing: String::new(),
                        help: "keep the old struct and declare Migration::rekey::<Old, New>(..), or keep the type".into(),
                        covered_by: rekey(krate, &name),
                        what: format!("{name}FieldType{}", crate::unraw::camel(&n.name)),
                        span,
                    });
                } else if let Some(was_form) = w
                    .form
                    // A form the snapshot did not record (format 1) is
                    // unknown, not drift.
                    .map(|f| f.word().unwrap_or("own"))
                    .filter(|f| *f != n.form)
                {
                    let stored = |form: &str| match form {
                        "ttl" => "as epoch seconds (#[dynamo(ttl)])",
                        "serde" => "in serde's form (#[dynamo(serde)])",
                        _ => "in its type's own form",
                    };
                    out.push(Drift {
                        code: "DYNA506",
                        message: format!("{}stores field `{}` {} where stored items hold it {}, so they may not read", head("DYNA506"), n.name, stored(&n.form), stored(was_form)),
                        drawing: String::new(),
                        help: "keep the old struct and declare Migration::rekey::<Old, New>(..), or keep how the field is stored".into(),
                        covered_by: rekey(krate, &name),
                        what: format!("{name}FieldForm{}", crate::unraw::camel(&n.name)),
                        span,
                    });
                }
            }
            None if !n.optional && !n.default => out.push(Drift {
                code: "DYNA506",
                message: format!("{}has a new field `{}` that stored items lack, and reading them would fail", head("DYNA506"), n.name),
                drawing: String::new(),
                help: format!("make it an Option, or give it #[dynamo(default)] (and Migration::fill_default::<{name}>(.., \"{}\") to write the default into old items)", n.attr),
                covered_by: rekey(krate, &name),
                what: format!("{name}NewField{}", crate::unraw::camel(&n.name)),
                span,
            }),
            None => {}
        }
    }
}

/// Every drift of the table's entities from the snapshot, reported (no
/// migrations) or checked against the migrations (tokens to emit).
pub fn check(
    cx: &Ctxt,
    owner: &Owner,
    metas: &[MetaEntity],
    snapshot: &[SnapEntity],
) -> TokenStream {
    let table = owner.name.to_string();
    let krate = &owner.krate;
    let mut drifts = Vec::new();
    for w in snapshot {
        // Matched by type name, else by discriminator (an entity renamed
        // in the code, its old shape kept as another struct, is the same
        // stored data).
        let found = metas
            .iter()
            .position(|m| m.name() == w.type_name)
            .or_else(|| metas.iter().position(|m| m.disc == w.discriminator));
        match found {
            Some(i) if metas[i].failed => {}
            Some(i) => {
                let span = owner
                    .entities
                    .get(i)
                    .map_or(owner.name.span(), syn::spanned::Spanned::span);
                entity_drifts(&table, krate, &metas[i], w, span, &mut drifts);
            }
            None => {
                let disc = &w.discriminator;
                drifts.push(Drift {
                    code: "DYNA505",
                    message: format!("DYNA505: table `{table}` no longer lists `{}`, whose stored items (discriminator \"{disc}\") nothing reads any more", w.type_name),
                    drawing: String::new(),
                    help: format!("keep it in the table, or declare Migration::drop_entity(.., \"{disc}\", \"{}\") in the table's migrations and run db.migrate(..)", w.discriminator_attr),
                    covered_by: quote!(#krate::__private::schema::dropped(M, #disc)),
                    what: format!("Removed{}", w.type_name),
                    span: owner.name.span(),
                });
            }
        }
    }
    let mut out = TokenStream::new();
    for d in drifts {
        let Some(migrations) = &owner.migrations else {
            let mut m = d.message.clone();
            if !d.drawing.is_empty() {
                m.push_str("\n  |");
                m.push_str(&d.drawing);
            }
            m.push_str("\n  = help: ");
            m.push_str(&d.help);
            cx.error(d.span, m);
            continue;
        };
        let tr = format_ident!("MigrationFor{}", d.what);
        let drawing: String = d
            .drawing
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| l.trim_start_matches("  | "))
            .collect::<Vec<_>>()
            .join("\n");
        let label = format!(
            "{}: no migration of `{}` covers this",
            d.code,
            quote!(#migrations).to_string().replace(' ', "")
        );
        let (message, help, test) = (&d.message, &d.help, &d.covered_by);
        let covered = quote!(#krate::__private::schema::Covered);
        // Every token at the entity in `entities(..)`, the interpolated paths
        // included: rustc reports the bound at the type's first token.
        let check = crate::respan::respan(
            quote!(<#covered<{ const M: &[#krate::__private::schema::Migration] = #migrations; #test }> as #tr>::OK),
            d.span,
        );
        let notes = if drawing.is_empty() {
            quote!(note = #help)
        } else {
            quote!(note = #drawing, note = #help)
        };
        out.extend(quote! {
            const _: () = {
                #[diagnostic::on_unimplemented(message = #message, label = #label, #notes)]
                trait #tr {
                    const OK: ();
                }
                #[diagnostic::do_not_recommend]
                #[automatically_derived]
                impl #tr for #covered<true> {
                    const OK: () = ();
                }
                const _: () = #check;
            };
        });
    }
    out
}
