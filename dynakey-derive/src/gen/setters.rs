//! The setters of a typed update, and the DYNA227 traps of table-key
//! fields. Each setter records the value in the runtime's `UpdateCore`
//! (which encodes it into the update expression), keeps it when an index
//! key reads it, and moves the builder's typestate.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::text::{lit, w, Code, Piece};
use super::update::Gen;
use crate::types::{self, TypeKind};

/// One setter: its signature, and its body with the validator's call (when
/// the field has one, as tokens: its path keeps its span) between two runs
/// of text.
fn setter(m: &mut Code, sig: &str, pre: &str, check: Option<TokenStream>, post: &str) {
    let mut body = vec![Piece::Text(pre.to_owned())];
    body.extend(check.map(Piece::Tokens));
    body.push(Piece::Text(post.to_owned()));
    m.hybrid_fn(sig, body);
}

impl Gen<'_> {
    /// The builder's methods (as text, and as tokens those that keep a
    /// span of the user's), with the DYNA227 traps of table-key fields
    /// written to `src`.
    pub(super) fn setters(&self, src: &mut String) -> Code {
        let e = self.e;
        let ident = &e.ident;
        let builder = &self.builder;
        let mut m = Code::default();
        for (i, f) in e.fields.iter().enumerate() {
            if f.skip() || f.version() {
                continue;
            }
            let id = &f.ident;
            let name = f.ident.to_string();
            let attr = lit(&f.attr);
            let ty = &self.t.ty[i];
            let inner = &self.t.inner[i];
            if self.u.table_key.contains(&i) {
                let tr = format!("__{ident}Dyna227_{id}");
                let msg = lit(&format!(
                    "DYNA227: `{name}` is part of the table key of `{ident}` and cannot be updated"
                ));
                let note = lit("a key is the item's identity: delete it and put it under the new key in one transaction with `db.move_item(old_key, &new_item)`");
                w!(
                    src,
                    "#[diagnostic::on_unimplemented(message = {msg}, label = \"this sets a table-key field\", note = {note})] \
                     pub trait {tr} {{}}"
                );
                // Tokens: the names carry the entity's and the field's
                // spans, so the error's "required by" note shows the field.
                let set_fn = format_ident!("set_{}", id);
                let tr = format_ident!("__{}Dyna227_{}", ident, id);
                m.tokens.extend(quote! {
                    #[doc(hidden)]
                    pub fn #set_fn<__V: #tr>(self, _value: __V) -> Self {
                        self
                    }
                });
                continue;
            }
            let pos = self.state_of(i);
            // The struct rebuilt in place rather than through a generic
            // helper: one function fewer to instantiate for every state an
            // update passes through.
            let to = |state: &str| -> (String, String) {
                match pos {
                    Some(pos) => (
                        self.retyped(pos, state),
                        format!("{builder} {{ __c: self.__c, __s: __dk::PhantomData }}"),
                    ),
                    None => ("Self".to_owned(), "self".to_owned()),
                }
            };
            // What the value does to the update expression.
            let push = if f.serde() {
                format!(
                    "self.__c.put_encoded({attr}, __dk::serde_to_attr(&__v, {}));",
                    lit(&name)
                )
            } else if f.ttl() {
                format!("self.__c.put_encoded({attr}, __dk::Ok(<{ty} as __dk::Ttl>::ttl_to_attr(&__v)));")
            } else if f.omit_empty() {
                format!("self.__c.put_omit_empty({attr}, &__v);")
            } else {
                format!("self.__c.put({attr}, &__v);")
            };
            let slot = self
                .u
                .slots
                .contains(&i)
                .then(|| self.val_index(i))
                .flatten();
            let store = slot
                .map(|v| format!("self.__c.vals.{v} = __dk::Some(__v);"))
                .unwrap_or_default();
            // A validator runs on the value set; a refusal is sent nowhere.
            let check = f.validate.as_ref().map(|path| {
                let name = &name;
                if f.optional {
                    quote!(if let __dk::Some(__x) = &__v { self.__c.check(#name, #path(__x)); })
                } else {
                    quote!(self.__c.check(#name, #path(&__v));)
                }
            });
            let set_doc = lit(&format!(
                "Sets `{name}`{}.",
                if f.optional {
                    " (`None` removes it)"
                } else {
                    ""
                }
            ));
            let (ret, body) = to("__dk::Set");
            let get = format!("let __v: {ty} = __dk::IntoField::into_field(value);");
            setter(
                &mut m,
                &format!("#[doc = {set_doc}] pub fn set_{id}(mut self, value: impl __dk::IntoField<{ty}>) -> {ret}"),
                &get,
                check.clone(),
                &format!("{push} {store} {body}"),
            );
            if f.optional {
                let store_none = slot
                    .map(|v| format!("self.__c.vals.{v} = __dk::Some(__dk::None);"))
                    .unwrap_or_default();
                let rm_doc = lit(&format!("Removes `{name}` (and every index key it feeds)."));
                let (ret, body) = to("__dk::Removed");
                w!(
                    m.text,
                    "#[doc = {rm_doc}] pub fn remove_{id}(mut self) -> {ret} {{ \
                     self.__c.remove({attr}); {store_none} {body} }}"
                );
            }
            // Expression updates: only for fields that feed no key, since
            // the new value is not known here.
            if slot.is_some() || f.serde() || f.ttl() {
                continue;
            }
            let sine_doc = lit(&format!(
                "Sets `{name}` unless the item has it (`if_not_exists`)."
            ));
            setter(
                &mut m,
                &format!("#[doc = {sine_doc}] pub fn set_{id}_if_not_exists(mut self, value: impl __dk::IntoField<{ty}>) -> {ret}"),
                &get,
                check,
                &format!("self.__c.with(|__u| __u.set_if_not_exists({attr}, __v)); {body}"),
            );
            let mut expr = |name: String, doc: String, arg: &str, call: String, to_set: bool| {
                let (ret, body) = if to_set {
                    (ret.clone(), body.clone())
                } else {
                    ("Self".to_owned(), "self".to_owned())
                };
                w!(
                    m.text,
                    "#[doc = {}] pub fn {name}(mut self, {arg}) -> {ret} {{ \
                     self.__c.with(|__u| __u.{call}); {body} }}",
                    lit(&doc)
                );
            };
            let raw = &f.attr;
            if f.kind == TypeKind::Int {
                let doc = format!("`SET {raw} = {raw} + n`, from 0 when the attribute is absent (an upsert of a new counter starts it).");
                expr(
                    format!("increment_{id}"),
                    doc,
                    "n: i64",
                    format!("increment({attr}, n)"),
                    true,
                );
            }
            if f.kind.is_number() || types::is_set(&f.inner) {
                let doc = format!("`ADD {raw} v`: a number to add, or set members to add.");
                expr(
                    format!("add_{id}"),
                    doc,
                    &format!("value: {inner}"),
                    format!("add({attr}, value)"),
                    true,
                );
            }
            if types::is_set(&f.inner) {
                let doc = format!("`DELETE {raw} v`: set members to take out.");
                expr(
                    format!("delete_{id}"),
                    doc,
                    &format!("value: {inner}"),
                    format!("delete({attr}, value)"),
                    false,
                );
            }
            if types::is_list(&f.inner) {
                let doc = format!("`SET {raw} = list_append({raw}, v)`.");
                expr(
                    format!("append_{id}"),
                    doc,
                    &format!("value: {inner}"),
                    format!("append({attr}, value)"),
                    true,
                );
            }
        }
        if let Some(i) = e.fields.iter().position(|f| f.version()) {
            w!(
                m.text,
                "/// Only when the stored version is `version` (optimistic lock);\n\
                 /// the update bumps it by one either way.\n\
                 pub fn if_version(mut self, version: {}) -> Self {{ \
                 self.__c.condition(__dk::Condition::attr({}).eq(version)); self }}",
                self.t.inner[i],
                lit(&e.fields[i].attr)
            );
        }
        w!(
            m.text,
            "/// Adds a condition (joined with AND to any other).\n\
             pub fn condition(mut self, cond: __dk::Condition) -> Self {{ self.__c.condition(cond); self }}"
        );
        m
    }
}
