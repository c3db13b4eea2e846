//! Drift between a table's committed schema snapshot and its entities
//! (DYNA501–DYNA507): a change that strands stored items is an error
//! unless a migration of the table's `#[dynamo(migrations = PATH)]` covers
//! it (no migration covers a changed vector index, DYNA507: DynamoDB
//! changes none in place). What changed is found here, at expansion, with spans; whether a
//! migration covers it can only be known from the `const` list, so for a
//! table with migrations each change becomes a trait bound on a constant
//! the runtime computes from the list, whose unmet bound carries the
//! change's message (no const-evaluation panic).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::meta::{MetaEntity, MetaKey, Owner};
use crate::ctxt::Ctxt;
use crate::diag::{Code, Message};
use dynakey_core::snapshot::{Entity as SnapEntity, Key as SnapKey};

/// A change that strands stored items, and what would cover it.
struct Drift {
    /// What changed, the lines that show it, and the help.
    message: Message,
    /// The runtime's test over the migrations (a `const fn` call taking
    /// the list first); `None` when no migration covers the change.
    covered_by: Option<TokenStream>,
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
    match (&was, &now) {
        (Some(_), Some(_)) => caret(&w, &n),
        _ => format!("was: {w}\nnow: {n}"),
    }
}

/// `was:` / `now:` lines with a caret at their first difference.
fn caret(w: &str, n: &str) -> String {
    let first = w.chars().zip(n.chars()).take_while(|(a, b)| a == b).count();
    format!(
        "was: {w}\nnow: {n}\n     {}^ first difference",
        " ".repeat(first)
    )
}

/// The vector indexes the snapshot recorded (format 3 on; an earlier
/// format's silence is no removal) whose definition the code changed: the
/// table's index keeps its definition, as DynamoDB changes none in place,
/// and stored vectors are of the old one. An index added or removed is no
/// drift of stored items (`db.sync_table(..)` adds or removes it).
fn vector_drifts(head: &str, e: &MetaEntity, was: &SnapEntity, span: Span, out: &mut Vec<Drift>) {
    let name = e.name();
    for w in was.vectors.iter().flatten() {
        let Some(n) = e.vectors.iter().find(|n| n.name == w.name) else {
            continue;
        };
        let changed: Vec<&str> = [
            (w.attr != n.vector_attr, "the vector attribute"),
            (w.dimensions.to_string() != n.dimensions, "the dimensions"),
            (w.distance != n.distance, "the distance function"),
        ]
        .into_iter()
        .filter_map(|(c, what)| c.then_some(what))
        .collect();
        if changed.is_empty() {
            continue;
        }
        let line = |attr: &str, dims: &str, distance: &str| {
            format!("vector = \"{attr}\", dimensions = {dims}, distance = \"{distance}\"")
        };
        let drawing = caret(
            &line(&w.attr, &w.dimensions.to_string(), &w.distance),
            &line(&n.vector_attr, &n.dimensions, &n.distance),
        );
        out.push(Drift {
            message: Code::DriftVector
                .msg(format!(
                    "{head}changed {} of vector index `{}`, so the table's index and the stored vectors are not what the code searches",
                    changed.join(" and "),
                    w.name
                ))
                .draw(drawing)
                .help(format!(
                    "DynamoDB changes no vector index in place (db.sync_table(..) keeps the table's): keep `{}` as the snapshot has it, or declare the changed index under a new name (on a new attribute, #[dynamo(rename = \"..\")], when the dimensions change), write the new vectors into stored items with a migration, then rewrite the snapshot (DYNAKEY_SCHEMA=overwrite cargo test)",
                    w.name
                )),
            covered_by: None,
            what: format!("{name}Vector{}", crate::unraw::camel(&w.name)),
            span,
        });
    }
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
    let head = format!("in table `{table}`, `{name}` ");
    if was.discriminator != e.disc || was.discriminator_attr != e.disc_attr {
        out.push(Drift {
            message: Code::DriftDiscriminator
                .msg(format!(
                    "{}changed its discriminator, so typed reads skip every stored item",
                    head
                ))
                .draw(format!(
                    "was: \"{}\" in `{}`\nnow: \"{}\" in `{}`",
                    was.discriminator, was.discriminator_attr, e.disc, e.disc_attr
                ))
                .help(REKEY_HELP),
            covered_by: Some(rekey(krate, &name)),
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
message: Code::DriftKey.msg(format!("{}changed its {which}, so every stored item is under a key the code no longer builds or reads", head)).draw(was_now(w, n)).help(REKEY_HELP),
covered_by: Some(rekey(krate, &name)),
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
message: Code::DriftIndex.msg(format!("{}changed index `{}`, so the index keys of stored items are not what the code writes", head, w.name)).draw(drawing).help(format!("declare Migration::backfill::<{name}>(..) in the table's migrations and run db.migrate(..) (db.sync_table(..) first when the index is new to the table)")),
covered_by: Some(quote!(#krate::__private::schema::backfilled(M, #ty))),
what: format!("{name}Index{}", crate::unraw::camel(&w.name)),
span,
});
    }
    vector_drifts(&head, e, was, span, out);
    for n in &e.fields {
        match was.fields.iter().find(|w| w.name == n.name) {
            Some(w) => {
                if w.attr != n.attr {
                    let (from, to, ty) = (&w.attr, &n.attr, &name);
                    out.push(Drift {
message: Code::DriftAttribute.msg(format!("{}stores field `{}` as `{}` where stored items hold `{}`, so they read without it", head, n.name, n.attr, w.attr)).help(format!("declare Migration::rename_attribute::<{name}>(.., \"{from}\", \"{to}\") in the table's migrations and run db.migrate(..)")),
covered_by: Some(quote!(#krate::__private::schema::renamed(M, #ty, #from, #to))),
what: format!("{name}Attribute{}", crate::unraw::camel(&n.name)),
span,
});
                }
                if w.ty != n.ty {
                    out.push(Drift {
                        message: Code::DriftField.msg(format!("{}changed the type of field `{}` from `{}` to `{}`, so stored items may not read", head, n.name, w.ty, n.ty)).help("keep the old struct and declare Migration::rekey::<Old, New>(..), or keep the type"),
                        covered_by: Some(rekey(krate, &name)),
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
                        message: Code::DriftField.msg(format!("{}stores field `{}` {} where stored items hold it {}, so they may not read", head, n.name, stored(&n.form), stored(was_form))).help("keep the old struct and declare Migration::rekey::<Old, New>(..), or keep how the field is stored"),
                        covered_by: Some(rekey(krate, &name)),
                        what: format!("{name}FieldForm{}", crate::unraw::camel(&n.name)),
                        span,
                    });
                }
            }
            None if !n.optional && !n.default => out.push(Drift {
message: Code::DriftField.msg(format!("{}has a new field `{}` that stored items lack, and reading them would fail", head, n.name)).help(format!("make it an Option, or give it #[dynamo(default)] (and Migration::fill_default::<{name}>(.., \"{}\") to write the default into old items)", n.attr)),
covered_by: Some(rekey(krate, &name)),
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
message: Code::DriftRemoved.msg(format!("table `{table}` no longer lists `{}`, whose stored items (discriminator \"{disc}\") nothing reads any more", w.type_name)).help(format!("keep it in the table, or declare Migration::drop_entity(.., \"{disc}\", \"{}\") in the table's migrations and run db.migrate(..)", w.discriminator_attr)),
covered_by: Some(quote!(#krate::__private::schema::dropped(M, #disc))),
what: format!("Removed{}", w.type_name),
span: owner.name.span(),
});
            }
        }
    }
    let mut out = TokenStream::new();
    for d in drifts {
        let (Some(migrations), Some(test)) = (&owner.migrations, &d.covered_by) else {
            cx.report(d.span, d.message);
            continue;
        };
        let tr = format_ident!("MigrationFor{}", d.what);
        let drawing = d.message.drawing();
        let label = format!(
            "{}: no migration of `{}` covers this",
            d.message.code(),
            quote!(#migrations).to_string().replace(' ', "")
        );
        let message = d.message.headline();
        let help = d.message.help_text().unwrap_or_default();
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
