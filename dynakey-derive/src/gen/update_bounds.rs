//! The `where` bounds of a typed update: DYNA226 (an update that changes
//! an input of an index key brings every other input of that key) and
//! DYNA228 (an upsert sets every field a new item needs).
//!
//! For each key with two or more open inputs, each input gets a bound over
//! the fold of the key's input states (the runtime's `Fold`): linear in the
//! number of inputs, with an `on_unimplemented` message naming the missing
//! field and redrawing the template with a caret under it.
//!
//! Each trait has one blanket impl over the runtime's rule
//! (`InputComplete`, `RequiredSet`), marked `do_not_recommend` so that an
//! unmet bound is reported with the trait's own message, not the rule's.
//!
//! The traits live in the entity's anonymous `const _` block, which rustdoc
//! does not document and whose lint attributes cover them: they need no
//! attributes of their own.

use super::text::{lit, w};
use super::update::Gen;
use crate::render::{caret, placeholder};

/// An attribute name as part of an identifier.
fn ident_safe(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The template holding `<field>` redrawn with a caret under it.
fn redraw(attr: &str, tpl: &str, field: &str) -> String {
    match placeholder(tpl, field) {
        Some(r) => caret(attr, tpl, r, "not set by this update"),
        None => String::new(),
    }
}

impl Gen<'_> {
    /// The `where` bounds of `TypedUpdate`; the traits they name are
    /// written to `src`.
    pub(super) fn bounds(&self, src: &mut String) -> Vec<String> {
        let e = self.e;
        let ident = &e.ident;
        // Every parameter is a `State`, so the folds below are well-formed.
        let mut bounds: Vec<String> = self
            .params
            .iter()
            .map(|s| format!("{s}: __dk::State"))
            .collect();
        // DYNA226: per key, each input set unless no input is set or one is
        // removed (folded over the key's inputs).
        for k in self.u.keys.iter().filter(|k| k.open.len() >= 2) {
            let mut fold = String::from("__dk::Nil");
            for &f in &k.open {
                let s = &self.params[self.state_of(f).expect("open inputs are tracked")];
                fold = format!("<{fold} as __dk::Fold>::Then<{s}>");
            }
            let key = e.key_of(k);
            let index = key.index.as_deref().unwrap_or_default();
            let what = format!(
                "{} `{}` of {}index `{index}`",
                key.attr,
                key.template,
                if k.sparse { "sparse " } else { "" }
            );
            let note = lit("DynamoDB cannot build a key from what the item holds: an update brings every input of a key it changes (the table key's come with the key). Set the missing field to its stored value (read it first), or put the whole item.");
            for &f in &k.open {
                let fname = e.fields[f].ident.to_string();
                let tr = format!("__{}Dyna226_{}_{}", ident, ident_safe(&key.attr), fname);
                let msg = lit(&format!(
                    "DYNA226: this update of `{ident}` sets an input of {what} but not `{fname}`, so the key cannot be rebuilt"
                ));
                let label = lit(&format!("add `.set_{fname}(..)` to this update"));
                let drawn = lit(&redraw(&key.attr, &key.template, &fname));
                w!(
                    src,
                    "#[diagnostic::on_unimplemented(message = {msg}, label = {label}, note = {drawn}, note = {note})] \
                     pub trait {tr}<Acc> {{}} \
                     #[diagnostic::do_not_recommend] \
                     impl<S: __dk::InputComplete<Acc, dyn {tr}<Acc>>, Acc> {tr}<Acc> for S {{}}"
                );
                let s = &self.params[self.state_of(f).expect("open inputs are tracked")];
                bounds.push(format!("{s}: {tr}<{fold}>"));
            }
        }
        // DYNA228: an upsert sets every field a new item needs.
        for (pos, &f) in self.u.tracked.iter().enumerate() {
            let field = &e.fields[f];
            if !self.u.required.contains(&f) {
                continue;
            }
            let fname = field.ident.to_string();
            let tr = format!("__{ident}Dyna228_{fname}");
            let msg = lit(&format!(
                "DYNA228: this upsert of `{ident}` does not set `{fname}`, which a new item needs"
            ));
            let label = lit(&format!("add `.set_{fname}(..)` to this upsert"));
            let note = lit(&format!("an upsert creates the item when it is missing, so it sets every field that reading the item back needs (an `Option`, `omit_empty` or set field may be left out); to change an existing item only, use `{ident}::update(..)`"));
            w!(
                src,
                "#[diagnostic::on_unimplemented(message = {msg}, label = {label}, note = {note})] \
                 pub trait {tr}<Mode> {{}} \
                 #[diagnostic::do_not_recommend] \
                 impl<S: __dk::RequiredSet<Mode, dyn {tr}<Mode>>, Mode> {tr}<Mode> for S {{}}"
            );
            let s = &self.params[pos];
            bounds.push(format!("{s}: {tr}<M>"));
        }
        bounds
    }
}
