//! Vector indexes: their entries in `META` (`__with_vectors`), the filter
//! handles of each index (`<Entity><Index>Filters`, one `VectorFilter` per
//! filter field), and the search function `Entity::<index>(scope)` that
//! starts a typed search (`db.search(Ticket::by_similar("acme")?, &v)`).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::body;
use crate::model::{Entity, VectorIndex, VectorLen};

/// `__VS_<INDEX>` / `__VF_<INDEX>`: the scope and filter attributes.
fn list_name(v: &VectorIndex, filters: bool) -> Ident {
    let which = if filters { "VF" } else { "VS" };
    format_ident!("__{}_{}", which, v.snake.to_uppercase())
}

/// The filter handles' type of an index.
fn filters_ident(e: &Entity, v: &VectorIndex) -> Ident {
    format_ident!("{}{}Filters", e.ident, crate::unraw::camel(&v.snake))
}

/// The consts of each index's scope and filter attributes (each typed by
/// the field's `NativeKeyAttr`), and the checks of the vector field's type
/// the derive could not make from its syntax.
pub fn defs(e: &Entity) -> TokenStream {
    let mut out = TokenStream::new();
    for v in &e.vectors {
        for (filters, list) in [
            (false, v.scope.iter().copied().collect::<Vec<_>>()),
            (true, v.filters.clone()),
        ] {
            let name = list_name(v, filters);
            let attrs = list.iter().map(|&i| {
                let f = &e.fields[i];
                let (attr, field, ty) = (&f.attr, &f.name.text, &f.inner);
                let class = quote_spanned!(f.inner_span=> <#ty as __dk_NativeKeyAttr>::TYPE);
                quote!(__dk_NativeAttr::__new(#attr, #field, #class))
            });
            out.extend(quote!(const #name: &[__dk_NativeAttr] = &[#(#attrs),*];));
        }
        let f = &e.fields[v.vector];
        let ty = &f.inner;
        out.extend(quote_spanned!(f.inner_span=> const _: ::core::option::Option<usize> = <#ty as __dk_VectorValue>::LEN;));
        if let VectorLen::Const(len) = &v.len {
            let dims = v.dimensions as usize;
            let msg = crate::diag::traits::vector_length(&v.name, dims, &f.name.text);
            out.extend(quote_spanned!(f.inner_span=> const _: () = ::core::assert!((#len) == #dims, #msg);));
        }
    }
    out
}

/// `.__with_vectors(&[..])` of `META`, when the entity has vector indexes.
pub fn meta(e: &Entity) -> TokenStream {
    if e.vectors.is_empty() {
        return quote!();
    }
    let entries = e.vectors.iter().map(|v| {
        let f = &e.fields[v.vector];
        let (name, attr, field, dims) = (&v.name, &f.attr, &f.name.text, v.dimensions);
        let distance = format_ident!("{}", v.distance);
        let (scope, filters) = (list_name(v, false), list_name(v, true));
        let projection = super::meta::projection(e, &v.projection);
        quote!(__dk_VectorIndexMeta::__new(#name, #attr, #field, #dims, __dk_Distance::#distance, #scope, #filters, #projection))
    });
    quote!(.__with_vectors(&[#(#entries),*]))
}

/// The filter handles' structs (for the user's module) and their impls
/// (for the scoped block).
pub fn filters(e: &Entity) -> (TokenStream, TokenStream) {
    let full = super::outer_path(&e.ident);
    let vis = &e.vis;
    let (mut outer, mut impls) = (TokenStream::new(), TokenStream::new());
    for v in &e.vectors {
        let name = filters_ident(e, v);
        let fields = v.filters.iter().map(|&i| {
            let f = &e.fields[i];
            let (id, ty) = (&f.name.ident, &f.inner);
            let doc = format!("The filter attribute `{}`.", f.attr);
            quote!(#[doc = #doc] pub #id: #full::VectorFilter<#name, #ty>)
        });
        let inits = v.filters.iter().map(|&i| {
            let f = &e.fields[i];
            let (id, attr) = (&f.name.ident, &f.attr);
            quote!(#id: __dk_VectorFilter::__new(#attr))
        });
        let doc = format!(
            "The filter handles of vector index `{}` of `{}`: `.filter(|f| f.<field>.eq(..))` on a search.",
            v.name, e.ident
        );
        outer.extend(quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug)]
            #vis struct #name { #(#fields,)* }
        });
        impls.extend(quote! {
            #[automatically_derived]
            impl __dk_Default for #name {
                fn default() -> Self {
                    #name { #(#inits,)* }
                }
            }
        });
    }
    (outer, impls)
}

/// `Entity::<index>(scope)`: where a search of each vector index looks.
pub fn search_fns(e: &Entity) -> TokenStream {
    let ident = &e.ident;
    let mut out = TokenStream::new();
    for (n, v) in e.vectors.iter().enumerate() {
        let fname = format_ident!("{}", v.snake);
        let vty = &e.fields[v.vector].inner;
        let kind = if v.partial() {
            quote!(__dk_GlobalPartial)
        } else {
            quote!(__dk_Global)
        };
        let filters = filters_ident(e, v);
        let scope_ty = quote!(__dk_VectorScope<#ident, #vty, #kind, #filters>);
        let doc = format!(
            "Where a search of vector index `{}` looks{} (`db.search(..)`).",
            v.name,
            v.scope.map_or(String::new(), |i| format!(
                ": the items whose `{}` is the value given",
                e.fields[i].name.text
            ))
        );
        out.extend(match v.scope {
            Some(i) => {
                let id = &e.fields[i].name.ident;
                let param = super::native::param(e, i, id);
                let ty = &e.fields[i].inner;
                let body = body(
                    e.stub,
                    || quote!(<#scope_ty>::__new(#n).__scoped::<#ty, _>(&#id)),
                );
                quote! {
                    #[doc = #doc]
                    pub fn #fname(#param) -> __dk_KeyResult<#scope_ty> #body
                }
            }
            None => {
                let body = body(e.stub, || quote!(<#scope_ty>::__new(#n)));
                quote! {
                    #[doc = #doc]
                    pub fn #fname() -> #scope_ty #body
                }
            }
        });
    }
    out
}
