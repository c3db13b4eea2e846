//! Code generation from a checked model, in tokens (`quote!`,
//! `format_ident!`). Nothing here reports user errors: a model with
//! mistakes is generated as stubs (`Entity::stub`), the API with bodies
//! that never run, so a mistake is only its own errors.
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

use std::cell::RefCell;

use proc_macro2::TokenStream;
use quote::quote;

thread_local! {
    /// The path of the `dynakey` crate for the derive being expanded
    /// (`#[dynamo(crate = "..")]`). A thread-local rather than a parameter
    /// of every generator: rustc expands one derive at a time on a thread,
    /// and [`CrateScope`] puts the default back when the expansion ends.
    static CRATE: RefCell<Option<syn::Path>> = const { RefCell::new(None) };
}

/// Sets the crate path for the rest of one expansion.
pub struct CrateScope;

impl CrateScope {
    pub fn enter(path: Option<syn::Path>) -> Self {
        CRATE.with(|c| *c.borrow_mut() = path);
        CrateScope
    }
}

impl Drop for CrateScope {
    fn drop(&mut self) {
        CRATE.with(|c| *c.borrow_mut() = None);
    }
}

/// The path of the `dynakey` crate: `::dynakey`, or the `crate = ".."`
/// option's.
pub fn crate_path() -> TokenStream {
    CRATE.with(|c| match &*c.borrow() {
        Some(path) => quote!(#path),
        None => quote!(::dynakey),
    })
}

/// The full path of the runtime's private module. Only items that must sit
/// in the user's module (structs) name it; everything else goes through
/// the alias [`dk`] inside a [`scoped`] block.
pub fn private_path() -> TokenStream {
    let krate = crate_path();
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
pub fn private_alias(entity: &syn::Ident) -> TokenStream {
    let full = private_path();
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
pub fn scoped(items: TokenStream) -> TokenStream {
    let full = private_path();
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
