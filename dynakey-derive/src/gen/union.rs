//! `#[derive(DynamoUnion)]`: an enum over entity types that share a
//! partition or an index, decoded item by item through the discriminator.

use proc_macro2::TokenStream;
use quote::quote;

use super::private_path;
use crate::model::Union;

pub fn expand(u: &Union, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    let ident = &u.ident;
    let metas = u
        .variants
        .iter()
        .map(|(_, ty)| quote!(<#ty as #p::Entity>::META));
    let arms = u.variants.iter().map(|(v, ty)| {
        quote! {
            if __d == <#ty as #p::Entity>::META.discriminator {
                return #p::Some(<#ty as #p::Entity>::from_item(__item).map(Self::#v));
            }
        }
    });
    // DYNA301/302: checked at expansion through the entities' metadata
    // macros (the derive cannot see other types' attributes).
    let paths: Vec<syn::Path> = u
        .variants
        .iter()
        .filter_map(|(_, ty)| match ty {
            syn::Type::Path(p) if p.qself.is_none() => Some(p.path.clone()),
            _ => None,
        })
        .collect();
    let chain = super::table::chain(
        "union",
        quote!(name(#ident) krate(#krate) entities(#(#paths),*)),
        &paths,
    );
    quote! {
        #chain
        #[automatically_derived]
        impl #p::EntityUnion for #ident {
            const VARIANTS: &'static [&'static #p::EntityMeta] = &[#(#metas),*];
            fn decode_variant(__d: &str, __item: &#p::Item) -> #p::Option<#p::Result<Self, #p::DecodeError>> {
                #(#arms)*
                #p::None
            }
        }
    }
}

/// Emitted beside the errors when the derive fails.
pub fn fallback(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    let ident = &input.ident;
    if !input.generics.params.is_empty() || !matches!(input.data, syn::Data::Enum(_)) {
        return TokenStream::new();
    }
    quote! {
        #[automatically_derived]
        impl #p::EntityUnion for #ident {
            const VARIANTS: &'static [&'static #p::EntityMeta] = &[];
            fn decode_variant(_: &str, _: &#p::Item) -> #p::Option<#p::Result<Self, #p::DecodeError>> {
                #p::None
            }
        }
    }
}
