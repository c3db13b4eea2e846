//! `#[derive(DynamoUnion)]`: an enum over entity types that share a
//! partition or an index, decoded item by item through the discriminator.

use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use super::table::const_check;
use crate::model::Union;

pub fn expand(u: &Union) -> TokenStream {
    let p = private();
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
    // DYNA301/302: checked by the compiler once the entities' metadata is
    // known (the derive cannot see other types' attributes).
    let name = ident.to_string();
    let mut checks = Vec::new();
    for (i, (_, ta)) in u.variants.iter().enumerate() {
        for (_, tb) in u.variants.iter().skip(i + 1) {
            let (ma, mb) = (
                quote!(<#ta as #p::Entity>::META),
                quote!(<#tb as #p::Entity>::META),
            );
            checks.push(const_check(
                quote!(#p::table_check::union_pair(#name, #ma, #mb)),
            ));
        }
    }
    quote! {
        #(#checks)*
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
pub fn fallback(input: &syn::DeriveInput) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    if !input.generics.params.is_empty() || !matches!(input.data, syn::Data::Enum(_)) {
        return TokenStream::new();
    }
    quote! {
        impl #p::EntityUnion for #ident {
            const VARIANTS: &'static [&'static #p::EntityMeta] = &[];
            fn decode_variant(_: &str, _: &#p::Item) -> #p::Option<#p::Result<Self, #p::DecodeError>> {
                #p::None
            }
        }
    }
}
