//! Native index keys: the attribute lists (`__NPK_*`, `__NSK_*`) that
//! `META` and the key functions share, and each index's partition-key
//! function `E::<index>_pk(..)` (its sort-key chain is `chain`'s). The
//! values go to the runtime as they are: the runtime's `NativeKeyAttr`
//! gives each the attribute the codec stores, so a key is the item's own
//! attribute.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::body;
use super::keys::allow_args;
use crate::model::{Entity, NativeIndex};

/// `__NPK_<INDEX>` / `__NSK_<INDEX>`: the attributes of a native key.
pub fn attrs_name(n: &NativeIndex, sort: bool) -> Ident {
    let which = if sort { "NSK" } else { "NPK" };
    format_ident!("__{}_{}", which, n.snake.to_uppercase())
}

/// The consts listing each native key's attributes, each typed by its
/// field type's `NativeKeyAttr` (an unmet bound is DYNA121 at the type).
pub fn attrs_defs(e: &Entity) -> TokenStream {
    let mut out = TokenStream::new();
    for n in &e.natives {
        for (sort, fields) in [(false, &n.pk), (true, &n.sk)] {
            let name = attrs_name(n, sort);
            let attrs = fields.iter().map(|&i| {
                let f = &e.fields[i];
                let (attr, field, ty) = (&f.attr, &f.name.text, &f.inner);
                let class = quote_spanned!(f.inner_span=> <#ty as __dk_NativeKeyAttr>::TYPE);
                quote!(__dk_NativeAttr::__new(#attr, #field, #class))
            });
            out.extend(quote! {
                const #name: &[__dk_NativeAttr] = &[#(#attrs),*];
            });
        }
    }
    out
}

/// The runtime's marker of a native index's key kind.
pub fn kind_ty(n: &NativeIndex) -> TokenStream {
    if n.partial() {
        quote!(__dk_GlobalPartial)
    } else {
        quote!(__dk_Global)
    }
}

/// A value parameter of field `i`: anything that is a value of the field's
/// type as a native key attribute (`&str` for a `String`), or in a stub
/// anything at all.
pub fn param(e: &Entity, i: usize, id: &Ident) -> TokenStream {
    if e.stub {
        return quote!(_: impl ::core::marker::Sized);
    }
    let f = &e.fields[i];
    let ty = &f.inner;
    quote_spanned!(f.inner_span=> #id: impl __dk_NativeArg<#ty>)
}

/// `E::<index>_pk(..)`: the partition of a native index, from every
/// partition attribute in key order.
pub fn pk_fns(e: &Entity) -> TokenStream {
    let ident = &e.ident;
    let mut out = TokenStream::new();
    for n in &e.natives {
        let name = format_ident!("{}_pk", n.snake);
        let ids: Vec<&Ident> = n.pk.iter().map(|&i| &e.fields[i].name.ident).collect();
        let params = n.pk.iter().zip(&ids).map(|(&i, id)| param(e, i, id));
        let allow = allow_args(n.pk.len());
        let kind = kind_ty(n);
        let names: Vec<&str> =
            n.pk.iter()
                .map(|&i| e.fields[i].name.text.as_str())
                .collect();
        let doc = format!(
            "The partition of native index `{}`: `{}` (the items' own attributes, in key order).",
            n.name,
            names.join("`, `")
        );
        let body = body(e.stub, || {
            let index = &n.name;
            let list = attrs_name(n, false);
            let calls = n.pk.iter().zip(&ids).map(|(&i, id)| {
                let ty = &e.fields[i].inner;
                quote!(.value::<#ty, _>(&#id))
            });
            quote!(__dk_NativeKeyBuilder::<#ident>::new(<#ident as __dk_Entity>::META.discriminator, #index, #list) #(#calls)* .partition())
        });
        out.extend(quote! {
            #[doc = #doc]
            #allow
            pub fn #name(#(#params),*) -> __dk_KeyResult<__dk_PartitionKey<#ident, #kind>> #body
        });
    }
    out
}
