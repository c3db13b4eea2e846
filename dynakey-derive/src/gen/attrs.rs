//! Typed attribute handles: `E::attrs().status.eq(..)`, for conditions and
//! filters. One `Field<E, T>` per stored field, named like the field (raw
//! identifiers stay raw: `attrs().r#type`), holding the attribute name.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::Entity;

/// The handles struct (for the user's module) and `attrs()` with the
/// struct's impls (for the scoped block).
pub fn attrs(e: &Entity) -> (TokenStream, TokenStream) {
    let full = super::outer_path(&e.ident);
    let ident = &e.ident;
    let vis = &e.vis;
    let name = format_ident!("{}Attrs", ident);
    let stored: Vec<_> = e
        .struct_fields()
        .filter(|(_, f)| !f.skip())
        .map(|(_, f)| f)
        .collect();
    // Documented, as a crate under `#![deny(missing_docs)]` requires.
    let fields = stored.iter().map(|f| {
        let (id, inner) = (&f.name.ident, &f.inner);
        let doc = format!("The attribute `{}`.", f.attr);
        quote!(#[doc = #doc] pub #id: #full::Field<#ident, #inner>)
    });
    let inits = stored.iter().map(|f| {
        let (id, attr) = (&f.name.ident, &f.attr);
        quote!(#id: __dk_Field::new(#attr))
    });
    let doc = format!("Typed handles on the attributes of `{ident}`, for conditions and filters: one field per stored field, of the same name, holding its attribute name (`{ident}::attrs().field.eq(..)`).");
    let outer = quote! {
        #[doc = #doc]
        #vis struct #name {
            #(#fields,)*
        }
    };
    let impls = quote! {
        #[automatically_derived]
        impl #ident {
            /// Typed handles on this entity's attributes.
            #[inline]
            pub const fn attrs() -> #name {
                // Made at compile time: a call copies it.
                const ATTRS: #name = #name { #(#inits,)* };
                ATTRS
            }
        }
        // By hand: a derive would require each field to be `Clone` too.
        #[automatically_derived]
        impl ::core::clone::Clone for #name {
            fn clone(&self) -> Self {
                *self
            }
        }
        #[automatically_derived]
        impl ::core::marker::Copy for #name {}
    };
    (outer, impls)
}
