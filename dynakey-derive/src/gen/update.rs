//! Typed updates (`E::update(..)`, `E::upsert(..)`) that keep every index
//! key right, with DYNA226/227/228 at compile time.
//!
//! Each index key attribute holds what `to_item` would write: the key text
//! while every input of that key is present, nothing otherwise. DynamoDB
//! cannot build a key from what an item holds, so an update that changes an
//! input of a key brings every other input of that key (table-key inputs
//! come with the update's key) and rewrites or removes the key.
//!
//! The builder is a thin typed shell over the runtime's `UpdateCore`, which
//! holds the update and the values of the fields that feed index keys (a
//! tuple laid out here: kept table-key fields, then slots). Its type
//! parameters track the fields that matter (`Unset`/`Set`/`Removed`); the
//! bounds over them are in `bounds`, the setters in `setters`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::body;
use super::keys::{allow_args, builder, from_params, param, Val};
use crate::model::{Entity, UpdateModel};
use crate::types::TypeKind;
use crate::unraw::local;

/// The update's generator: names shared by its parts.
pub struct Gen<'a> {
    pub e: &'a Entity,
    pub u: &'a UpdateModel,
    /// `EUpdate`.
    pub builder: Ident,
    /// `_mode`: the mode (`Patch` or `Upsert`).
    pub mode: Ident,
    /// One typestate parameter per tracked field, named like the field
    /// after a `_` (so it shadows no type or module of the user's), so that
    /// a message showing the builder's parameters reads
    /// `TaskUpdate<_mode, _status>`.
    pub params: Vec<Ident>,
}

/// What the update emits: the builder struct (for the user's module) and
/// its impls (for the scoped block).
pub struct UpdateCode {
    pub outer: TokenStream,
    pub impls: TokenStream,
}

pub fn expand(e: &Entity) -> UpdateCode {
    let (mode, params) = param_names(e);
    let g = Gen {
        e,
        u: &e.update,
        builder: format_ident!("{}Update", e.ident),
        mode,
        params,
    };
    let mut outer = g.strukt();
    outer.extend(g.traps());
    let mut impls = g.setters();
    impls.extend(g.impls());
    UpdateCode { outer, impls }
}

/// The mode parameter's name and each tracked field's.
fn param_names(e: &Entity) -> (Ident, Vec<Ident>) {
    let mut taken: Vec<String> = Vec::new();
    let mut unique = |base: &str| {
        let mut name = format!("_{base}");
        while taken.contains(&name) {
            name.push('_');
        }
        taken.push(name.clone());
        name
    };
    let params: Vec<String> = e
        .update
        .tracked
        .iter()
        .map(|&f| unique(&e.fields[f].name.text))
        .collect();
    let mode = unique("mode");
    let span = proc_macro2::Span::call_site();
    (
        Ident::new(&mode, span),
        params.iter().map(|p| Ident::new(p, span)).collect(),
    )
}

impl Gen<'_> {
    /// The typestate position of field `f`.
    pub fn state_of(&self, f: usize) -> Option<usize> {
        self.u.tracked.iter().position(|t| *t == f)
    }

    /// The position of field `f` in the core's value tuple: kept table-key
    /// fields first, then slots.
    pub fn val_index(&self, f: usize) -> Option<syn::Index> {
        let at = match self.u.kept.iter().position(|&k| k == f) {
            Some(i) => i,
            None => self.u.kept.len() + self.u.slots.iter().position(|&s| s == f)?,
        };
        Some(syn::Index::from(at))
    }

    /// `<_mode, _status, ..>` as the builder's arguments.
    pub fn args(&self) -> TokenStream {
        let (m, ps) = (&self.mode, &self.params);
        quote!(<#m, #(#ps),*>)
    }

    /// The builder's type with some states replaced.
    ///
    /// Written token by token: a parameter kept is one `Ident` appended,
    /// where a `quote!` of it would be a stream of its own, and each stream
    /// spliced in is a round trip through the proc-macro bridge.
    pub fn retyped(&self, states: &[(usize, TokenStream)]) -> TokenStream {
        use proc_macro2::{Punct, Spacing};
        use quote::TokenStreamExt;
        let mut out = TokenStream::new();
        out.append(self.builder.clone());
        out.append(Punct::new('<', Spacing::Alone));
        out.append(self.mode.clone());
        for (i, s) in self.params.iter().enumerate() {
            out.append(Punct::new(',', Spacing::Alone));
            match states.iter().find(|(pos, _)| *pos == i) {
                Some((_, st)) => out.extend(st.clone()),
                None => out.append(s.clone()),
            }
        }
        out.append(Punct::new('>', Spacing::Alone));
        out
    }

    /// The builder rebuilt in place with another type (the state moves).
    pub fn rebuilt(&self) -> TokenStream {
        quote!(self.__re())
    }

    fn strukt(&self) -> TokenStream {
        let full = super::outer_path(&self.e.ident);
        let e = self.e;
        let ident = &e.ident;
        let vis = &e.vis;
        let b = &self.builder;
        let m = &self.mode;
        let kept = self.u.kept.iter().map(|&i| {
            let f = &e.fields[i];
            if f.kind == TypeKind::String {
                quote!(#full::String)
            } else {
                let t = &f.inner;
                quote!(#t)
            }
        });
        let slots = self.u.slots.iter().map(|&i| {
            let ty = &e.fields[i].ty;
            quote!(#full::Option<#ty>)
        });
        let defaults = self.params.iter().map(|s| quote!(#s = #full::Unset));
        let ps = &self.params;
        let doc = format!(
            "A typed update of one `{ident}`, from `{ident}::update(..)` (change an existing item) or `{ident}::upsert(..)` (create it when missing); send it with `db.update(..)`. It rewrites every index key whose inputs it sets."
        );
        quote! {
            #[doc = #doc]
            #[must_use = "an update does nothing until sent with db.update(..)"]
            #[allow(non_camel_case_types)]
            #vis struct #b<#m = #full::Patch, #(#defaults),*> {
                __c: #full::UpdateCore<#ident, (#(#kept,)* #(#slots,)*)>,
                __s: #full::PhantomData<fn() -> (#m, #(#ps,)*)>,
            }
        }
    }

    fn impls(&self) -> TokenStream {
        let e = self.e;
        let ident = &e.ident;
        let b = &self.builder;
        let m = &self.mode;
        let ps = &self.params;
        let args = self.args();
        let (traits, bounds) = self.bounds();
        let parts = body(e.stub, || self.parts_fn());
        let ctors = self.ctors();
        // Spanned at the struct's name, not the derive: rustc then adds no
        // "consider manually implementing" to an unmet DYNA226/228 bound.
        // The item's own tokens (attribute, header, braces) spanned at the
        // struct's name, its body's left as they are (`self` keeps one
        // hygiene, for entities a user's macro declares).
        let header = crate::respan::respan(
            quote!(#[automatically_derived] impl<#m: __dk_UpdateMode, #(#ps: __dk_State),*> __dk_CompleteUpdate for #b #args #bounds),
            ident.span(),
        );
        let mut braces = proc_macro2::Group::new(
            proc_macro2::Delimiter::Brace,
            quote! {
                fn parts(self) -> __dk_Result<__dk_UpdateParts<#ident>, __dk_Error> #parts
            },
        );
        braces.set_span(ident.span());
        let typed = quote!(#header #braces);
        quote! {
            #[automatically_derived]
            impl<#m, #(#ps),*> __dk_UpdateTarget for #b #args {
                type Entity = #ident;
            }
            #[automatically_derived]
            impl<#m, #(#ps),*> __dk_Debug for #b #args {
                fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
                    __dk_Debug::fmt(&self.__c, f)
                }
            }
            #traits
            #typed
            #[automatically_derived]
            impl #ident {
                #ctors
            }
        }
    }

    /// The values of key `k`'s inputs, from the core's value tuple.
    fn vals<'b>(&'b self, c: &'b Ident) -> impl Fn(usize, &crate::model::Field) -> Val + 'b {
        move |i, f| {
            let at = self.val_index(i).expect("key inputs are kept or slots");
            if self.u.kept.contains(&i) {
                Val::Ref(quote!(&#c.vals.#at))
            } else if f.optional {
                Val::Slot(quote!(__dk_slot_opt(&#c.vals.#at)))
            } else {
                Val::Slot(quote!(__dk_slot(&#c.vals.#at)))
            }
        }
    }

    /// Rewrites (or removes) every index key whose open inputs the update
    /// touches.
    fn parts_fn(&self) -> TokenStream {
        let e = self.e;
        let c = local("c");
        let mut out = quote!(let mut #c = self.__c;);
        let vals = self.vals(&c);
        for k in self.u.keys.iter().filter(|k| !k.open.is_empty()) {
            let b = builder(e, e.key_of(k), k.sparse, &vals);
            out.extend(quote!(#c.rekey(#b);));
        }
        if let Some(v) = e.fields.iter().find(|f| f.version()) {
            let attr = &v.attr;
            out.extend(quote!(#c.with(|u| u.increment(#attr, 1));));
        }
        out.extend(quote!(#c.finish()));
        out
    }

    /// `E::update(..)` and `E::upsert(..)`.
    fn ctors(&self) -> TokenStream {
        let e = self.e;
        let ident = &e.ident;
        let b = &self.builder;
        let tk = &self.u.table_key;
        let tk_fields: Vec<usize> = if e.stub {
            super::keys::fields_of(std::iter::once(&e.pk).chain(e.sk.iter()))
        } else {
            tk.clone()
        };
        let key_params: Vec<TokenStream> = tk_fields.iter().map(|&i| param(e, i)).collect();
        let allow = allow_args(tk_fields.len());
        let update_doc = format!("Starts an update of the existing `{ident}` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`).");
        let upsert_doc = format!("Starts an upsert of the `{ident}` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero.");
        let c = local("c");
        // The parameters as plain references, for the key and the kept
        // values.
        let rebinds: Vec<TokenStream> = tk
            .iter()
            .map(|&i| {
                let f = &e.fields[i];
                let id = &f.name.ident;
                match from_params(i, f) {
                    Val::Ref(v) | Val::Opt(v) | Val::Slot(v) => quote!(let #id = #v;),
                }
            })
            .collect();
        let key_args = tk.iter().map(|&i| &e.fields[i].name.ident);
        let kept = self.u.kept.iter().map(|&i| {
            let f = &e.fields[i];
            let id = &f.name.ident;
            if f.kind == TypeKind::String {
                quote!(__dk_String::from(#id),)
            } else {
                quote!(::core::clone::Clone::clone(#id),)
            }
        });
        let nones = self.u.slots.iter().map(|_| quote!(__dk_None,));
        let vals = quote!((#(#kept)* #(#nones)*));
        let pk_attr = &e.pk.attr;
        let key_args: Vec<&Ident> = key_args.collect();
        let update_body = body(e.stub, || {
            quote! {
                #(#rebinds)*
                let #c = __dk_UpdateCore::patch(Self::key(#(#key_args),*), #vals, #pk_attr);
                #b { __c: #c, __s: __dk_PhantomData }
            }
        });
        // What an upsert writes beyond the fields it is given: the
        // discriminator, the key fields as attributes, and every index key
        // that only table-key fields feed (constant ones included).
        let upsert_body = body(e.stub, || {
            let (disc_attr, disc) = (&e.disc_attr, &e.discriminator);
            let puts = tk.iter().map(|&i| {
                let f = &e.fields[i];
                let (id, attr) = (&f.name.ident, &f.attr);
                if f.kind == TypeKind::String {
                    quote!(#c.put_str(#attr, #id);)
                } else {
                    quote!(#c.put(#attr, #id);)
                }
            });
            let refs = |_: usize, f: &crate::model::Field| {
                let id = &f.name.ident;
                Val::Ref(quote!(#id))
            };
            let fixed = self.u.keys.iter().filter(|k| k.open.is_empty()).map(|k| {
                let key = e.key_of(k);
                let kb = builder(e, key, k.sparse, &refs);
                let attr = &key.attr;
                quote!(#c.index_key(#attr, #kb.finish_opt());)
            });
            quote! {
                #(#rebinds)*
                let mut #c = __dk_UpdateCore::upsert(Self::key(#(#key_args),*), #vals, #disc_attr, #disc);
                #(#puts)*
                #(#fixed)*
                #b { __c: #c, __s: __dk_PhantomData }
            }
        });
        quote! {
            #[doc = #update_doc]
            #allow
            pub fn update(#(#key_params),*) -> #b #update_body
            #[doc = #upsert_doc]
            #allow
            pub fn upsert(#(#key_params),*) -> #b<__dk_Upsert> #upsert_body
        }
    }
}
