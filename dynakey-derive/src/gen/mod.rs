//! Code generation from a checked model. Nothing here reports user errors.

pub mod codec;
pub mod entity;
pub mod keys;
pub mod table;
pub mod union;
pub mod update;
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

/// What generated code reaches the runtime through: `::dynakey::__private`,
/// or `<crate>::__private` under `#[dynamo(crate = "..")]`.
pub fn private() -> TokenStream {
    CRATE.with(|c| match &*c.borrow() {
        Some(path) => quote!(#path::__private),
        None => quote!(::dynakey::__private),
    })
}
