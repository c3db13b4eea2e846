//! The `where` bounds of a typed update: DYNA226 (an update that changes
//! an input of an index key brings every other input of that key) and
//! DYNA228 (an upsert sets every field a new item needs).
//!
//! For each key with two or more open inputs, each input gets a bound over
//! the fold of the key's input states (the runtime's `Folded`), with an
//! `on_unimplemented` message naming the missing field and redrawing the
//! template with a caret under it. Each trait has one blanket impl over
//! the runtime's rule (`InputComplete`, `RequiredSet`), marked
//! `do_not_recommend` so that an unmet bound is reported with the trait's
//! own message.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::dk;
use super::update::Gen;
use crate::render::{caret, placeholder};
use crate::unraw::camel;

impl Gen<'_> {
    /// The traits the bounds name, and the `where` clause of `TypedUpdate`.
    pub fn bounds(&self) -> (TokenStream, TokenStream) {
        let p = dk();
        let e = self.e;
        let ident = &e.ident;
        let mut traits = TokenStream::new();
        let mut bounds: Vec<TokenStream> = Vec::new();
        let state = |f: usize| -> &Ident { &self.params[self.state_of(f).expect("tracked")] };
        for k in self.u.keys.iter().filter(|k| k.open.len() >= 2) {
            let states: Vec<&Ident> = k.open.iter().map(|&f| state(f)).collect();
            let fold = if states.len() <= 16 {
                quote!(<(#(#states,)*) as #p::Folded>::Out)
            } else {
                let mut fold = quote!(#p::Nil);
                for s in &states {
                    fold = quote!(<#fold as #p::Fold>::Then<#s>);
                }
                fold
            };
            let key = e.key_of(k);
            let index = key.index.as_deref().unwrap_or_default();
            let what = format!(
                "{} `{}` of {}index `{index}`",
                key.attr,
                key.tpl.text,
                if k.sparse { "sparse " } else { "" }
            );
            let group = self
                .u
                .groups
                .iter()
                .find(|g| g.fields.contains(&k.open[0]))
                .map(|g| super::setters::group_setter(e, &self.u.keys, g).to_string())
                .unwrap_or_default();
            for &f in &k.open {
                let name = &e.fields[f].name;
                let tr = format_ident!("{}{}Needs{}", ident, camel(&key.attr), camel(&name.text));
                let message = format!(
                    "DYNA226: this update of `{ident}` sets an input of {what} but not `{}`, so the key cannot be rebuilt",
                    name.text
                );
                let label = format!("add `.{}(..)` to this update", name.with_prefix("set_"));
                let drawn = placeholder(&key.tpl.text, &name.text)
                    .map(|r| caret(&key.attr, &key.tpl.text, r, "not set by this update"))
                    .unwrap_or_default();
                let note = format!("DynamoDB cannot rebuild a key from what the item holds: set every input of a key the update changes, all at once with `.{group}(..)` where the update sets them conditionally");
                traits.extend(quote! {
                    #[diagnostic::on_unimplemented(message = #message, label = #label, note = #drawn, note = #note)]
                    pub trait #tr<Acc> {}
                    #[diagnostic::do_not_recommend]
                    impl<S: #p::InputComplete<Acc, dyn #tr<Acc>>, Acc> #tr<Acc> for S {}
                });
                let s = state(f);
                bounds.push(quote!(#s: #tr<#fold>));
            }
        }
        let m = &self.mode;
        for (pos, &f) in self.u.tracked.iter().enumerate() {
            if !self.u.required.contains(&f) {
                continue;
            }
            let name = &e.fields[f].name;
            let tr = format_ident!("{}UpsertNeeds{}", ident, camel(&name.text));
            let message = format!(
                "DYNA228: this upsert of `{ident}` does not set `{}`, which a new item needs",
                name.text
            );
            let label = format!("add `.{}(..)` to this upsert", name.with_prefix("set_"));
            let note = format!("an upsert creates the item when it is missing, so it sets every field reading the item needs (an `Option`, `omit_empty`, defaulted or set field may be left out); to change an existing item only, use `{ident}::update(..)`");
            traits.extend(quote! {
                #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
                pub trait #tr<Mode> {}
                #[diagnostic::do_not_recommend]
                impl<S: #p::RequiredSet<Mode, dyn #tr<Mode>>, Mode> #tr<Mode> for S {}
            });
            let s = &self.params[pos];
            bounds.push(quote!(#s: #tr<#m>));
        }
        let clause = if bounds.is_empty() {
            quote!()
        } else {
            quote!(where #(#bounds),*)
        };
        (traits, clause)
    }
}
