//! Names of fields and variants, with and without `r#` (after thiserror's
//! `unraw.rs`). A field `r#type` is `type` everywhere a name is text: in
//! templates (`<type>`), as the stored attribute, in messages, and in the
//! names derived from it (`set_type`, `type_starts_with`). Where the name
//! itself is an identifier (the field access `self.r#type`, the handle
//! `attrs().r#type`, the chain step `.r#type(..)`), it stays raw.

use proc_macro2::{Ident, Span};
use quote::format_ident;

#[derive(Clone)]
pub struct Name {
    /// The identifier as written, raw or not.
    pub ident: Ident,
    /// Its text without `r#`.
    pub text: String,
}

impl Name {
    pub fn new(ident: &Ident) -> Self {
        let text = ident.to_string();
        let text = text.strip_prefix("r#").unwrap_or(&text).to_owned();
        Name {
            ident: ident.clone(),
            text,
        }
    }

    /// A placeholder that names no field, kept so that a failed derive's
    /// stubs take the argument the user passes for it.
    pub fn synthetic(text: &str) -> Self {
        Name {
            ident: ident(text, Span::call_site()),
            text: text.to_owned(),
        }
    }

    /// `prefix` + name, e.g. `set_type` for `r#type` (`format_ident!`
    /// formats an identifier without its `r#`).
    pub fn with_prefix(&self, prefix: &str) -> Ident {
        format_ident!("{}{}", prefix, self.ident)
    }

    /// name + `suffix`, e.g. `type_starts_with`.
    pub fn with_suffix(&self, suffix: &str) -> Ident {
        format_ident!("{}{}", self.ident, suffix)
    }
}

/// An identifier for `text`, raw when `text` is a keyword.
pub fn ident(text: &str, span: Span) -> Ident {
    if syn::parse_str::<Ident>(text).is_ok() {
        Ident::new(text, span)
    } else {
        Ident::new_raw(text, span)
    }
}

/// A local of generated code: hygienic (`Span::mixed_site`), so it never
/// captures nor shadows a name of the user's, such as a field called `v`.
pub fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// `gsi1_sk` → `Gsi1Sk`, `created-at` → `CreatedAt`: a name as part of a
/// type's or trait's name.
pub fn camel(s: &str) -> String {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}
