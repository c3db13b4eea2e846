//! Typed updates (`E::update(..)`, `E::upsert(..)`) that keep every index
//! key right, typed attribute handles (`E::attrs()`), and DYNA226/227/228 at
//! compile time.
//!
//! Each index key attribute holds what `to_item` would write: the key text
//! while every input of that key is present, nothing otherwise. DynamoDB
//! cannot build a key from what an item holds, so an update that changes an
//! input of a key brings every other input of that key (table-key inputs
//! come with the update's key) and rewrites or removes the key.
//!
//! The builder tracks the fields that matter with one type parameter each
//! (`Unset`/`Set`/`Removed`). For each key with two or more such inputs,
//! each input gets a bound over the fold of the key's input states (the
//! runtime's `Fold`): linear in the number of inputs, with a DYNA226
//! `on_unimplemented` message naming the missing field. An upsert also
//! requires every field a new item needs (DYNA228).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::keys::{arg_rebind, arg_ty, call_key_fn};
use super::private;
use crate::model::{Entity, UpdateModel};
use crate::render::{caret, placeholder};
use crate::types::{self, TypeKind};

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

pub fn expand(e: &Entity, vis: &syn::Visibility) -> TokenStream {
    Gen::new(e, vis).expand()
}

struct Gen<'a> {
    e: &'a Entity,
    u: &'a UpdateModel,
    vis: &'a syn::Visibility,
    builder: Ident,
    params: Vec<Ident>,
}

impl<'a> Gen<'a> {
    fn new(e: &'a Entity, vis: &'a syn::Visibility) -> Self {
        Gen {
            e,
            u: &e.update,
            vis,
            builder: format_ident!("{}Update", e.ident),
            params: (0..e.update.tracked.len())
                .map(|i| format_ident!("S{}", i))
                .collect(),
        }
    }

    fn state_of(&self, f: usize) -> Option<usize> {
        self.u.tracked.iter().position(|t| *t == f)
    }

    fn kept_ident(&self, f: usize) -> Ident {
        format_ident!("__k_{}", self.e.fields[f].ident)
    }

    fn slot_ident(&self, f: usize) -> Ident {
        format_ident!("__v_{}", self.e.fields[f].ident)
    }

    /// `Builder<M, S0, .., Set, ..>` with parameter `pos` replaced.
    fn retyped(&self, pos: Option<usize>, state: TokenStream) -> TokenStream {
        let builder = &self.builder;
        let ps = self.params.iter().enumerate().map(|(j, s)| {
            if Some(j) == pos {
                state.clone()
            } else {
                quote!(#s)
            }
        });
        quote!(#builder<M, #(#ps),*>)
    }

    fn expand(&self) -> TokenStream {
        let p = private();
        let e = self.e;
        let ident = &e.ident;
        let vis = self.vis;
        let builder = &self.builder;
        let params = &self.params;
        let attrs_ty = format_ident!("{}Attrs", ident);

        // ---- the builder struct ---------------------------------------------
        let kept_fields = self.u.kept.iter().map(|&i| {
            let f = &e.fields[i];
            let name = self.kept_ident(i);
            let ty = if f.kind == TypeKind::String {
                quote!(#p::String)
            } else {
                let t = &f.inner;
                quote!(#t)
            };
            quote!(#name: #ty)
        });
        let slot_fields = self.u.slots.iter().map(|&i| {
            let name = self.slot_ident(i);
            let ty = &e.fields[i].ty;
            quote!(#name: ::core::option::Option<#ty>)
        });
        let defaults = params.iter().map(|s| quote!(#s = #p::Unset));
        let doc = format!(
            "A typed update of one `{ident}`, from `{ident}::update(..)` (change an existing item) or `{ident}::upsert(..)` (create it when missing); send it with `db.update(..)`. It rewrites every index key whose inputs it sets."
        );
        let struct_def = quote! {
            #[doc = #doc]
            #[must_use = "an update does nothing until sent with db.update(..)"]
            #vis struct #builder<M = #p::Patch, #(#defaults),*> {
                __key: ::core::result::Result<#p::Key<#ident>, #p::KeyFormatError>,
                #(#kept_fields,)*
                #(#slot_fields,)*
                __upd: #p::Update,
                __cond: ::core::option::Option<#p::Condition>,
                __err: ::core::option::Option<#p::Error>,
                __s: ::core::marker::PhantomData<fn() -> (M, #(#params,)*)>,
            }
        };

        let (methods, traps) = self.setters();
        let (bounds, traits) = self.bounds();
        let upkeep = self.upkeep();
        let bump = e.fields.iter().find(|f| f.version()).map(|v| {
            let a = &v.attr;
            quote!(__upd = __upd.increment(#a, 1);)
        });
        let ctors = self.ctors();
        let where_clause = if bounds.is_empty() {
            quote!()
        } else {
            quote!(where #(#bounds),*)
        };
        let retype_fields = self
            .u
            .kept
            .iter()
            .map(|&i| self.kept_ident(i))
            .chain(self.u.slots.iter().map(|&i| self.slot_ident(i)));
        let retype_fields2 = retype_fields.clone();
        let new_params: Vec<Ident> = (0..params.len()).map(|i| format_ident!("T{}", i)).collect();

        // ---- typed attribute handles ----------------------------------------
        let handle_fields = e.fields.iter().filter(|f| !f.skip()).map(|f| {
            let id = &f.ident;
            let inner = &f.inner;
            let doc = format!("The attribute `{}`.", f.attr);
            quote!(#[doc = #doc] pub #id: #p::Field<#ident, #inner>)
        });
        let handle_init = e.fields.iter().filter(|f| !f.skip()).map(|f| {
            let id = &f.ident;
            let a = &f.attr;
            quote!(#id: #p::Field::new(#a))
        });
        let attrs_doc =
            format!("Typed handles on the attributes of `{ident}`, for conditions and filters.");

        quote! {
            #struct_def
            #(#traps)*
            #(#traits)*

            impl<M, #(#params),*> #builder<M, #(#params),*> {
                /// The same update under other typestate parameters.
                fn __retype<N, #(#new_params),*>(self) -> #builder<N, #(#new_params),*> {
                    #builder {
                        __key: self.__key,
                        #(#retype_fields: self.#retype_fields2,)*
                        __upd: self.__upd,
                        __cond: self.__cond,
                        __err: self.__err,
                        __s: ::core::marker::PhantomData,
                    }
                }

                #(#methods)*
            }

            impl<M: #p::UpdateMode, #(#params),*> #p::TypedUpdate for #builder<M, #(#params),*> #where_clause {
                type Entity = #ident;
                fn into_parts(self) -> ::core::result::Result<#p::UpdateParts<#ident>, #p::Error> {
                    if let ::core::option::Option::Some(__e) = self.__err {
                        return ::core::result::Result::Err(__e);
                    }
                    let __key = self.__key?;
                    let mut __upd = self.__upd;
                    #(#upkeep)*
                    #bump
                    ::core::result::Result::Ok(#p::UpdateParts { key: __key, update: __upd, condition: self.__cond })
                }
            }

            #[doc = #attrs_doc]
            #[derive(Debug, Clone, Copy)]
            #vis struct #attrs_ty {
                #(#handle_fields,)*
            }

            impl #ident {
                #ctors

                /// Typed handles on this entity's attributes.
                pub const fn attrs() -> #attrs_ty {
                    #attrs_ty { #(#handle_init,)* }
                }
            }
        }
    }

    /// `E::update(..)` and `E::upsert(..)`.
    fn ctors(&self) -> TokenStream {
        let p = private();
        let e = self.e;
        let ident = &e.ident;
        let builder = &self.builder;
        let key_params: Vec<TokenStream> = self
            .u
            .table_key
            .iter()
            .map(|&i| {
                let f = &e.fields[i];
                let id = &f.ident;
                let t = arg_ty(f);
                quote!(#id: #t)
            })
            .collect();
        let rebinds: Vec<TokenStream> = self
            .u
            .table_key
            .iter()
            .map(|&i| arg_rebind(&e.fields[i]))
            .collect();
        let key_args: Vec<&Ident> = self
            .u
            .table_key
            .iter()
            .map(|&i| &e.fields[i].ident)
            .collect();
        let kept_init: Vec<TokenStream> = self
            .u
            .kept
            .iter()
            .map(|&i| {
                let f = &e.fields[i];
                let name = self.kept_ident(i);
                let id = &f.ident;
                if f.kind == TypeKind::String {
                    quote!(#name: #p::String::from(#id))
                } else {
                    quote!(#name: ::core::clone::Clone::clone(#id))
                }
            })
            .collect();
        let slot_init: Vec<TokenStream> = self
            .u
            .slots
            .iter()
            .map(|&i| {
                let name = self.slot_ident(i);
                quote!(#name: ::core::option::Option::None)
            })
            .collect();
        let unset: Vec<TokenStream> = self.params.iter().map(|_| quote!(#p::Unset)).collect();
        let pk_attr = &e.pk.attr;

        // What an upsert writes beyond the fields it is given: the
        // discriminator, the key fields as attributes, and every index key
        // that only table-key fields feed (constant ones included).
        let disc_attr = &e.disc_attr;
        let disc = &e.discriminator;
        let key_attrs = self.u.table_key.iter().map(|&i| {
            let f = &e.fields[i];
            let id = &f.ident;
            let attr = &f.attr;
            let inner = &f.inner;
            let value = if f.kind == TypeKind::String {
                quote!(::core::option::Option::Some(#p::AttributeValue::S(#p::String::from(#id))))
            } else {
                quote!(<#inner as #p::Attr>::to_attr(#id))
            };
            quote! {
                if let ::core::option::Option::Some(__a) = #value {
                    __upd = __upd.set_value(#attr, __a);
                }
            }
        });
        let closed_keys = self.u.keys.iter().filter(|k| k.open.is_empty()).map(|k| {
            let key = e.key_of(k);
            let attr = &key.attr;
            let call = call_key_fn(e, key, true);
            quote! {
                match #call {
                    ::core::result::Result::Ok(__s) => __upd = __upd.set_value(#attr, #p::AttributeValue::S(__s)),
                    ::core::result::Result::Err(__e) => { __err.get_or_insert(#p::Error::from(__e)); }
                }
            }
        });
        let update_doc = format!("Starts an update of the existing `{ident}` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`).");
        let upsert_doc = format!("Starts an upsert of the `{ident}` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero.");
        quote! {
            #[doc = #update_doc]
            #[allow(clippy::too_many_arguments)]
            pub fn update(#(#key_params),*) -> #builder<#p::Patch, #(#unset),*> {
                #(#rebinds)*
                #builder {
                    __key: Self::key(#(#key_args),*),
                    #(#kept_init,)*
                    #(#slot_init,)*
                    __upd: #p::Update::new(),
                    __cond: ::core::option::Option::Some(#p::Condition::attr(#pk_attr).exists()),
                    __err: ::core::option::Option::None,
                    __s: ::core::marker::PhantomData,
                }
            }

            #[doc = #upsert_doc]
            #[allow(clippy::too_many_arguments, unused_mut)]
            pub fn upsert(#(#key_params),*) -> #builder<#p::Upsert, #(#unset),*> {
                #(#rebinds)*
                let mut __err: ::core::option::Option<#p::Error> = ::core::option::Option::None;
                let mut __upd = #p::Update::new()
                    .set_value(#disc_attr, #p::AttributeValue::S(#p::String::from(#disc)));
                #(#key_attrs)*
                #(#closed_keys)*
                #builder {
                    __key: Self::key(#(#key_args),*),
                    #(#kept_init,)*
                    #(#slot_init,)*
                    __upd,
                    __cond: ::core::option::Option::None,
                    __err,
                    __s: ::core::marker::PhantomData,
                }
            }
        }
    }

    /// The setters, and the DYNA227 traps of table-key fields.
    fn setters(&self) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let p = private();
        let e = self.e;
        let ident = &e.ident;
        let vis = self.vis;
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
                    #vis trait #tr {}
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
                    Some(pos) => (self.retyped(Some(pos), state), quote!(self.__retype())),
                    None => (quote!(Self), quote!(self)),
                }
            };
            // What the value does to the update expression.
            let push = if f.serde() {
                quote! {
                    match #p::serde_to_attr(&__v, #name) {
                        ::core::result::Result::Ok(::core::option::Option::Some(__a)) => { self.__upd = self.__upd.set_value(#attr, __a); }
                        ::core::result::Result::Ok(::core::option::Option::None) => { self.__upd = self.__upd.remove(#attr); }
                        ::core::result::Result::Err(__e) => { self.__err.get_or_insert(#p::Error::from(__e)); }
                    }
                }
            } else if f.ttl() {
                quote! {
                    match <#ty as #p::Ttl>::ttl_to_attr(&__v) {
                        ::core::option::Option::Some(__a) => { self.__upd = self.__upd.set_value(#attr, __a); }
                        ::core::option::Option::None => { self.__upd = self.__upd.remove(#attr); }
                    }
                }
            } else {
                let empty = if f.omit_empty() {
                    quote!(<#ty as #p::Attr>::is_empty_value(&__v))
                } else {
                    quote!(false)
                };
                quote! {
                    match <#ty as #p::Attr>::to_attr(&__v) {
                        ::core::option::Option::Some(__a) if !#empty => { self.__upd = self.__upd.set_value(#attr, __a); }
                        _ => { self.__upd = self.__upd.remove(#attr); }
                    }
                }
            };
            let slot = self.u.slots.contains(&i).then(|| self.slot_ident(i));
            let store = slot
                .as_ref()
                .map(|s| quote!(self.#s = ::core::option::Option::Some(__v);));
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
                    #push
                    #store
                    #body
                }
            });
            if f.optional {
                let rm = format_ident!("remove_{}", id);
                let store_none = slot
                    .as_ref()
                    .map(|s| quote!(self.#s = ::core::option::Option::Some(::core::option::Option::None);));
                let rm_doc = format!("Removes `{name}` (and every index key it feeds).");
                let (ret, body) = to(quote!(#p::Removed));
                methods.push(quote! {
                    #[doc = #rm_doc]
                    pub fn #rm(mut self) -> #ret {
                        self.__upd = self.__upd.remove(#attr);
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
                    self.__upd = self.__upd.set_if_not_exists(#attr, __v);
                    #body
                }
            });
            if f.kind == TypeKind::Int {
                let inc = format_ident!("increment_{}", id);
                let doc = format!("`SET {attr} = {attr} + n`, from 0 when the attribute is absent (an upsert of a new counter starts it).");
                methods.push(quote! {
                    #[doc = #doc]
                    pub fn #inc(mut self, n: i64) -> #ret {
                        self.__upd = self.__upd.increment(#attr, n);
                        #body
                    }
                });
            }
            if f.kind.is_number() || types::is_set(&f.inner) {
                let add = format_ident!("add_{}", id);
                let doc = format!("`ADD {attr} v`: a number to add, or set members to add.");
                methods.push(quote! {
                    #[doc = #doc]
                    pub fn #add(mut self, value: #inner) -> #ret {
                        self.__upd = self.__upd.add(#attr, value);
                        #body
                    }
                });
            }
            if types::is_set(&f.inner) {
                let del = format_ident!("delete_{}", id);
                let doc = format!("`DELETE {attr} v`: set members to take out.");
                methods.push(quote! {
                    #[doc = #doc]
                    pub fn #del(mut self, value: #inner) -> Self {
                        self.__upd = self.__upd.delete(#attr, value);
                        self
                    }
                });
            }
            if types::is_list(&f.inner) {
                let app = format_ident!("append_{}", id);
                let doc = format!("`SET {attr} = list_append({attr}, v)`.");
                methods.push(quote! {
                    #[doc = #doc]
                    pub fn #app(mut self, value: #inner) -> #ret {
                        self.__upd = self.__upd.append(#attr, value);
                        #body
                    }
                });
            }
        }
        if let Some(v) = e.fields.iter().find(|f| f.version()) {
            let attr = &v.attr;
            let inner = &v.inner;
            methods.push(quote! {
                /// Only when the stored version is `version` (optimistic lock);
                /// the update bumps it by one either way.
                pub fn if_version(mut self, version: #inner) -> Self {
                    let __c = #p::Condition::attr(#attr).eq(version);
                    self.__cond = ::core::option::Option::Some(#p::Condition::join(self.__cond.take(), __c));
                    self
                }
            });
        }
        methods.push(quote! {
            /// Adds a condition (joined with AND to any other).
            pub fn condition(mut self, cond: #p::Condition) -> Self {
                self.__cond = ::core::option::Option::Some(#p::Condition::join(self.__cond.take(), cond));
                self
            }
        });
        (methods, traps)
    }

    /// The `where` bounds of `TypedUpdate` and the traits they name.
    fn bounds(&self) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let p = private();
        let e = self.e;
        let ident = &e.ident;
        let vis = self.vis;
        let mut bounds = Vec::new();
        let mut traits = Vec::new();
        // Every parameter is a `State`, so the folds below are well-formed.
        for s in &self.params {
            bounds.push(quote!(#s: #p::State));
        }
        // DYNA226: per key, each input set unless no input is set or one is
        // removed (folded over the key's inputs).
        for k in self.u.keys.iter().filter(|k| k.open.len() >= 2) {
            let mut fold = quote!(#p::Nil);
            for &f in &k.open {
                let s = &self.params[self.state_of(f).expect("open inputs are tracked")];
                fold = quote!(<#fold as #p::Fold>::Then<#s>);
            }
            let key = e.key_of(k);
            let index = key.index.as_deref().unwrap_or_default();
            let what = format!(
                "{} `{}` of {}index `{index}`",
                key.attr,
                key.template,
                if k.sparse { "sparse " } else { "" }
            );
            for &f in &k.open {
                let fname = e.fields[f].ident.to_string();
                let tr = format_ident!("__{}Dyna226_{}_{}", ident, ident_safe(&key.attr), fname);
                let msg = format!(
                    "DYNA226: this update of `{ident}` sets an input of {what} but not `{fname}`, so the key cannot be rebuilt"
                );
                let label = format!("add `.set_{fname}(..)` to this update");
                let drawn = redraw(&key.attr, &key.template, &fname);
                let note = "DynamoDB cannot build a key from what the item holds: an update brings every input of a key it changes (the table key's come with the key). Set the missing field to its stored value (read it first), or put the whole item.";
                traits.push(quote! {
                    #[doc(hidden)]
                    #[allow(non_camel_case_types)]
                    #[diagnostic::on_unimplemented(message = #msg, label = #label, note = #drawn, note = #note)]
                    #vis trait #tr<Acc> {}
                    #[diagnostic::do_not_recommend]
                    impl<Acc> #tr<Acc> for #p::Set {}
                    #[diagnostic::do_not_recommend]
                    impl<Acc> #tr<Acc> for #p::Removed {}
                    #[diagnostic::do_not_recommend]
                    impl #tr<#p::Nil> for #p::Unset {}
                    #[diagnostic::do_not_recommend]
                    impl #tr<#p::Rem> for #p::Unset {}
                });
                let s = &self.params[self.state_of(f).expect("open inputs are tracked")];
                bounds.push(quote!(#s: #tr<#fold>));
            }
        }
        // DYNA228: an upsert sets every field a new item needs.
        for (pos, &f) in self.u.tracked.iter().enumerate() {
            let field = &e.fields[f];
            if !self.u.required.contains(&f) {
                continue;
            }
            let fname = field.ident.to_string();
            let tr = format_ident!("__{}Dyna228_{}", ident, fname);
            let msg = format!(
                "DYNA228: this upsert of `{ident}` does not set `{fname}`, which a new item needs"
            );
            let label = format!("add `.set_{fname}(..)` to this upsert");
            let note = format!("an upsert creates the item when it is missing, so it sets every field that reading the item back needs (an `Option`, `omit_empty` or set field may be left out); to change an existing item only, use `{ident}::update(..)`");
            traits.push(quote! {
                #[doc(hidden)]
                #[allow(non_camel_case_types)]
                #[diagnostic::on_unimplemented(message = #msg, label = #label, note = #note)]
                #vis trait #tr<Mode> {}
                #[diagnostic::do_not_recommend]
                impl<Mode> #tr<Mode> for #p::Set {}
                #[diagnostic::do_not_recommend]
                impl #tr<#p::Patch> for #p::Unset {}
            });
            let s = &self.params[pos];
            bounds.push(quote!(#s: #tr<M>));
        }
        (bounds, traits)
    }

    /// Rewrites (or removes) every index key whose open inputs the update
    /// touches.
    fn upkeep(&self) -> Vec<TokenStream> {
        let p = private();
        let e = self.e;
        let ident = &e.ident;
        let mut out = Vec::new();
        for k in self.u.keys.iter().filter(|k| !k.open.is_empty()) {
            let touched = k.open.iter().map(|&i| {
                let s = self.slot_ident(i);
                quote!(self.#s.is_some())
            });
            let key = e.key_of(k);
            let fields = key.distinct_fields();
            let presents = fields.iter().map(|&i| {
                let f = &e.fields[i];
                let pid = format_ident!("__p_{}", f.ident);
                if self.u.kept.contains(&i) {
                    let kid = self.kept_ident(i);
                    return quote!(let #pid = ::core::option::Option::Some(&self.#kid););
                }
                let s = self.slot_ident(i);
                let inner = &f.inner;
                let base = if f.optional {
                    quote!(self.#s.as_ref().and_then(|__o| __o.as_ref()))
                } else {
                    quote!(self.#s.as_ref())
                };
                if f.omit_empty() && k.sparse {
                    quote!(let #pid: ::core::option::Option<&#inner> = #base.filter(|__x| !<#inner as #p::Attr>::is_empty_value(__x));)
                } else {
                    quote!(let #pid: ::core::option::Option<&#inner> = #base;)
                }
            });
            let vals = fields
                .iter()
                .map(|&i| format_ident!("__p_{}", e.fields[i].ident));
            let pats = fields.iter().map(|&i| {
                let id = &e.fields[i].ident;
                quote!(::core::option::Option::Some(#id))
            });
            let args = fields.iter().map(|&i| &e.fields[i].ident);
            let call = format_ident!("__key_{}", key.fn_name);
            let attr = &key.attr;
            out.push(quote! {
                if false #(|| #touched)* {
                    #(#presents)*
                    #[allow(unused_parens)]
                    match (#(#vals),*) {
                        (#(#pats),*) => {
                            __upd = __upd.set_value(#attr, #p::AttributeValue::S(#ident::#call(#(#args),*)?));
                        }
                        // An input is absent: the item leaves the index.
                        #[allow(unreachable_patterns)]
                        _ => { __upd = __upd.remove(#attr); }
                    }
                }
            });
        }
        out
    }
}
