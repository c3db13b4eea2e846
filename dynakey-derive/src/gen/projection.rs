//! `#[derive(DynamoProjection)]`: some fields of an entity, each checked
//! against the entity's typed attribute handle (its name and type, DYNA119)
//! and read from the attribute the entity stores it in.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::private_path;
use crate::model::ProjectionModel;

pub fn expand(m: &ProjectionModel, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    let ident = &m.ident;
    let of = &m.of;
    // At the field's type, so DYNA119 points at it; a trait method call,
    // not a generic function's bound, so rustc adds no note of where the
    // bound was declared.
    let attrs = m.fields.iter().map(|(id, inner, _)| {
        quote_spanned!(inner.span()=> <#inner as #p::SameField<_>>::attr(&<#of>::attrs().#id))
    });
    let decode = m.fields.iter().map(|(id, _, ty)| {
        quote!(#id: #p::decode_field::<#ty>(__item, <#of>::attrs().#id.name(), &__path)?)
    });
    quote! {
        #[automatically_derived]
        impl #p::Projection for #ident {
            type Entity = #of;
            fn attrs() -> ::std::vec::Vec<&'static str> {
                ::std::vec![#(#attrs),*]
            }
            fn from_item(__item: &#p::Item) -> #p::Result<Self, #p::DecodeError> {
                let __path = #p::AttrPath::root("");
                #p::Ok(Self { #(#decode),* })
            }
        }
    }
}
