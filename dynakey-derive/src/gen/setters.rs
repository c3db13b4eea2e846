//! The setters of a typed update, and the DYNA227 traps of table-key
//! fields. Each setter records the value in the runtime's `UpdateCore`
//! (which encodes it into the update expression), keeps it when an index
//! key reads it, and moves the builder's typestate.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::private;
use super::update::Gen;
use crate::types::{self, TypeKind};

impl Gen<'_> {
    /// The setters, and the DYNA227 traps of table-key fields.
    pub(super) fn setters(&self) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let p = private();
        let e = self.e;
        let ident = &e.ident;
        let builder = &self.builder;
        let mut methods = Vec::new();
        let mut traps = Vec::new();
        for (i, f) in e.fields.iter().enumerate() {
            if f.skip() || f.version() {
                continue;
            }
            let id = &f.ident;
            let name = id.to_string();
            let attr = &f.attr;
            let ty = &f.ty;
            let set_fn = format_ident!("set_{}", id);
            if self.u.table_key.contains(&i) {
                let tr = format_ident!("__{}Dyna227_{}", ident, id);
                let msg = format!(
                    "DYNA227: `{name}` is part of the table key of `{ident}` and cannot be updated"
                );
                let note = "a key is the item's identity: delete it and put it under the new key in one transaction with `db.move_item(old_key, &new_item)`";
                traps.push(quote! {
                    #[doc(hidden)]
                    #[allow(non_camel_case_types)]
                    #[diagnostic::on_unimplemented(message = #msg, label = "this sets a table-key field", note = #note)]
                    pub trait #tr {}
                });
                methods.push(quote! {
                    #[doc(hidden)]
                    pub fn #set_fn<__V: #tr>(self, _value: __V) -> Self {
                        self
                    }
                });
                continue;
            }
            let pos = self.state_of(i);
            let to = |state: TokenStream| -> (TokenStream, TokenStream) {
                match pos {
                    // The struct rebuilt in place rather than through a
                    // generic helper: one function fewer to instantiate for
                    // every state an update passes through.
                    Some(pos) => (
                        self.retyped(Some(pos), state),
                        quote!(#builder { __c: self.__c, __s: #p::PhantomData }),
                    ),
                    None => (quote!(Self), quote!(self)),
                }
            };
            // What the value does to the update expression.
            let push = if f.serde() {
                quote!(self.__c.put_encoded(#attr, #p::serde_to_attr(&__v, #name));)
            } else if f.ttl() {
                quote!(self.__c.put_encoded(#attr, #p::Ok(<#ty as #p::Ttl>::ttl_to_attr(&__v)));)
            } else if f.omit_empty() {
                quote!(self.__c.put_omit_empty(#attr, &__v);)
            } else {
                quote!(self.__c.put(#attr, &__v);)
            };
            let slot = self
                .u
                .slots
                .contains(&i)
                .then(|| self.val_index(i))
                .flatten();
            let store = slot
                .as_ref()
                .map(|v| quote!(self.__c.vals.#v = #p::Some(__v);));
            // A validator runs on the value set; a refusal is sent nowhere.
            let check = f.validate.as_ref().map(|path| {
                if f.optional {
                    quote!(if let #p::Some(__x) = &__v { self.__c.check(#name, #path(__x)); })
                } else {
                    quote!(self.__c.check(#name, #path(&__v));)
                }
            });
            let set_doc = format!(
                "Sets `{name}`{}.",
                if f.optional {
                    " (`None` removes it)"
                } else {
                    ""
                }
            );
            let (ret, body) = to(quote!(#p::Set));
            methods.push(quote! {
                #[doc = #set_doc]
                pub fn #set_fn(mut self, value: impl #p::IntoField<#ty>) -> #ret {
                    let __v: #ty = #p::IntoField::into_field(value);
                    #check
                    #push
                    #store
                    #body
                }
            });
            if f.optional {
                let rm = format_ident!("remove_{}", id);
                let store_none = slot
                    .as_ref()
                    .map(|v| quote!(self.__c.vals.#v = #p::Some(#p::None);));
                let rm_doc = format!("Removes `{name}` (and every index key it feeds).");
                let (ret, body) = to(quote!(#p::Removed));
                methods.push(quote! {
                    #[doc = #rm_doc]
                    pub fn #rm(mut self) -> #ret {
                        self.__c.remove(#attr);
                        #store_none
                        #body
                    }
                });
            }
            // Expression updates: only for fields that feed no key, since
            // the new value is not known here.
            if slot.is_some() || f.serde() || f.ttl() {
                continue;
            }
            let (ret, body) = to(quote!(#p::Set));
            let inner = &f.inner;
            let sine = format_ident!("set_{}_if_not_exists", id);
            let sine_doc = format!("Sets `{name}` unless the item has it (`if_not_exists`).");
            methods.push(quote! {
                #[doc = #sine_doc]
                pub fn #sine(mut self, value: impl #p::IntoField<#ty>) -> #ret {
                    let __v: #ty = #p::IntoField::into_field(value);
                    #check
                    self.__c.with(|__u| __u.set_if_not_exists(#attr, __v));
                    #body
                }
            });
            let mut expr = |name: syn::Ident,
                            doc: String,
                            arg: TokenStream,
                            call: TokenStream,
                            ret: &TokenStream,
                            body: &TokenStream| {
                methods.push(quote! {
                    #[doc = #doc]
                    pub fn #name(mut self, #arg) -> #ret {
                        self.__c.with(|__u| __u.#call);
                        #body
                    }
                });
            };
            if f.kind == TypeKind::Int {
                let doc = format!("`SET {attr} = {attr} + n`, from 0 when the attribute is absent (an upsert of a new counter starts it).");
                expr(
                    format_ident!("increment_{}", id),
                    doc,
                    quote!(n: i64),
                    quote!(increment(#attr, n)),
                    &ret,
                    &body,
                );
            }
            if f.kind.is_number() || types::is_set(&f.inner) {
                let doc = format!("`ADD {attr} v`: a number to add, or set members to add.");
                expr(
                    format_ident!("add_{}", id),
                    doc,
                    quote!(value: #inner),
                    quote!(add(#attr, value)),
                    &ret,
                    &body,
                );
            }
            if types::is_set(&f.inner) {
                let doc = format!("`DELETE {attr} v`: set members to take out.");
                expr(
                    format_ident!("delete_{}", id),
                    doc,
                    quote!(value: #inner),
                    quote!(delete(#attr, value)),
                    &quote!(Self),
                    &quote!(self),
                );
            }
            if types::is_list(&f.inner) {
                let doc = format!("`SET {attr} = list_append({attr}, v)`.");
                expr(
                    format_ident!("append_{}", id),
                    doc,
                    quote!(value: #inner),
                    quote!(append(#attr, value)),
                    &ret,
                    &body,
                );
            }
        }
        if let Some(v) = e.fields.iter().find(|f| f.version()) {
            let attr = &v.attr;
            let inner = &v.inner;
            methods.push(quote! {
                /// Only when the stored version is `version` (optimistic lock);
                /// the update bumps it by one either way.
                pub fn if_version(mut self, version: #inner) -> Self {
                    self.__c.condition(#p::Condition::attr(#attr).eq(version));
                    self
                }
            });
        }
        methods.push(quote! {
            /// Adds a condition (joined with AND to any other).
            pub fn condition(mut self, cond: #p::Condition) -> Self {
                self.__c.condition(cond);
                self
            }
        });
        (methods, traps)
    }
}
