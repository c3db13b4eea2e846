//! Collects every error of one derive before failing, as serde_derive's
//! `Ctxt` does: a user sees all bad placeholders in one build. A `Ctxt`
//! must be finished with [`Ctxt::check`]; dropping it unchecked is a bug in
//! the derive (an error would be lost), so it panics.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Span, TokenStream};

pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    pub fn push(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(err);
    }

    /// An error at `span`.
    pub fn error(&self, span: Span, msg: impl Display) {
        self.push(syn::Error::new(span, msg));
    }

    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// Finishes collecting: the errors as `compile_error!` tokens, or
    /// `Ok` when there were none.
    pub fn check(self) -> Result<(), TokenStream> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        if errors.is_empty() {
            return Ok(());
        }
        Err(errors.iter().map(syn::Error::to_compile_error).collect())
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
