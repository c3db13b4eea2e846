//! Collects every error of one derive before failing (as serde_derive's
//! `Ctxt`), so a user sees all bad placeholders in one build.

use std::cell::RefCell;

use proc_macro2::TokenStream;

#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    pub fn error(&self, span: proc_macro2::Span, msg: impl std::fmt::Display) {
        self.push(syn::Error::new(span, msg));
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// All collected errors as `compile_error!` tokens.
    pub fn into_compile_errors(self) -> TokenStream {
        self.errors
            .into_inner()
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}
