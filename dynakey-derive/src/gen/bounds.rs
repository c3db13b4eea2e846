//! The `where` bounds of a typed update: DYNA226 (an update that changes
//! an input of an index key brings every other input of that key) and
//! DYNA228 (an upsert sets every field a new item needs).
//!
//! Each key with two or more open inputs gets one trait, bounded on the
//! tuple of its inputs' states, whose message (from `diag::traits`)
//! redraws the template with a caret under each input; the entity gets one
//! trait for the fields a new
//! item needs. Each trait has one blanket impl over the runtime's rule
//! (`KeyComplete`, `AllRequired`), marked `do_not_recommend` so that an
//! unmet bound is reported with the trait's own message. One trait per
//! key, not per input, keeps what every user compiles on every edit small.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::update::Gen;
use crate::diag::traits::{self, KeyInputs, TraitMessage};
use crate::unraw::camel;

impl Gen<'_> {
    /// The traits the bounds name, and the `where` clause of the builder's
    /// `CompleteUpdate` impl.
    pub fn bounds(&self) -> (TokenStream, TokenStream) {
        let e = self.e;
        let ident = &e.ident;
        let mut traits = TokenStream::new();
        let mut bounds: Vec<TokenStream> = Vec::new();
        let state = |f: usize| -> &Ident { &self.params[self.state_of(f).expect("tracked")] };
        for k in self.u.keys.iter().filter(|k| k.open.len() >= 2) {
            let key = e.key_of(k);
            let index = key.index.as_deref().unwrap_or_default();
            let names: Vec<String> = k
                .open
                .iter()
                .map(|&f| e.fields[f].name.text.clone())
                .collect();
            let tr = format_ident!("{}{}Inputs", ident, camel(&key.attr));
            let group = self
                .u
                .groups
                .iter()
                .find(|g| g.fields.contains(&k.open[0]))
                .map(|g| super::setters::group_setter(e, &self.u.keys, g).to_string())
                .unwrap_or_default();
            let TraitMessage {
                message,
                label,
                notes,
            } = traits::key_inputs(&KeyInputs {
                entity: &ident.to_string(),
                attr: &key.attr,
                template: &key.tpl.text,
                index,
                sparse: k.sparse,
                inputs: &names,
                setter: &group,
            });
            traits.extend(quote! {
                #[diagnostic::on_unimplemented(message = #message, label = #label #(, note = #notes)*)]
                pub trait #tr {}
                #[diagnostic::do_not_recommend]
                #[automatically_derived]
                impl<S: __dk_KeyComplete<dyn #tr>> #tr for S {}
            });
            let states = k.open.iter().map(|&f| state(f));
            bounds.push(quote!((#(#states,)*): #tr));
        }
        let required: Vec<(usize, usize)> = self
            .u
            .tracked
            .iter()
            .enumerate()
            .filter(|(_, f)| self.u.required.contains(f))
            .map(|(pos, &f)| (pos, f))
            .collect();
        if !required.is_empty() {
            let m = &self.mode;
            let tr = format_ident!("{}NewItem", ident);
            let names: Vec<String> = required
                .iter()
                .map(|&(_, f)| e.fields[f].name.text.clone())
                .collect();
            let TraitMessage {
                message,
                label,
                notes,
            } = traits::new_item(&ident.to_string(), &names);
            traits.extend(quote! {
                #[diagnostic::on_unimplemented(message = #message, label = #label #(, note = #notes)*)]
                pub trait #tr<Mode> {}
                #[diagnostic::do_not_recommend]
                #[automatically_derived]
                impl<S: __dk_AllRequired<Mode, dyn #tr<Mode>>, Mode> #tr<Mode> for S {}
            });
            // Tuples of at most 16 (the runtime's rule has impls up to 16).
            for chunk in required.chunks(16) {
                let states = chunk.iter().map(|&(pos, _)| &self.params[pos]);
                bounds.push(quote!((#(#states,)*): #tr<#m>));
            }
        }
        let clause = if bounds.is_empty() {
            quote!()
        } else {
            quote!(where #(#bounds),*)
        };
        (traits, clause)
    }
}
