//! Typed updates (`E::update(..)`) that keep every index key right, typed
//! attribute handles (`E::attrs()`), and DYNA226/DYNA227 at compile time.
//!
//! DynamoDB cannot build a composite key from what an item holds, so an
//! update brings every input of a key it changes: table-key inputs come with
//! the update's key, the others from the caller. The builder tracks which
//! index inputs are set with one type parameter each (`Unset`/`Set`); the
//! `TypedUpdate` impl requires, per key (per index for a sparse one), that
//! an update setting any input sets the others too. Each requirement is a
//! trait with a DYNA226 `on_unimplemented` message naming the missing field.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::keys::{arg_rebind, arg_ty, private};
use crate::model::{Entity, Field, KeyKind, KeyModel, Part};
use crate::template::Format;
use crate::types::TypeKind;

/// A key whose text is one bare string field equals that attribute, so an
/// update can copy it (`SET gsi2pk = owner`) without the value.
fn copyable(e: &Entity, k: &KeyModel) -> Option<usize> {
    match k.parts.as_slice() {
        [Part::Field {
            field,
            format: Format::Text,
            next_lit: None,
        }] if e.fields[*field].kind == TypeKind::String => Some(*field),
        _ => None,
    }
}

fn dedup(v: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for i in v {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// One completeness rule: if any of `trigger` is set, all of `required`
/// must be.
struct Group {
    trigger: Vec<usize>,
    required: Vec<usize>,
    what: String,
    snake: String,
    /// The keys' attribute names and templates, to redraw in the error.
    keys: Vec<(String, String)>,
}

/// The template holding `<field>` redrawn with a caret under it.
fn redraw(keys: &[(String, String)], field: &str) -> Option<String> {
    let needle = format!("<{field}");
    keys.iter().find_map(|(attr, tpl)| {
        let at = tpl.find(&needle)?;
        let len = tpl[at..].find('>').map(|j| j + 1).unwrap_or(needle.len());
        let head = format!("{attr} = \"");
        let pad = " ".repeat(head.chars().count() + tpl[..at].chars().count());
        Some(format!(
            "{head}{tpl}\"\n{pad}{} not set by this update",
            "^".repeat(tpl[at..at + len].chars().count())
        ))
    })
}

/// The keys of an index that an update writes (a local index shares the
/// table's partition key, which never changes).
fn index_keys(ix: &crate::model::IndexModel) -> Vec<&KeyModel> {
    let mut keys = Vec::new();
    if ix.kind == KeyKind::Global {
        keys.push(&ix.pk);
    }
    keys.extend(ix.sk.iter());
    keys
}

fn groups(e: &Entity, table_key: &[usize]) -> Vec<Group> {
    let not_tk = |v: Vec<usize>| {
        v.into_iter()
            .filter(|f| !table_key.contains(f))
            .collect::<Vec<_>>()
    };
    let mut out = Vec::new();
    for ix in &e.indexes {
        let keys = index_keys(ix);
        if ix.sparse {
            let trigger = not_tk(dedup(keys.iter().flat_map(|k| k.fields())));
            let required = not_tk(dedup(
                keys.iter()
                    .filter(|k| copyable(e, k).is_none())
                    .flat_map(|k| k.fields()),
            ));
            let what = format!(
                "sparse index `{}` ({})",
                ix.name,
                keys.iter()
                    .map(|k| format!("{} \"{}\"", k.attr, k.template))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let keys = keys
                .iter()
                .map(|k| (k.attr.clone(), k.template.clone()))
                .collect();
            out.push(Group {
                trigger,
                required,
                what,
                snake: ix.snake.clone(),
                keys,
            });
        } else {
            for k in keys {
                if copyable(e, k).is_some() {
                    continue;
                }
                let inputs = not_tk(dedup(k.fields()));
                out.push(Group {
                    trigger: inputs.clone(),
                    required: inputs,
                    what: format!("key {} \"{}\" of index `{}`", k.attr, k.template, ix.name),
                    snake: format!("{}_{}", ix.snake, k.attr),
                    keys: vec![(k.attr.clone(), k.template.clone())],
                });
            }
        }
    }
    // A rule that only says "if f is set, f is set" holds by itself.
    out.retain(|g| !(g.required.is_empty() || (g.trigger.len() == 1 && g.required == g.trigger)));
    out
}

fn is_set_like(f: &Field) -> bool {
    matches!(
        last_ident(&f.inner).as_deref(),
        Some("HashSet" | "BTreeSet")
    )
}

fn is_list(f: &Field) -> bool {
    matches!(last_ident(&f.inner).as_deref(), Some("Vec"))
}

fn last_ident(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

pub fn expand(e: &Entity, vis: &syn::Visibility) -> TokenStream {
    let p = private();
    let ident = &e.ident;
    let builder = format_ident!("{}Update", ident);
    let attrs_ty = format_ident!("{}Attrs", ident);

    let mut table_key: Vec<usize> = e.pk.fields().collect();
    if let Some(sk) = &e.sk {
        table_key.extend(sk.fields());
    }
    let table_key = dedup(table_key);
    let index_inputs: Vec<usize> = dedup(
        e.indexes
            .iter()
            .flat_map(|ix| index_keys(ix).into_iter().flat_map(|k| k.fields())),
    );
    // Table-key values an index key needs: kept, owned, from the update's key.
    let kept: Vec<usize> = table_key
        .iter()
        .copied()
        .filter(|f| index_inputs.contains(f))
        .collect();
    let groups = groups(e, &table_key);
    // Every non-table-key index input gets a value slot; those in a rule get
    // a typestate parameter too.
    let slots: Vec<usize> = index_inputs
        .iter()
        .copied()
        .filter(|f| !table_key.contains(f))
        .collect();
    let tracked: Vec<usize> = dedup(groups.iter().flat_map(|g| g.trigger.iter().copied()));
    let params: Vec<Ident> = (0..tracked.len())
        .map(|i| format_ident!("S{}", i))
        .collect();
    let state_of = |f: usize| tracked.iter().position(|t| *t == f);

    // ---- the builder struct -------------------------------------------------
    let kept_fields = kept.iter().map(|&i| {
        let f = &e.fields[i];
        let name = format_ident!("__k_{}", f.ident);
        let ty = if f.kind == TypeKind::String {
            quote!(#p::String)
        } else {
            let t = &f.inner;
            quote!(#t)
        };
        quote!(#name: #ty)
    });
    let slot_fields = slots.iter().map(|&i| {
        let f = &e.fields[i];
        let name = format_ident!("__v_{}", f.ident);
        let ty = &f.ty;
        quote!(#name: ::core::option::Option<#ty>)
    });
    let defaults = params.iter().map(|s| quote!(#s = #p::Unset));
    let phantom = quote!(::core::marker::PhantomData<fn() -> (#(#params,)*)>);
    let doc = format!(
        "A typed update of one `{ident}`, from `{ident}::update(..)`; send it with `db.update(..)`. It rewrites every index key whose inputs it sets."
    );
    let struct_def = quote! {
        #[doc = #doc]
        #[must_use = "an update does nothing until sent with db.update(..)"]
        #vis struct #builder<#(#defaults),*> {
            __key: ::core::result::Result<#p::Key<#ident>, #p::KeyFormatError>,
            #(#kept_fields,)*
            #(#slot_fields,)*
            __upd: #p::Update,
            __cond: ::core::option::Option<#p::Condition>,
            __err: ::core::option::Option<#p::Error>,
            __s: #phantom,
        }
    };

    // ---- the constructor -------------------------------------------------
    let key_params = table_key.iter().map(|&i| {
        let f = &e.fields[i];
        let id = &f.ident;
        let t = arg_ty(f);
        quote!(#id: #t)
    });
    let rebinds = table_key.iter().map(|&i| arg_rebind(&e.fields[i]));
    let key_args = table_key.iter().map(|&i| &e.fields[i].ident);
    let kept_init = kept.iter().map(|&i| {
        let f = &e.fields[i];
        let name = format_ident!("__k_{}", f.ident);
        let id = &f.ident;
        if f.kind == TypeKind::String {
            quote!(#name: #p::String::from(#id))
        } else {
            quote!(#name: ::core::clone::Clone::clone(#id))
        }
    });
    let slot_init = slots.iter().map(|&i| {
        let name = format_ident!("__v_{}", e.fields[i].ident);
        quote!(#name: ::core::option::Option::None)
    });
    let unset = params.iter().map(|_| quote!(#p::Unset));
    let ctor_doc = format!("Starts an update of the `{ident}` at this key; table-key fields cannot change (use `db.move_item`).");
    let ctor = quote! {
        #[doc = #ctor_doc]
        #[allow(clippy::too_many_arguments)]
        pub fn update(#(#key_params),*) -> #builder<#(#unset),*> {
            #(#rebinds)*
            #builder {
                __key: Self::key(#(#key_args),*),
                #(#kept_init,)*
                #(#slot_init,)*
                __upd: #p::Update::new(),
                __cond: ::core::option::Option::None,
                __err: ::core::option::Option::None,
                __s: ::core::marker::PhantomData,
            }
        }
    };

    // ---- setters ----------------------------------------------------------
    let all_kept = kept
        .iter()
        .map(|&i| format_ident!("__k_{}", e.fields[i].ident))
        .collect::<Vec<_>>();
    let all_slots = slots
        .iter()
        .map(|&i| format_ident!("__v_{}", e.fields[i].ident))
        .collect::<Vec<_>>();
    let mut methods = Vec::new();
    let mut outer = Vec::new();
    for (i, f) in e.fields.iter().enumerate() {
        if f.skip {
            continue;
        }
        let id = &f.ident;
        let name = id.to_string();
        let attr = &f.attr;
        let ty = &f.ty;
        let set_fn = format_ident!("set_{}", id);
        if table_key.contains(&i) {
            // DYNA227: a table-key field cannot change.
            let tr = format_ident!("__{}Dyna227_{}", ident, id);
            let msg = format!(
                "DYNA227: `{name}` is part of the table key of `{ident}` and cannot be updated"
            );
            let note = "a key is the item's identity: delete it and put it under the new key in one transaction with `db.move_item(old_key, &new_item)`";
            outer.push(quote! {
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
        if f.version {
            continue;
        }
        // What the value does to the update expression.
        let push = if f.serde {
            quote! {
                match #p::serde_to_attr(&__v, #name) {
                    ::core::result::Result::Ok(::core::option::Option::Some(__a)) => { self.__upd = self.__upd.set_value(#attr, __a); }
                    ::core::result::Result::Ok(::core::option::Option::None) => { self.__upd = self.__upd.remove(#attr); }
                    ::core::result::Result::Err(__e) => { self.__err.get_or_insert(#p::Error::from(__e)); }
                }
            }
        } else if f.ttl {
            quote! {
                match <#ty as #p::Ttl>::ttl_to_attr(&__v) {
                    ::core::option::Option::Some(__a) => { self.__upd = self.__upd.set_value(#attr, __a); }
                    ::core::option::Option::None => { self.__upd = self.__upd.remove(#attr); }
                }
            }
        } else {
            let empty = if f.omit_empty {
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
        let set_doc = format!(
            "Sets `{name}`{}.",
            if f.optional {
                " (`None` removes it)"
            } else {
                ""
            }
        );
        let slot = slots.contains(&i).then(|| format_ident!("__v_{}", id));
        match state_of(i) {
            Some(pos) => {
                // A typestate transition: rebuild the struct with `Set` here.
                let out_params = params.iter().enumerate().map(|(j, s)| {
                    if j == pos {
                        quote!(#p::Set)
                    } else {
                        quote!(#s)
                    }
                });
                let out_params2 = params.iter().enumerate().map(|(j, s)| {
                    if j == pos {
                        quote!(#p::Removed)
                    } else {
                        quote!(#s)
                    }
                });
                let slot = slot.expect("tracked fields have a slot");
                let rebuild = |val: TokenStream| {
                    let kept2 = all_kept.iter();
                    let slots2 = all_slots.iter().map(|s| {
                        if *s == slot {
                            quote!(#s: #val)
                        } else {
                            quote!(#s: self.#s)
                        }
                    });
                    quote! {
                        #builder {
                            __key: self.__key,
                            #(#kept2: self.#kept2,)*
                            #(#slots2,)*
                            __upd: self.__upd,
                            __cond: self.__cond,
                            __err: self.__err,
                            __s: ::core::marker::PhantomData,
                        }
                    }
                };
                let set_body = rebuild(quote!(::core::option::Option::Some(__v)));
                methods.push(quote! {
                    #[doc = #set_doc]
                    pub fn #set_fn(mut self, value: impl #p::IntoField<#ty>) -> #builder<#(#out_params),*> {
                        let __v: #ty = #p::IntoField::into_field(value);
                        #push
                        #set_body
                    }
                });
                if f.optional {
                    let rm = format_ident!("remove_{}", id);
                    let rm_body = rebuild(quote!(::core::option::Option::Some(
                        ::core::option::Option::None
                    )));
                    let rm_doc =
                        format!("Removes `{name}`; the item leaves every sparse index it feeds.");
                    methods.push(quote! {
                        #[doc = #rm_doc]
                        pub fn #rm(mut self) -> #builder<#(#out_params2),*> {
                            self.__upd = self.__upd.remove(#attr);
                            #rm_body
                        }
                    });
                }
            }
            None => {
                let store = slot.map(|s| quote!(self.#s = ::core::option::Option::Some(__v);));
                methods.push(quote! {
                    #[doc = #set_doc]
                    pub fn #set_fn(mut self, value: impl #p::IntoField<#ty>) -> Self {
                        let __v: #ty = #p::IntoField::into_field(value);
                        #push
                        #store
                        self
                    }
                });
                if f.optional {
                    let rm = format_ident!("remove_{}", id);
                    let store_none = slots.contains(&i).then(|| {
                        let s = format_ident!("__v_{}", id);
                        quote!(self.#s = ::core::option::Option::Some(::core::option::Option::None);)
                    });
                    let rm_doc = format!("Removes `{name}`.");
                    methods.push(quote! {
                        #[doc = #rm_doc]
                        pub fn #rm(mut self) -> Self {
                            self.__upd = self.__upd.remove(#attr);
                            #store_none
                            self
                        }
                    });
                }
                // Expression updates: only for fields that feed no key, since
                // the new value is not known here.
                if slots.contains(&i) || f.serde || f.ttl {
                    continue;
                }
                let inner = &f.inner;
                let sine = format_ident!("set_{}_if_not_exists", id);
                let sine_doc = format!("Sets `{name}` unless the item has it (`if_not_exists`).");
                methods.push(quote! {
                    #[doc = #sine_doc]
                    pub fn #sine(mut self, value: impl #p::IntoField<#ty>) -> Self {
                        let __v: #ty = #p::IntoField::into_field(value);
                        self.__upd = self.__upd.set_if_not_exists(#attr, __v);
                        self
                    }
                });
                if f.kind == TypeKind::Int {
                    let inc = format_ident!("increment_{}", id);
                    let doc = format!("`SET {attr} = {attr} + n` (from 0 when absent).");
                    methods.push(quote! {
                        #[doc = #doc]
                        pub fn #inc(mut self, n: i64) -> Self {
                            self.__upd = self.__upd.increment(#attr, n);
                            self
                        }
                    });
                }
                if f.kind.is_number() || is_set_like(f) {
                    let add = format_ident!("add_{}", id);
                    let doc = format!("`ADD {attr} v`: a number to add, or set members to add.");
                    methods.push(quote! {
                        #[doc = #doc]
                        pub fn #add(mut self, value: #inner) -> Self {
                            self.__upd = self.__upd.add(#attr, value);
                            self
                        }
                    });
                }
                if is_set_like(f) {
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
                if is_list(f) {
                    let app = format_ident!("append_{}", id);
                    let doc = format!("`SET {attr} = list_append({attr}, v)`.");
                    methods.push(quote! {
                        #[doc = #doc]
                        pub fn #app(mut self, value: #inner) -> Self {
                            self.__upd = self.__upd.append(#attr, value);
                            self
                        }
                    });
                }
            }
        }
    }
    if let Some(v) = e.fields.iter().find(|f| f.version) {
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

    // ---- index upkeep -----------------------------------------------------
    // `__p_<f>`: the value of input `f` when the update knows it.
    let present = |i: usize| -> TokenStream {
        let f = &e.fields[i];
        let pid = format_ident!("__p_{}", f.ident);
        if kept.contains(&i) {
            let k = format_ident!("__k_{}", f.ident);
            return quote!(let #pid = ::core::option::Option::Some(&self.#k););
        }
        let s = format_ident!("__v_{}", f.ident);
        let inner = &f.inner;
        let base = if f.optional {
            quote!(self.#s.as_ref().and_then(|__o| __o.as_ref()))
        } else {
            quote!(self.#s.as_ref())
        };
        if f.omit_empty {
            quote!(let #pid: ::core::option::Option<&#inner> = #base.filter(|__x| !<#inner as #p::Attr>::is_empty_value(__x));)
        } else {
            quote!(let #pid: ::core::option::Option<&#inner> = #base;)
        }
    };
    let touched = |fs: &[usize]| -> TokenStream {
        let parts = fs.iter().filter(|f| slots.contains(f)).map(|&i| {
            let s = format_ident!("__v_{}", e.fields[i].ident);
            quote!(self.#s.is_some())
        });
        quote!(false #(|| #parts)*)
    };
    let write_key = |k: &KeyModel| -> TokenStream {
        let fields = dedup(k.fields());
        let call = format_ident!("__key_{}", k.fn_name);
        let attr = &k.attr;
        let pats = fields.iter().map(|&i| {
            let id = &e.fields[i].ident;
            quote!(::core::option::Option::Some(#id))
        });
        let vals = fields
            .iter()
            .map(|&i| format_ident!("__p_{}", e.fields[i].ident));
        let args = fields.iter().map(|&i| &e.fields[i].ident);
        let fallback = match copyable(e, k) {
            Some(c) => {
                let from = &e.fields[c].attr;
                quote!(__upd = __upd.set_copy(#attr, #from);)
            }
            None => quote!(),
        };
        quote! {
            #[allow(unused_parens)]
            match (#(#vals),*) {
                (#(#pats),*) => {
                    __upd = __upd.set_value(#attr, #p::AttributeValue::S(#ident::#call(#(#args),*)?));
                }
                #[allow(unreachable_patterns)]
                _ => { #fallback }
            }
        }
    };
    let mut upkeep = Vec::new();
    for ix in &e.indexes {
        let keys = index_keys(ix);
        let inputs = dedup(keys.iter().flat_map(|k| k.fields()));
        let presents = inputs.iter().map(|&i| present(i));
        if ix.sparse {
            let t = touched(&inputs);
            let absent = inputs.iter().filter(|f| slots.contains(f)).map(|&i| {
                let s = format_ident!("__v_{}", e.fields[i].ident);
                let pid = format_ident!("__p_{}", e.fields[i].ident);
                quote!((self.#s.is_some() && #pid.is_none()))
            });
            let removes = keys.iter().map(|k| {
                let a = &k.attr;
                quote!(__upd = __upd.remove(#a);)
            });
            let writes = keys.iter().map(|k| write_key(k));
            upkeep.push(quote! {
                if #t {
                    #(#presents)*
                    if false #(|| #absent)* {
                        // An input is gone: the item leaves the index.
                        #(#removes)*
                    } else {
                        #(#writes)*
                    }
                }
            });
        } else {
            for k in keys {
                let kf = dedup(k.fields());
                let t = touched(&kf);
                let presents = kf.iter().map(|&i| present(i));
                let w = write_key(k);
                upkeep.push(quote! {
                    if #t {
                        #(#presents)*
                        #w
                    }
                });
            }
        }
    }
    let bump = e.fields.iter().find(|f| f.version).map(|v| {
        let a = &v.attr;
        quote!(__upd = __upd.increment(#a, 1);)
    });

    // ---- DYNA226 ----------------------------------------------------------
    let mut bounds = Vec::new();
    for g in &groups {
        for &f in &g.required {
            let fname = e.fields[f].ident.to_string();
            let tr = format_ident!("__{}Dyna226_{}_{}", ident, g.snake, fname);
            let others: Vec<String> = g
                .trigger
                .iter()
                .filter(|t| **t != f)
                .map(|t| format!("`{}`", e.fields[*t].ident))
                .collect();
            let msg = format!(
                "DYNA226: this update of `{ident}` sets {} but not `{fname}`, so {} cannot be rebuilt",
                if others.is_empty() { "an input".to_owned() } else { others.join(" or ") },
                g.what
            );
            let label = format!("add `.set_{fname}(..)` to this update");
            let note = "DynamoDB cannot build a key from what the item holds: an update brings every input of a key it changes (the table key's come with the key). Set the missing field to its stored value (read it first), or put the whole item.";
            let drawn = redraw(&g.keys, &fname).unwrap_or_default();
            let pos = state_of(f).expect("required fields are tracked");
            // Impl 1: the field is set.
            let gen1: Vec<&Ident> = params
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != pos)
                .map(|(_, s)| s)
                .collect();
            let tup1 = params.iter().enumerate().map(|(j, s)| {
                if j == pos {
                    quote!(#p::Set)
                } else {
                    quote!(#s)
                }
            });
            // Impl 2: the field is removed (the item leaves the index).
            let tup1r = params.iter().enumerate().map(|(j, s)| {
                if j == pos {
                    quote!(#p::Removed)
                } else {
                    quote!(#s)
                }
            });
            // Impl 3: no input of the rule is set to a value; the field is
            // untouched, the others untouched or removed (one impl each).
            let trig: Vec<usize> = g
                .trigger
                .iter()
                .filter_map(|t| state_of(*t))
                .filter(|j| *j != pos)
                .collect();
            let gen3: Vec<&Ident> = params
                .iter()
                .enumerate()
                .filter(|(j, _)| !trig.contains(j) && *j != pos)
                .map(|(_, s)| s)
                .collect();
            let mut none_set = Vec::new();
            for mask in 0..(1u32 << trig.len()) {
                let tup = params.iter().enumerate().map(|(j, s)| {
                    if j == pos {
                        quote!(#p::Unset)
                    } else if let Some(b) = trig.iter().position(|t| *t == j) {
                        if mask & (1 << b) != 0 {
                            quote!(#p::Removed)
                        } else {
                            quote!(#p::Unset)
                        }
                    } else {
                        quote!(#s)
                    }
                });
                let gen3 = gen3.clone();
                none_set.push(quote!(impl<#(#gen3),*> #tr for (#(#tup,)*) {}));
            }
            outer.push(quote! {
                #[doc(hidden)]
                #[allow(non_camel_case_types)]
                #[diagnostic::on_unimplemented(message = #msg, label = #label, note = #drawn, note = #note)]
                #vis trait #tr {}
                impl<#(#gen1),*> #tr for (#(#tup1,)*) {}
                impl<#(#gen1),*> #tr for (#(#tup1r,)*) {}
                #(#none_set)*
            });
            bounds.push(quote!(#tr));
        }
    }
    let where_clause = if bounds.is_empty() {
        quote!()
    } else {
        quote!(where (#(#params,)*): #(#bounds)+*)
    };

    // ---- typed attribute handles -------------------------------------------
    let handle_fields = e.fields.iter().filter(|f| !f.skip).map(|f| {
        let id = &f.ident;
        let inner = &f.inner;
        let doc = format!("The attribute `{}`.", f.attr);
        quote!(#[doc = #doc] pub #id: #p::Field<#ident, #inner>)
    });
    let handle_init = e.fields.iter().filter(|f| !f.skip).map(|f| {
        let id = &f.ident;
        let a = &f.attr;
        quote!(#id: #p::Field::new(#a))
    });
    let attrs_doc =
        format!("Typed handles on the attributes of `{ident}`, for conditions and filters.");

    quote! {
        #struct_def
        #(#outer)*

        impl<#(#params),*> #builder<#(#params),*> {
            #(#methods)*
        }

        impl<#(#params),*> #p::TypedUpdate for #builder<#(#params),*> #where_clause {
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
            #ctor

            /// Typed handles on this entity's attributes.
            pub const fn attrs() -> #attrs_ty {
                #attrs_ty { #(#handle_init,)* }
            }
        }
    }
}
