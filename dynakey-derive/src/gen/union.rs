//! `#[derive(DynamoUnion)]`: an enum over entity types that share a
//! partition or an index, decoded item by item through the discriminator.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use super::keys::private;
use crate::ctxt::Ctxt;

pub fn expand(cx: &Ctxt, input: &DeriveInput) -> Option<TokenStream> {
    let p = private();
    let ident = &input.ident;
    let Data::Enum(en) = &input.data else {
        cx.error(ident.span(), format!("DYNA109: DynamoUnion goes on an enum of entity types, as in `enum {ident} {{ Member(Member), Membership(Membership) }}`"));
        return None;
    };
    if !input.generics.params.is_empty() {
        cx.error(
            ident.span(),
            "DYNA109: DynamoUnion does not support generic parameters",
        );
        return None;
    }
    let mut variants = Vec::new();
    for v in &en.variants {
        match &v.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                variants.push((v.ident.clone(), f.unnamed[0].ty.clone()))
            }
            _ => cx.error(
                v.ident.span(),
                format!(
                    "DYNA109: variant `{}` must hold one entity, as in `{}(Entity)`",
                    v.ident, v.ident
                ),
            ),
        }
    }
    if variants.is_empty() {
        cx.error(
            ident.span(),
            "DYNA109: DynamoUnion needs at least one variant",
        );
    }
    if cx.has_errors() {
        return None;
    }
    let metas = variants
        .iter()
        .map(|(_, ty)| quote!(<#ty as #p::Entity>::META));
    let arms = variants.iter().map(|(v, ty)| {
        quote! {
            if __d == <#ty as #p::Entity>::META.discriminator {
                return ::core::option::Option::Some(<#ty as #p::Entity>::from_item(__item).map(Self::#v));
            }
        }
    });
    // DYNA301: two variants with one discriminator could never be told
    // apart; checked by the compiler once the entities' metadata is known.
    let mut checks = Vec::new();
    for (i, (va, ta)) in variants.iter().enumerate() {
        for (vb, tb) in variants.iter().skip(i + 1) {
            let msg = format!("DYNA301: variants `{va}` and `{vb}` of `{ident}` have the same discriminator, so their items cannot be told apart");
            checks.push(quote! {
                const _: () = ::core::assert!(
                    !#p::str_eq(<#ta as #p::Entity>::META.discriminator, <#tb as #p::Entity>::META.discriminator),
                    #msg
                );
            });
            let msg = format!("DYNA302: variants `{va}` and `{vb}` of `{ident}` store the discriminator under different attributes; a table has one");
            checks.push(quote! {
                const _: () = ::core::assert!(
                    #p::str_eq(<#ta as #p::Entity>::META.discriminator_attr, <#tb as #p::Entity>::META.discriminator_attr),
                    #msg
                );
            });
        }
    }
    Some(quote! {
        #(#checks)*
        impl #p::EntityUnion for #ident {
            const VARIANTS: &'static [&'static #p::EntityMeta] = &[#(#metas),*];
            fn decode_variant(__d: &str, __item: &#p::Item) -> ::core::option::Option<::core::result::Result<Self, #p::DecodeError>> {
                #(#arms)*
                ::core::option::Option::None
            }
        }
    })
}
