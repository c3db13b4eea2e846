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
//! The builder is a thin typed shell over the runtime's `UpdateCore`, which
//! holds the update and the values of the fields that feed index keys (a
//! tuple laid out here: kept table-key fields, then slots). Its type
//! parameters track the fields that matter (`Unset`/`Set`/`Removed`); the
//! bounds over them are in `update_bounds`, the setters in `setters`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Ident, Index};

use super::keys::{allow_many, arg_rebind, arg_ty, call_key_fn};
use super::{private, private_path};
use crate::model::{Entity, UpdateModel};
use crate::types::TypeKind;

/// What the update derive emits: items for the user's module (structs)
/// and items for the scoped block (impls, traits).
pub struct UpdateCode {
    pub outer: TokenStream,
    pub impls: TokenStream,
}

pub fn expand(e: &Entity, vis: &syn::Visibility) -> UpdateCode {
    Gen::new(e, vis).expand()
}

pub(super) struct Gen<'a> {
    pub e: &'a Entity,
    pub u: &'a UpdateModel,
    pub vis: &'a syn::Visibility,
    pub builder: Ident,
    pub params: Vec<Ident>,
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

    pub fn state_of(&self, f: usize) -> Option<usize> {
        self.u.tracked.iter().position(|t| *t == f)
    }

    /// The position of field `f` in the core's value tuple: kept table-key
    /// fields first, then slots.
    pub fn val_index(&self, f: usize) -> Option<Index> {
        let at = match self.u.kept.iter().position(|&k| k == f) {
            Some(i) => i,
            None => self.u.kept.len() + self.u.slots.iter().position(|&s| s == f)?,
        };
        Some(Index::from(at))
    }

    /// `Builder<M, S0, .., Set, ..>` with parameter `pos` replaced.
    pub fn retyped(&self, pos: Option<usize>, state: TokenStream) -> TokenStream {
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

    fn expand(&self) -> UpdateCode {
        let p = private();
        let full = private_path();
        let e = self.e;
        let ident = &e.ident;
        let vis = self.vis;
        let builder = &self.builder;
        let params = &self.params;
        let attrs_ty = format_ident!("{}Attrs", ident);

        // ---- the builder struct (in the user's module: full paths) -------
        let kept_tys = self.u.kept.iter().map(|&i| {
            let f = &e.fields[i];
            if f.kind == TypeKind::String {
                quote!(#full::String)
            } else {
                let t = &f.inner;
                quote!(#t)
            }
        });
        let slot_tys = self.u.slots.iter().map(|&i| {
            let ty = &e.fields[i].ty;
            quote!(::core::option::Option<#ty>)
        });
        let defaults = params.iter().map(|s| quote!(#s = #full::Unset));
        let doc = format!(
            "A typed update of one `{ident}`, from `{ident}::update(..)` (change an existing item) or `{ident}::upsert(..)` (create it when missing); send it with `db.update(..)`. It rewrites every index key whose inputs it sets."
        );

        // ---- typed attribute handles ---------------------------------------
        let handle_fields = e.fields.iter().filter(|f| !f.skip()).map(|f| {
            let id = &f.ident;
            let inner = &f.inner;
            let doc = format!("The attribute `{}`.", f.attr);
            quote!(#[doc = #doc] pub #id: #full::Field<#ident, #inner>)
        });
        let handle_init = e.fields.iter().filter(|f| !f.skip()).map(|f| {
            let id = &f.ident;
            let a = &f.attr;
            quote!(#id: #p::Field::new(#a))
        });
        let attrs_doc =
            format!("Typed handles on the attributes of `{ident}`, for conditions and filters.");

        let outer = quote! {
            #[doc = #doc]
            #[must_use = "an update does nothing until sent with db.update(..)"]
            #vis struct #builder<M = #full::Patch, #(#defaults),*> {
                __c: #full::UpdateCore<#ident, (#(#kept_tys,)* #(#slot_tys,)*)>,
                __s: ::core::marker::PhantomData<fn() -> (M, #(#params,)*)>,
            }

            #[doc = #attrs_doc]
            #vis struct #attrs_ty {
                #(#handle_fields,)*
            }
        };

        let (methods, traps) = self.setters();
        let (bounds, traits) = self.bounds();
        let upkeep = self.upkeep();
        let bump = e.fields.iter().find(|f| f.version()).map(|v| {
            let a = &v.attr;
            quote!(__c.with(|__u| __u.increment(#a, 1));)
        });
        let ctors = self.ctors();
        let where_clause = if bounds.is_empty() {
            quote!()
        } else {
            quote!(where #(#bounds),*)
        };

        let impls = quote! {
            #(#traps)*
            #(#traits)*

            impl<M, #(#params),*> #builder<M, #(#params),*> {
                #(#methods)*
            }

            impl<M, #(#params),*> #p::Debug for #builder<M, #(#params),*> {
                fn fmt(&self, f: &mut #p::Formatter<'_>) -> #p::FmtResult {
                    #p::Debug::fmt(&self.__c, f)
                }
            }

            impl<M: #p::UpdateMode, #(#params),*> #p::TypedUpdate for #builder<M, #(#params),*> #where_clause {
                type Entity = #ident;
                fn into_parts(self) -> #p::Result<#p::UpdateParts<#ident>, #p::Error> {
                    let mut __c = self.__c;
                    #(#upkeep)*
                    #bump
                    __c.finish()
                }
            }

            impl #ident {
                #ctors

                /// Typed handles on this entity's attributes.
                pub const fn attrs() -> #attrs_ty {
                    #attrs_ty { #(#handle_init,)* }
                }
            }

            // By hand: a derive would assert each field is `Clone` too.
            impl ::core::clone::Clone for #attrs_ty {
                #[inline]
                fn clone(&self) -> Self {
                    *self
                }
            }
            impl ::core::marker::Copy for #attrs_ty {}
        };
        UpdateCode { outer, impls }
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
        let kept_init = self.u.kept.iter().map(|&i| {
            let f = &e.fields[i];
            let id = &f.ident;
            if f.kind == TypeKind::String {
                quote!(#p::String::from(#id))
            } else {
                quote!(::core::clone::Clone::clone(#id))
            }
        });
        let slot_init = self.u.slots.iter().map(|_| quote!(#p::None));
        let vals = quote!((#(#kept_init,)* #(#slot_init,)*));
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
            if f.kind == TypeKind::String {
                quote!(__c.put_str(#attr, #id);)
            } else {
                quote!(__c.put(#attr, #id);)
            }
        });
        let closed_keys = self.u.keys.iter().filter(|k| k.open.is_empty()).map(|k| {
            let key = e.key_of(k);
            let attr = &key.attr;
            let call = call_key_fn(e, key, true);
            quote!(__c.index_key(#attr, #p::Some(#call));)
        });
        let update_doc = format!("Starts an update of the existing `{ident}` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`).");
        let upsert_doc = format!("Starts an upsert of the `{ident}` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero.");
        let allow = allow_many(key_params.len());
        quote! {
            #[doc = #update_doc]
            #allow
            pub fn update(#(#key_params),*) -> #builder {
                #(#rebinds)*
                let __c = #p::UpdateCore::patch(Self::key(#(#key_args),*), #vals, #pk_attr);
                #builder { __c, __s: #p::PhantomData }
            }

            #[doc = #upsert_doc]
            #allow
            pub fn upsert(#(#key_params),*) -> #builder<#p::Upsert> {
                #(#rebinds)*
                let mut __c = #p::UpdateCore::upsert(Self::key(#(#key_args),*), #vals, #disc_attr, #disc);
                #(#key_attrs)*
                #(#closed_keys)*
                #builder { __c, __s: #p::PhantomData }
            }
        }
    }

    /// Rewrites (or removes) every index key whose open inputs the update
    /// touches.
    fn upkeep(&self) -> Vec<TokenStream> {
        let p = private();
        let e = self.e;
        let mut out = Vec::new();
        for k in self.u.keys.iter().filter(|k| !k.open.is_empty()) {
            let touched = k.open.iter().map(|&i| {
                let v = self.val_index(i).expect("open inputs have slots");
                quote!(__c.vals.#v.is_some())
            });
            let key = e.key_of(k);
            let fields = key.distinct_fields();
            let vals = fields.iter().map(|&i| {
                let f = &e.fields[i];
                let v = self.val_index(i).expect("key inputs are kept or slots");
                if self.u.kept.contains(&i) {
                    return quote!(#p::Some(&__c.vals.#v));
                }
                let inner = &f.inner;
                let base = if f.optional {
                    quote!(__c.vals.#v.as_ref().and_then(#p::Option::as_ref))
                } else {
                    quote!(__c.vals.#v.as_ref())
                };
                if f.omit_empty() && k.sparse {
                    quote!(#base.filter(|__x| !<#inner as #p::Attr>::is_empty_value(__x)))
                } else {
                    base
                }
            });
            let pats = fields.iter().map(|&i| {
                let id = &e.fields[i].ident;
                quote!(#p::Some(#id))
            });
            let args = fields.iter().map(|&i| &e.fields[i].ident);
            let call = format_ident!("__key_{}", key.fn_name);
            let attr = &key.attr;
            out.push(quote! {
                if #(#touched)||* {
                    // An absent input: the item leaves the index.
                    let __k = match (#(#vals,)*) {
                        (#(#pats,)*) => #p::Some(#call(#(#args),*)),
                        _ => #p::None,
                    };
                    __c.index_key(#attr, __k);
                }
            });
        }
        out
    }
}
