//! Code generation from a checked model, in tokens (`quote!`,
//! `format_ident!`). Nothing here reports user errors or writes a message:
//! a model with mistakes is generated as stubs (`Entity::stub`), the API
//! with bodies that never run, so a mistake is only its own errors. What
//! rustc finds in the generated code is reported in the words of the
//! runtime's traits (an unmet bound: DYNA102, DYNA107, DYNA119, DYNA121)
//! or of the traits a typed update is bounded by, whose messages come from
//! `diag::traits` (DYNA226, DYNA228).
//!
//! What every user pays for on every edit is the size of the expansion
//! (rustc parses, resolves, lowers and hashes it again after any change),
//! so the generators write little per entity: the logic is generic in the
//! runtime and each key, setter or field is one call into it.

pub mod attrs;
pub mod bounds;
pub mod chain;
pub mod codec;
pub mod entity;
pub mod keys;
pub mod meta;
pub mod metadata;
pub mod native;
pub mod projection;
pub mod setters;
pub mod table;
pub mod union;
pub mod update;
pub mod value;
pub mod vector;

use proc_macro2::TokenStream;
use quote::quote;

/// The path generated code names the runtime by: `#[dynamo(crate =
/// "..")]`, or `::dynakey`. Computed once per derive and passed to the
/// generators that name it.
pub fn crate_path(path: Option<&syn::Path>) -> TokenStream {
    match path {
        Some(path) => quote!(#path),
        None => quote!(::dynakey),
    }
}

/// The full path of the runtime's private module. Only items that must sit
/// in the user's module (structs) name it; everything else goes through
/// the alias [`dk`] inside a [`scoped`] block.
pub fn private_path(krate: &TokenStream) -> TokenStream {
    quote!(#krate::__private)
}

/// The alias of the runtime's private module that the items an entity
/// puts in the user's module (its update builder, sort-key steps, attribute
/// handles) name it by: `__dk_private_Task` (one word where the full path
/// is four), imported by [`private_alias`].
pub fn outer_path(entity: &syn::Ident) -> proc_macro2::Ident {
    quote::format_ident!("__dk_private_{}", entity)
}

/// `use <private path> as __dk_private_Task;`, beside the entity. Named
/// after the entity, so two entities of one module do not import the same
/// name, and prefixed, so it captures no name of the user's.
pub fn private_alias(krate: &TokenStream, entity: &syn::Ident) -> TokenStream {
    let full = private_path(krate);
    let alias = outer_path(entity);
    quote! {
        #[allow(unused_imports)]
        #[doc(hidden)]
        use #full as #alias;
    }
}

/// `const _: () = { use <private path>::names::*; items };`: impls and the
/// items only they use live in an anonymous block that adds no name to the
/// user's module. Inside it every runtime item is one word, `__dk_Some`,
/// `__dk_IntoField` (the runtime's `__private::names`): short paths are
/// much of what keeps the expansion small, and the `__dk_` prefix keeps
/// the glob from capturing a user's name. `dead_code` is allowed there:
/// not every entity calls every helper item.
pub fn scoped(krate: &TokenStream, items: TokenStream) -> TokenStream {
    let full = private_path(krate);
    quote! {
        #[allow(non_camel_case_types, non_snake_case, dead_code, clippy::all)]
        const _: () = {
            #[allow(unused_imports)]
            use #full::names::*;
            #items
        };
    }
}

/// A function body: `real`, or a stub that never runs when the derive
/// failed (its call sites then add no error of their own).
pub fn body(stub: bool, real: impl FnOnce() -> TokenStream) -> TokenStream {
    if stub {
        quote!({ __dk_stub() })
    } else {
        let b = real();
        quote!({ #b })
    }
}
