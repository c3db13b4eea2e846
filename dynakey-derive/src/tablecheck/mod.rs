//! `table_step!`: one step of the chain through a table's (or union's)
//! entities (see `gen::metadata`). While an entity's macro is still to be
//! called, it calls the next one; after the last, it checks the entities
//! against each other (DYNA301–307) and against the table's schema
//! snapshot (DYNA501–507), at expansion, with spans.

mod cross;
mod drift;
mod meta;
mod vector;

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use meta::Step;

pub fn step(input: TokenStream) -> TokenStream {
    let step: Step = match syn::parse2(input.clone()) {
        Ok(s) => s,
        Err(e) => return e.to_compile_error(),
    };
    if let Some((next, rest)) = step.rest.split_first() {
        // Call the next entity's macro with everything so far.
        let mut tokens = input.into_iter().collect::<Vec<_>>();
        // The input is `@ kind {owner} [rest] metas..`: rewrite `[rest]`.
        let list = quote!([#(#rest),*]);
        let group = proc_macro2::Group::new(proc_macro2::Delimiter::Bracket, strip(list));
        tokens[3] = proc_macro2::TokenTree::Group(group);
        let tokens: TokenStream = tokens.into_iter().collect();
        return quote!(#next! { #tokens });
    }
    let cx = Ctxt::new();
    let out = finish(&cx, &step);
    match cx.check() {
        Ok(()) => out,
        Err(errors) => quote!(#errors #out),
    }
}

/// The inside of a bracketed group.
fn strip(t: TokenStream) -> TokenStream {
    match t.into_iter().next() {
        Some(proc_macro2::TokenTree::Group(g)) => g.stream(),
        _ => TokenStream::new(),
    }
}

/// The checks of the whole list.
fn finish(cx: &Ctxt, step: &Step) -> TokenStream {
    let owner = &step.owner;
    let name = owner.name.to_string();
    let union = owner.kind == "union";
    let metas = &step.metas;
    // DYNA306 is a fact of the table, not of a pair: one error per
    // attribute, however many entities disagree on it.
    let mut typed = Vec::new();
    for (i, a) in metas.iter().enumerate() {
        for (j, b) in metas.iter().enumerate().skip(i + 1) {
            if a.failed || b.failed {
                continue;
            }
            let at = owner
                .entities
                .get(j)
                .map_or(owner.name.span(), |p| p.span());
            if union {
                cross::discriminators(cx, "union", &name, a, b, at);
                continue;
            }
            let (pa, pb) = (&owner.entities[i], &owner.entities[j]);
            let allowed = |x: &syn::Path, y: &syn::Path| {
                owner
                    .overlaps
                    .iter()
                    .any(|(p, q)| (p == x && q == y) || (p == y && q == x))
            };
            let ok = allowed(pa, pb);
            if cross::agree(cx, &name, a, b, at)
                && cross::attribute_types(cx, &name, a, b, at, &mut typed)
            {
                cross::prefixes(cx, &name, a, b, (ok, ok), at);
            }
        }
    }
    if !union {
        let at = |j: usize| {
            owner
                .entities
                .get(j)
                .map_or(owner.name.span(), |p| p.span())
        };
        vector::check(cx, &name, metas, at);
    }
    let Some(schema) = &owner.schema else {
        return TokenStream::new();
    };
    let path = schema.value();
    let Ok(text) = std::fs::read_to_string(&path) else {
        return TokenStream::new();
    };
    let Ok(snapshot) = dynakey_core::snapshot::parse(&text) else {
        // Reported by the table's derive (DYNA500).
        return TokenStream::new();
    };
    let checks = drift::check(cx, owner, metas, &snapshot.entities);
    // A change to the snapshot rebuilds the crate.
    quote! {
        const _: &[u8] = ::core::include_bytes!(#schema);
        #checks
    }
}
