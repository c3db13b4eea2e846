//! Code generation from a checked model. Nothing here reports user errors.
//!
//! Most of the output is written as source text and lexed by rustc in one
//! call (`text`); what must point an error at the user's code (a field type
//! in a trait call, a validator's path, the DYNA227 traps' names) stays
//! tokens that carry the user's spans.

pub mod chain;
pub mod codec;
pub mod entity;
pub mod keys;
pub mod projection;
pub mod setters;
pub mod table;
pub mod text;
pub mod union;
pub mod update;
pub mod update_bounds;
pub mod value;

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

/// The full path of the runtime's private module: `::dynakey::__private`,
/// or `<crate>::__private` under `#[dynamo(crate = "..")]`. Only items that
/// must sit in the user's module (structs) name it; everything else goes
/// through the short alias [`private`] inside a [`scoped`] block.
pub fn private_path() -> TokenStream {
    CRATE.with(|c| match &*c.borrow() {
        Some(path) => quote!(#path::__private),
        None => quote!(::dynakey::__private),
    })
}

/// What generated code reaches the runtime through inside a [`scoped`]
/// block: the alias `__dk`. Short paths are most of why the expansion is a
/// third of what it was, and expansion size is what every user pays for on
/// every edit.
///
/// An `Ident` rather than a `TokenStream`: interpolating an identifier
/// pushes one token, while a token stream is concatenated as a stream.
pub fn private() -> proc_macro2::Ident {
    proc_macro2::Ident::new("__dk", proc_macro2::Span::call_site())
}

/// `const _: () = { use <private path> as __dk; items };`: impls (trait
/// and inherent) are global wherever they are written, so they can live in
/// an anonymous block that brings the alias without adding a name to the
/// user's module.
/// `dead_code` is allowed in the block: the key templates and writers
/// are free items there, and not every entity calls each of them.
pub fn scoped(items: TokenStream) -> TokenStream {
    let full = private_path();
    quote! {
        #[allow(non_camel_case_types, dead_code)]
        const _: () = {
            #[allow(unused_imports)]
            use #full as __dk;
            #items
        };
    }
}
