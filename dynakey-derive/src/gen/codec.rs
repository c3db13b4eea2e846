//! The item codec: `to_item` / `from_item` for entities, `Attr` for nested
//! structs, generated as straight-line code over [`Attr`] (no serde).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::private;
use crate::model::{DefaultValue, Field};

/// Statements inserting each stored field into `__item`.
pub fn encode_fields(fields: &[Field]) -> TokenStream {
    let p = private();
    let stmts = fields.iter().filter(|f| !f.skip()).map(|f| {
        let id = &f.ident;
        let ty = &f.ty;
        let attr = &f.attr;
        let name = id.to_string();
        let sp = ty.span();
        if f.serde() {
            return quote! {
                if let #p::Some(__v) = #p::serde_to_attr(&self.#id, #name)? {
                    __item.insert(#p::String::from(#attr), __v);
                }
            };
        }
        if f.ttl() {
            let call = quote_spanned!(sp=> <#ty as #p::Ttl>::ttl_to_attr);
            return quote! {
                if let #p::Some(__v) = #call(&self.#id) {
                    __item.insert(#p::String::from(#attr), __v);
                }
            };
        }
        let put = if f.omit_empty() {
            quote_spanned!(sp=> #p::put_attr_omit_empty::<#ty>)
        } else {
            quote_spanned!(sp=> #p::put_attr::<#ty>)
        };
        quote!(#put(&mut __item, #attr, &self.#id);)
    });
    quote!(#(#stmts)*)
}

/// Each stored field's attribute name, an expression of type
/// `Option<AttributeValue>` for its value (`None`: left out of the item),
/// and whether it is instead a `Result` of one (a `serde` field, whose
/// encoding can fail). An entity's `to_item` hands these to its writer.
pub fn encode_values(fields: &[Field]) -> Vec<(String, TokenStream, bool)> {
    let p = private();
    fields
        .iter()
        .filter(|f| !f.skip())
        .map(|f| {
            let id = &f.ident;
            let ty = &f.ty;
            let name = id.to_string();
            let sp = ty.span();
            let value = if f.serde() {
                quote!(#p::serde_to_attr(&self.#id, #name))
            } else if f.ttl() {
                let call = quote_spanned!(sp=> <#ty as #p::Ttl>::ttl_to_attr);
                quote!(#call(&self.#id))
            } else if f.omit_empty() {
                let call = quote_spanned!(sp=> #p::attr_unless_empty::<#ty>);
                quote!(#call(&self.#id))
            } else {
                let call = quote_spanned!(sp=> <#ty as #p::Attr>::to_attr);
                quote!(#call(&self.#id))
            };
            (f.attr.clone(), value, f.serde())
        })
        .collect()
}

/// Field initialisers reading `__item` (a map) below `__path`.
pub fn decode_fields(fields: &[Field]) -> TokenStream {
    let inits = fields.iter().map(|f| {
        let id = &f.ident;
        let read = decode_field(f);
        let ty = &f.ty;
        let attr = &f.attr;
        let sp = ty.span();
        match &f.default {
            // A field added after items were stored: a missing attribute
            // reads as the default.
            Some(d) => {
                let value = match d {
                    DefaultValue::Trait => {
                        quote_spanned!(sp=> <#ty as __dk::Default>::default())
                    }
                    DefaultValue::Path(p) => quote_spanned!(sp=> #p()),
                };
                quote!(#id: if __item.contains_key(#attr) { #read } else { #value })
            }
            None => quote!(#id: #read),
        }
    });
    quote!(#(#inits),*)
}

/// The value of one field read from `__item` below `__path`.
fn decode_field(f: &Field) -> TokenStream {
    let p = private();
    let ty = &f.ty;
    let attr = &f.attr;
    let sp = ty.span();
    if f.skip() {
        return quote_spanned!(sp=> <#ty as #p::Default>::default());
    }
    if f.serde() {
        return quote!(#p::serde_from_item(__item, #attr, &__path)?);
    }
    let call = if f.ttl() {
        quote_spanned!(sp=> <#ty as #p::Ttl>::ttl_from_item)
    } else if f.omit_empty() {
        quote_spanned!(sp=> #p::decode_or_default::<#ty>)
    } else {
        quote_spanned!(sp=> #p::decode_field::<#ty>)
    };
    quote!(#call(__item, #attr, &__path)?)
}
