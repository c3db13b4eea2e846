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
use syn::Ident;

use super::keys::{allow_text, call_text, params_of};
use super::private_path;
use super::text::{lit, tokens, w, Code, Types};
use crate::model::{Entity, UpdateModel};
use crate::types::TypeKind;

/// What the update derive emits: items for the user's module (structs)
/// and items for the scoped block (impls, traits).
pub struct UpdateCode {
    pub outer: TokenStream,
    pub impls: TokenStream,
}

pub fn expand(e: &Entity, vis: &syn::Visibility, t: &Types) -> UpdateCode {
    Gen::new(e, vis, t).expand()
}

/// The update's generator. Everything in the scoped block is written as
/// text (see `text`); the structs in the user's module stay tokens.
pub(super) struct Gen<'a> {
    pub e: &'a Entity,
    pub u: &'a UpdateModel,
    pub vis: &'a syn::Visibility,
    /// `EUpdate`.
    pub builder: String,
    /// `S0`, `S1`, ..: one typestate parameter per tracked field.
    pub params: Vec<String>,
    /// The fields' types as text.
    pub t: &'a Types,
}

impl<'a> Gen<'a> {
    fn new(e: &'a Entity, vis: &'a syn::Visibility, t: &'a Types) -> Self {
        Gen {
            e,
            u: &e.update,
            vis,
            builder: format!("{}Update", e.ident),
            params: (0..e.update.tracked.len())
                .map(|i| format!("S{i}"))
                .collect(),
            t,
        }
    }

    pub fn state_of(&self, f: usize) -> Option<usize> {
        self.u.tracked.iter().position(|t| *t == f)
    }

    /// The position of field `f` in the core's value tuple: kept table-key
    /// fields first, then slots.
    pub fn val_index(&self, f: usize) -> Option<usize> {
        match self.u.kept.iter().position(|&k| k == f) {
            Some(i) => Some(i),
            None => Some(self.u.kept.len() + self.u.slots.iter().position(|&s| s == f)?),
        }
    }

    /// `, S0, S1, ..` (empty without parameters): what follows `M` in the
    /// builder's parameter list.
    pub fn rest(&self) -> String {
        self.params.iter().map(|s| format!(", {s}")).collect()
    }

    /// `Builder<M, S0, .., Set, ..>` with parameter `pos` replaced.
    pub fn retyped(&self, pos: usize, state: &str) -> String {
        let mut out = format!("{}<M", self.builder);
        for (j, s) in self.params.iter().enumerate() {
            out.push_str(", ");
            out.push_str(if j == pos { state } else { s });
        }
        out.push('>');
        out
    }

    fn expand(&self) -> UpdateCode {
        let full = private_path();
        let e = self.e;
        let ident = &e.ident;
        let vis = self.vis;
        let builder = format_ident!("{}", self.builder);
        let params: Vec<Ident> = self.params.iter().map(|s| format_ident!("{}", s)).collect();
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

        // ---- the scoped block, as text -------------------------------------
        let mut src = String::new();
        let methods = self.setters(&mut src);
        let bounds = self.bounds(&mut src);
        let builder = &self.builder;
        let rest = self.rest();
        w!(
            src,
            "impl<M{rest}> {builder}<M{rest}> {{ {} }}",
            methods.text
        );
        w!(
            src,
            "impl<M{rest}> __dk::Debug for {builder}<M{rest}> {{ \
             fn fmt(&self, f: &mut __dk::Formatter<'_>) -> __dk::FmtResult {{ \
             __dk::Debug::fmt(&self.__c, f) }} }}"
        );
        let where_clause = if bounds.is_empty() {
            String::new()
        } else {
            format!("where {}", bounds.join(", "))
        };
        w!(
            src,
            "impl<M: __dk::UpdateMode{rest}> __dk::TypedUpdate for {builder}<M{rest}> {where_clause} {{ \
             type Entity = {ident}; \
             fn into_parts(self) -> __dk::Result<__dk::UpdateParts<{ident}>, __dk::Error> {{ \
             let mut __c = self.__c;"
        );
        self.upkeep(&mut src);
        if let Some(v) = e.fields.iter().find(|f| f.version()) {
            w!(src, "__c.with(|__u| __u.increment({}, 1));", lit(&v.attr));
        }
        w!(src, "__c.finish() }} }}");
        w!(src, "impl {ident} {{");
        self.ctors(&mut src);
        w!(src, "/// Typed handles on this entity's attributes.\npub const fn attrs() -> {attrs_ty} {{ {attrs_ty} {{");
        for f in e.fields.iter().filter(|f| !f.skip()) {
            w!(src, "{}: __dk::Field::new({}),", f.ident, lit(&f.attr));
        }
        w!(src, "}} }} }}");
        // By hand: a derive would assert each field is `Clone` too.
        w!(
            src,
            "impl ::core::clone::Clone for {attrs_ty} {{ #[inline] fn clone(&self) -> Self {{ *self }} }} \
             impl ::core::marker::Copy for {attrs_ty} {{}}"
        );
        let mut impls = tokens(&src);
        // The methods that keep a span of the user's (a validator's path,
        // the DYNA227 traps' names), in an impl block of their own.
        impls.extend(
            Code {
                text: String::new(),
                tokens: methods.tokens,
            }
            .wrapped(&format!("impl<M{rest}> {builder}<M{rest}>")),
        );
        UpdateCode { outer, impls }
    }

    /// `E::update(..)` and `E::upsert(..)`.
    fn ctors(&self, src: &mut String) {
        let e = self.e;
        let ident = &e.ident;
        let builder = &self.builder;
        let tk = &self.u.table_key;
        let (key_params, rebinds) = params_of(e, self.t, tk);
        let key_args: Vec<String> = tk.iter().map(|&i| e.fields[i].ident.to_string()).collect();
        let key_args = key_args.join(", ");
        let mut vals = String::from("(");
        for &i in &self.u.kept {
            let f = &e.fields[i];
            if f.kind == TypeKind::String {
                w!(vals, "__dk::String::from({}),", f.ident);
            } else {
                w!(vals, "::core::clone::Clone::clone({}),", f.ident);
            }
        }
        for _ in &self.u.slots {
            vals.push_str("__dk::None,");
        }
        vals.push(')');
        let pk_attr = lit(&e.pk.attr);
        let allow = allow_text(tk.len());
        let update_doc = lit(&format!("Starts an update of the existing `{ident}` at this key (it fails with `Error::ConditionFailed` when there is none); table-key fields cannot change (use `db.move_item`)."));
        let upsert_doc = lit(&format!("Starts an upsert of the `{ident}` at this key: it creates the item when it is missing (with the discriminator and the key fields), so it must set every field a new item needs (DYNA228); counters (`increment_*`) start from zero."));
        w!(
            src,
            "#[doc = {update_doc}] {allow} pub fn update({key_params}) -> {builder} {{ {rebinds} \
             let __c = __dk::UpdateCore::patch(Self::key({key_args}), {vals}, {pk_attr}); \
             {builder} {{ __c, __s: __dk::PhantomData }} }}"
        );

        // What an upsert writes beyond the fields it is given: the
        // discriminator, the key fields as attributes, and every index key
        // that only table-key fields feed (constant ones included).
        let disc_attr = lit(&e.disc_attr);
        let disc = lit(&e.discriminator);
        w!(
            src,
            "#[doc = {upsert_doc}] {allow} pub fn upsert({key_params}) -> {builder}<__dk::Upsert> {{ {rebinds} \
             let mut __c = __dk::UpdateCore::upsert(Self::key({key_args}), {vals}, {disc_attr}, {disc});"
        );
        for &i in tk {
            let f = &e.fields[i];
            let put = if f.kind == TypeKind::String {
                "put_str"
            } else {
                "put"
            };
            w!(src, "__c.{put}({}, {});", lit(&f.attr), f.ident);
        }
        for k in self.u.keys.iter().filter(|k| k.open.is_empty()) {
            let key = e.key_of(k);
            w!(
                src,
                "__c.index_key({}, __dk::Some({}));",
                lit(&key.attr),
                call_text(e, key, true)
            );
        }
        w!(src, "{builder} {{ __c, __s: __dk::PhantomData }} }}");
    }

    /// Rewrites (or removes) every index key whose open inputs the update
    /// touches.
    fn upkeep(&self, src: &mut String) {
        let e = self.e;
        for k in self.u.keys.iter().filter(|k| !k.open.is_empty()) {
            let touched: Vec<String> = k
                .open
                .iter()
                .map(|&i| {
                    let v = self.val_index(i).expect("open inputs have slots");
                    format!("__c.vals.{v}.is_some()")
                })
                .collect();
            let key = e.key_of(k);
            let fields = key.distinct_fields();
            let mut vals = String::new();
            let mut pats = String::new();
            for &i in &fields {
                let f = &e.fields[i];
                let v = self.val_index(i).expect("key inputs are kept or slots");
                w!(pats, "__dk::Some({}),", f.ident);
                if self.u.kept.contains(&i) {
                    w!(vals, "__dk::Some(&__c.vals.{v}),");
                    continue;
                }
                if f.optional {
                    w!(vals, "__c.vals.{v}.as_ref().and_then(__dk::Option::as_ref)");
                } else {
                    w!(vals, "__c.vals.{v}.as_ref()");
                }
                if f.omit_empty() && k.sparse {
                    w!(
                        vals,
                        ".filter(|__x| !<{} as __dk::Attr>::is_empty_value(__x))",
                        self.t.inner[i]
                    );
                }
                vals.push(',');
            }
            // An absent input: the item leaves the index.
            w!(
                src,
                "if {} {{ let __k = match ({vals}) {{ ({pats}) => __dk::Some({}), _ => __dk::None, }}; \
                 __c.index_key({}, __k); }}",
                touched.join(" || "),
                call_text(e, key, true),
                lit(&key.attr)
            );
        }
    }
}
