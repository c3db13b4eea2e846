//! `#[derive(DynamoTable)]`: the entities of one table, checked against each
//! other by the compiler (DYNA301–DYNA305), and the table they need.
//!
//! The macro cannot see other types' attributes, so each check is a `const`
//! assertion over the entities' `META`, with a message naming both types.

use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{DeriveInput, Path, Token};

use super::keys::private;
use crate::ctxt::Ctxt;

fn entities(cx: &Ctxt, input: &DeriveInput) -> Vec<Path> {
    let mut out = Vec::new();
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("dynamo")) {
        let r = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                // Read by `attr::crate_path`.
                let _: syn::LitStr = meta.value()?.parse()?;
            } else if meta.path.is_ident("entities") {
                let content;
                syn::parenthesized!(content in meta.input);
                let list = Punctuated::<Path, Token![,]>::parse_terminated(&content)?;
                out.extend(list);
            } else {
                let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                cx.error(
                    syn::spanned::Spanned::span(&meta.path),
                    format!("DYNA112: unknown table option `{key}`\n  = help: write #[dynamo(entities(Member, Membership, ..))]"),
                );
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.push(e);
        }
    }
    out
}

fn name(p: &Path) -> String {
    p.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

pub fn expand(cx: &Ctxt, input: &DeriveInput) -> Option<TokenStream> {
    let p = private();
    let ident = &input.ident;
    let list = entities(cx, input);
    if list.is_empty() {
        cx.error(ident.span(), format!("DYNA109: table `{ident}` lists no entities\n  = help: add #[dynamo(entities(Member, Membership, ..))]"));
    }
    for (i, a) in list.iter().enumerate() {
        if list[..i].iter().any(|b| b == a) {
            cx.error(
                syn::spanned::Spanned::span(a),
                format!("DYNA301: `{}` is listed twice in table `{ident}`", name(a)),
            );
        }
    }
    if cx.has_errors() {
        return None;
    }
    let mut checks = Vec::new();
    for (i, a) in list.iter().enumerate() {
        for b in &list[i + 1..] {
            let (na, nb) = (name(a), name(b));
            let meta = |t: &Path| quote!(<#t as #p::Entity>::META);
            let (ma, mb) = (meta(a), meta(b));
            let msgs = [
                (
                    quote!(!#p::str_eq(#ma.discriminator, #mb.discriminator)),
                    format!("DYNA301: `{na}` and `{nb}` in table `{ident}` have the same discriminator, so their items cannot be told apart"),
                ),
                (
                    quote!(#p::str_eq(#ma.discriminator_attr, #mb.discriminator_attr)),
                    format!("DYNA302: `{na}` and `{nb}` in table `{ident}` store the discriminator under different attributes; a table has one"),
                ),
                (
                    quote!(#p::same_table_key(#ma, #mb)),
                    format!("DYNA303: `{na}` and `{nb}` in table `{ident}` name the table's key attributes differently (or one has a sort key and the other not)"),
                ),
                (
                    quote!(#p::indexes_agree(#ma, #mb)),
                    format!("DYNA304: `{na}` and `{nb}` in table `{ident}` disagree on an index: one name must have one kind and one pair of attributes, and two indexes cannot share an attribute"),
                ),
                (
                    quote!(!#p::shadows(#ma, #mb)),
                    format!("DYNA305: the sort-key prefix of `{na}` is a prefix of `{nb}`'s in a partition they can share, so a typed query of `{na}` also reads `{nb}`'s items; give them distinct literal prefixes"),
                ),
                (
                    // Reported once when the prefixes are equal.
                    quote!(!(#p::shadows(#mb, #ma) && !#p::shadows(#ma, #mb))),
                    format!("DYNA305: the sort-key prefix of `{nb}` is a prefix of `{na}`'s in a partition they can share, so a typed query of `{nb}` also reads `{na}`'s items; give them distinct literal prefixes"),
                ),
            ];
            for (cond, msg) in msgs {
                checks.push(quote!(
                    const _: () = ::core::assert!(#cond, #msg);
                ));
            }
        }
    }
    let metas = list.iter().map(|t| quote!(<#t as #p::Entity>::META));
    let doc =
        format!("The entities of table `{ident}`, checked against each other at compile time.");
    Some(quote! {
        #(#checks)*
        impl #ident {
            #[doc = #doc]
            pub const ENTITIES: &'static [&'static #p::EntityMeta] = &[#(#metas),*];
        }
    })
}
