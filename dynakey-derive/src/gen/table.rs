//! `#[derive(DynamoTable)]`: the entities of one table, checked against each
//! other by the compiler (DYNA301–DYNA305), and the table they need.
//!
//! The macro cannot see other types' attributes, so each check is a `const`
//! evaluated over the entities' `META`: a failed check panics at compile
//! time with a message the runtime builds from both entities' templates.

use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::model::Table;

/// `const _: () = ...` failing the build with the message of `check`, an
/// expression of the runtime's `ConstMessage` (empty when fine).
pub fn const_check(check: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            const __M: &str = #check.as_str();
            if !__M.is_empty() {
                ::core::panic!("{}", __M)
            }
        };
    }
}

pub fn expand(t: &Table) -> TokenStream {
    let p = private();
    let ident = &t.ident;
    let name = ident.to_string();
    let meta = |t: &syn::Path| quote!(<#t as #p::Entity>::META);
    let mut checks = Vec::new();
    for (i, a) in t.entities.iter().enumerate() {
        for b in &t.entities[i + 1..] {
            let (ma, mb) = (meta(a), meta(b));
            // Overlaps the table allows, in either order.
            let allowed =
                |x: &syn::Path, y: &syn::Path| t.overlaps.iter().any(|(p, q)| p == x && q == y);
            let (ab, ba) = (
                allowed(a, b) || allowed(b, a),
                allowed(b, a) || allowed(a, b),
            );
            checks.push(const_check(
                quote!(#p::table_check::table_pair(#name, #ma, #mb, #ab, #ba)),
            ));
        }
    }
    let metas = t.entities.iter().map(meta);
    let doc =
        format!("The entities of table `{ident}`, checked against each other at compile time.");
    quote! {
        #(#checks)*
        impl #ident {
            #[doc = #doc]
            pub const ENTITIES: &'static [&'static #p::EntityMeta] = &[#(#metas),*];
        }
    }
}

/// Emitted beside the errors when the derive fails.
pub fn fallback(input: &syn::DeriveInput) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    quote! {
        impl #ident {
            #[doc(hidden)]
            pub const ENTITIES: &'static [&'static #p::EntityMeta] = &[];
        }
    }
}
