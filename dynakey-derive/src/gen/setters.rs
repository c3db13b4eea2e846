//! The setters of a typed update, the setters of key groups, and the
//! DYNA227 traps of table-key fields. Each setter records the value in the
//! runtime's `UpdateCore` (which encodes it into the update expression),
//! keeps it when an index key reads it, and moves the builder's typestate:
//!
//! - an input of a key with two or more open inputs becomes `Set` (or
//!   `Removed`): DYNA226 checks the key's other inputs;
//! - a field a new item needs becomes `Mark<M, S>`: unchanged in a patch,
//!   so a patch may set it conditionally, and `Set` in an upsert, which
//!   must set it (DYNA228);
//! - any other field keeps the builder's type.
//!
//! A key group's setter (`set_gsi1_sk(status, placed)`) sets every input
//! of the keys that share them, so it keeps the type of a patch whatever
//! the update does: the way to set key inputs conditionally.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::update::Gen;
use crate::model::{Entity, Field, KeyGroup, MaintainedKey};
use crate::types::{self, TypeKind};
use crate::unraw::local;

/// The name of a key group's setter: `set_` and its keys' names.
pub fn group_setter(e: &Entity, keys: &[MaintainedKey], g: &KeyGroup) -> Ident {
    let names: Vec<String> = g
        .keys
        .iter()
        .map(|&k| e.key_of(&keys[k]).fn_name.clone())
        .collect();
    format_ident!("set_{}", names.join("_and_"))
}

impl Gen<'_> {
    /// `Self`, or the builder with field `i` moved to `state`.
    fn to_state(&self, i: usize, state: TokenStream) -> (TokenStream, TokenStream) {
        match self.state_of(i) {
            Some(pos) => (self.retyped(&[(pos, state)]), self.rebuilt()),
            None => (quote!(Self), quote!(self)),
        }
    }

    /// The state a setter of field `i` leaves it in: `Set` for a DYNA226
    /// input, `Mark<M, S>` for a field only an upsert must set.
    fn set_state(&self, i: usize) -> TokenStream {
        match self.state_of(i) {
            Some(pos) if !self.dyna226_input(i) => {
                let (m, s) = (&self.mode, &self.params[pos]);
                quote!(__dk_Mark<#m, #s>)
            }
            _ => quote!(__dk_Set),
        }
    }

    /// Whether field `i` is an input of a key with other open inputs, whose
    /// setter moves the builder to `Set` for DYNA226 to check.
    fn dyna226_input(&self, i: usize) -> bool {
        self.u
            .keys
            .iter()
            .any(|k| k.open.len() >= 2 && k.open.contains(&i))
    }

    /// The doc of `set_x`: for a DYNA226 input, how to set it conditionally.
    fn set_doc(&self, i: usize, f: &Field) -> String {
        let removes = if f.optional {
            " (`None` removes it)"
        } else {
            ""
        };
        let mut doc = format!("Sets `{}`{removes}.", f.name.text);
        if let Some(g) = self
            .u
            .groups
            .iter()
            .find(|g| g.fields.contains(&i) && self.dyna226_input(i))
        {
            let group = group_setter(self.e, &self.u.keys, g);
            doc.push_str(&format!(
                "\n\nAn input of an index key with other inputs: this changes the builder's type, so that the update does not compile unless it sets them too (DYNA226). To set it conditionally (`if let Some(x) = .. {{ u = u.set_{}(x) }}` is a type mismatch), set them all with `.{group}(..)`, or change the item with `db.patch(key, |e| ..)`, which reads it and rebuilds the key from it.",
                f.name.text
            ));
        }
        doc
    }

    /// The statements that set field `i` from `value`: the core encodes it
    /// (and a validator checks it); a key input is kept for the keys.
    fn set_stmts(&self, i: usize, value: &Ident) -> TokenStream {
        let f = &self.e.fields[i];
        let (attr, name) = (&f.attr, &f.name.text);
        let v = local("v");
        // The type comes from the value's `IntoField<T>` bound.
        let set = if f.serde() {
            quote!(self.__c.set_serde(#attr, #name, #value))
        } else if f.ttl() {
            quote!(self.__c.set_ttl(#attr, #value))
        } else if f.omit_empty() {
            quote!(self.__c.set_omit_empty(#attr, #value))
        } else {
            quote!(self.__c.set(#attr, #value))
        };
        let slot = self
            .u
            .slots
            .contains(&i)
            .then(|| self.val_index(i))
            .flatten();
        match (&f.validate, slot) {
            (None, None) => quote!(#set;),
            (None, Some(at)) => quote!(self.__c.vals.#at = __dk_Some(#set);),
            (Some(path), slot) => {
                // A validator runs on the value set; a refusal is sent nowhere.
                let check = if f.optional {
                    quote!(if let __dk_Some(x) = &#v { self.__c.check(#name, #path(x)); })
                } else {
                    quote!(self.__c.check(#name, #path(&#v));)
                };
                let store = slot.map(|at| quote!(self.__c.vals.#at = __dk_Some(#v);));
                quote!(let #v = #set; #check #store)
            }
        }
    }

    /// The builder's methods, and the DYNA227 traps of table-key fields.
    pub fn setters(&self) -> TokenStream {
        let e = self.e;
        let b = &self.builder;
        let m = &self.mode;
        let ps = &self.params;
        let args = self.args();
        let value = local("value");
        let mut methods = TokenStream::new();
        for (i, f) in e.struct_fields() {
            if f.skip() || f.version() {
                continue;
            }
            if self.u.table_key.contains(&i) {
                continue;
            }
            methods.extend(self.field_setters(i, f, &value));
        }
        if !e.stub {
            for g in &self.u.groups {
                methods.extend(self.group(g));
            }
        }
        if let Some(v) = e.fields.iter().find(|f| f.version()) {
            let (attr, ty) = (&v.attr, &v.inner);
            let version = local("version");
            methods.extend(quote! {
                /// Only when the stored version is `version` (optimistic lock);
                /// the update bumps it by one either way.
                pub fn if_version(mut self, #version: #ty) -> Self {
                    self.__c.condition(__dk_Condition::attr(#attr).eq(#version));
                    self
                }
            });
        }
        let cond = local("cond");
        methods.extend(quote! {
            /// Adds a condition (joined with AND to any other).
            pub fn condition(mut self, #cond: __dk_Condition) -> Self {
                self.__c.condition(#cond);
                self
            }
        });
        // The builder under other states: what a setter that moves one
        // returns, its type inferred from the setter's.
        let rs: Vec<Ident> = (0..ps.len()).map(|i| format_ident!("R{}", i)).collect();
        let retype = (!ps.is_empty()).then(|| {
            quote! {
                fn __re<#(#rs),*>(self) -> #b<#m, #(#rs),*> {
                    #b { __c: self.__c, __s: __dk_PhantomData }
                }
            }
        });
        quote! {
            #[automatically_derived]
            impl<#m: __dk_UpdateMode, #(#ps),*> #b #args {
                #retype
                #methods
            }
        }
    }

    /// `set_x`, and `remove_x`, `set_x_if_not_exists`, `increment_x`,
    /// `add_x`, `delete_x`, `append_x` where they apply.
    fn field_setters(&self, i: usize, f: &Field, value: &Ident) -> TokenStream {
        let e = self.e;
        let (attr, ty, inner) = (&f.attr, &f.ty, &f.inner);
        let stub = e.stub;
        let value_ty = if stub {
            quote!(impl ::core::marker::Sized)
        } else {
            quote!(impl __dk_IntoField<#ty>)
        };
        let mut out = TokenStream::new();
        let (ret, rebuilt) = self.to_state(i, self.set_state(i));
        let set = f.name.with_prefix("set_");
        let doc = self.set_doc(i, f);
        let body = super::body(stub, || {
            let stmts = self.set_stmts(i, value);
            quote!(#stmts #rebuilt)
        });
        let value_param = if stub { quote!(_) } else { quote!(#value) };
        // A stub's body does not touch `self`.
        let this = if stub { quote!(self) } else { quote!(mut self) };
        out.extend(quote! {
            #[doc = #doc]
            pub fn #set(#this, #value_param: #value_ty) -> #ret #body
        });
        let slot = self.u.slots.contains(&i);
        if f.optional {
            let (ret, rebuilt) = self.to_state(i, quote!(__dk_Removed));
            let remove = f.name.with_prefix("remove_");
            let doc = format!("Removes `{}` (and every index key it feeds).", f.name.text);
            let store = slot.then(|| {
                let at = self.val_index(i).expect("a slot");
                quote!(self.__c.vals.#at = __dk_Some(__dk_None);)
            });
            let body = super::body(stub, || quote!(self.__c.remove(#attr); #store #rebuilt));
            out.extend(quote! {
                #[doc = #doc]
                pub fn #remove(#this) -> #ret #body
            });
        }
        // Expression updates: only for fields that feed no key, since the
        // new value is not known here.
        if slot || f.serde() || f.ttl() {
            return out;
        }
        let expr = |name: Ident, doc: String, arg: TokenStream, call: TokenStream, marks: bool| {
            let (ret, rebuilt) = if marks {
                (ret.clone(), rebuilt.clone())
            } else {
                (quote!(Self), quote!(self))
            };
            let body = super::body(stub, || quote!(#call; #rebuilt));
            quote! {
                #[doc = #doc]
                pub fn #name(#this, #arg) -> #ret #body
            }
        };
        out.extend(expr(
            format_ident!("set_{}_if_not_exists", f.name.ident),
            format!(
                "Sets `{}` unless the item has it (`if_not_exists`).",
                f.name.text
            ),
            quote!(#value_param: #value_ty),
            quote!(self.__c.set_if_not_exists(#attr, #value)),
            true,
        ));
        let set_prefixed = |prefix: &str| f.name.with_prefix(prefix);
        let raw = &f.attr;
        if f.kind == TypeKind::Int {
            let n = local("n");
            out.extend(expr(
                set_prefixed("increment_"),
                format!("`SET {raw} = {raw} + n`, from 0 when the attribute is absent (an upsert of a new counter starts it)."),
                if stub { quote!(_: i64) } else { quote!(#n: i64) },
                quote!(self.__c.with(|u| u.increment(#attr, #n))),
                true,
            ));
        }
        let inner_ty = if stub {
            quote!(impl ::core::marker::Sized)
        } else {
            quote!(#inner)
        };
        if f.kind.is_number() || types::is_set(inner) {
            out.extend(expr(
                set_prefixed("add_"),
                format!("`ADD {raw} v`: a number to add, or set members to add."),
                quote!(#value_param: #inner_ty),
                quote!(self.__c.with(|u| u.add(#attr, #value))),
                true,
            ));
        }
        if types::is_set(inner) {
            out.extend(expr(
                set_prefixed("delete_"),
                format!("`DELETE {raw} v`: set members to take out."),
                quote!(#value_param: #inner_ty),
                quote!(self.__c.with(|u| u.delete(#attr, #value))),
                false,
            ));
        }
        if types::is_list(inner) {
            out.extend(expr(
                set_prefixed("append_"),
                format!("`SET {raw} = list_append({raw}, v)`."),
                quote!(#value_param: #inner_ty),
                quote!(self.__c.with(|u| u.append(#attr, #value))),
                true,
            ));
        }
        out
    }

    /// The setter of a key group: every input of its keys at once, leaving
    /// each one's state `Mark<M, S>` (a patch keeps its type).
    fn group(&self, g: &KeyGroup) -> TokenStream {
        let e = self.e;
        let name = group_setter(e, &self.u.keys, g);
        let params = g.fields.iter().map(|&i| {
            let f = &e.fields[i];
            let (id, ty) = (&f.name.ident, &f.ty);
            quote!(#id: impl __dk_IntoField<#ty>)
        });
        let stmts = g
            .fields
            .iter()
            .map(|&i| self.set_stmts(i, &e.fields[i].name.ident));
        let states: Vec<(usize, TokenStream)> = g
            .fields
            .iter()
            .filter_map(|&i| {
                let pos = self.state_of(i)?;
                let (m, s) = (&self.mode, &self.params[pos]);
                Some((pos, quote!(__dk_Mark<#m, #s>)))
            })
            .collect();
        let ret = self.retyped(&states);
        let rebuilt = self.rebuilt();
        let keys: Vec<String> = g
            .keys
            .iter()
            .map(|&k| {
                let key = e.key_of(&self.u.keys[k]);
                format!("`{}` = `{}`", key.attr, key.tpl.text)
            })
            .collect();
        let doc = format!(
            "Sets every input of {} at once: a patch keeps its type, so this is how an update sets them conditionally.",
            keys.join(" and ")
        );
        let allow = super::keys::allow_args(g.fields.len());
        quote! {
            #[doc = #doc]
            #allow
            pub fn #name(mut self, #(#params),*) -> #ret {
                #(#stmts)*
                #rebuilt
            }
        }
    }

    /// The setters of table-key fields, which do not compile (DYNA227):
    /// outside the scoped block, so rustc names them `EUpdate::set_x` (not
    /// `_::<impl ..>`), and spanned at the field, where the note points.
    pub fn traps(&self) -> TokenStream {
        let full = super::outer_path(&self.e.ident);
        let e = self.e;
        let (b, m, ps, args) = (&self.builder, &self.mode, &self.params, self.args());
        let mut methods = TokenStream::new();
        for (i, f) in e.struct_fields() {
            if !self.u.table_key.contains(&i) || f.skip() || f.version() {
                continue;
            }
            let set = f.name.with_prefix("set_");
            methods.extend(crate::respan::respan(
                quote! {
                    #[doc(hidden)]
                    pub fn #set(self, _: impl #full::TableKeyField) -> Self {
                        self
                    }
                },
                f.name.ident.span(),
            ));
        }
        if methods.is_empty() {
            return methods;
        }
        // Never called in a program that compiles, so never "used".
        quote! {
            #[automatically_derived]
            #[allow(dead_code)]
            impl<#m, #(#ps),*> #b #args {
                #methods
            }
        }
    }
}
