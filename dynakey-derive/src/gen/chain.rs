//! Sort-key condition chains: `E::sk().status(s).lt(t)`.
//!
//! Each step offers only the next field in template order. A step is the
//! entity's one step struct, `EKeyStep<SORT_KEY, FIXED, S>`: the chain of
//! sort key number `SORT_KEY` with `FIXED` fields fixed, wrapping the runtime step `S`
//! (`SortKeyNext`, or `SortKeyTextNext` when the next field is text) and
//! dereferencing to it, so the comparisons are written once in the runtime.
//! The derive writes one struct, one `Debug` and one `Deref` per entity
//! and, per step, only the method that fixes its field by name. The last
//! step, every field fixed, is the runtime's `SortKeyFull` itself.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::body;
use super::keys::{form, kind_ty, of_index, param_as, tpl_name};
use crate::model::{Entity, Field, KeyModel, KeyRole, NativeIndex};
use crate::types::TypeKind;

fn is_text(f: &Field) -> bool {
    f.kind == TypeKind::String
}

/// The runtime writer function of a field that is not plain text (text
/// steps have steps of their own): its form's writer, see [`form`].
fn write_fn(f: &Field, format: crate::template::Format) -> TokenStream {
    let form = form(f, format).expect("a text field has a text step, not a writer");
    quote!(#form.writer())
}

/// The value argument `v` as the reference the runtime takes.
fn arg(f: &Field) -> TokenStream {
    let v = crate::unraw::local("v");
    if is_text(f) {
        quote!(#v.as_ref())
    } else {
        quote!(#v.borrow())
    }
}

/// `EKeyStep`: the entity's step struct.
fn step_struct(e: &Entity) -> Ident {
    format_ident!("{}KeyStep", e.ident)
}

/// What the chains of an entity emit: the step struct (for the user's
/// module), its impls and the steps' fixers (for the scoped block), and
/// the entry functions.
pub struct ChainCode {
    pub structs: TokenStream,
    pub impls: TokenStream,
    pub entry: TokenStream,
}

/// Every sort-key chain of the entity.
pub fn chains(e: &Entity) -> ChainCode {
    let ident = &e.ident;
    let vis = &e.vis;
    let step = step_struct(e);
    let mut out = ChainCode {
        structs: TokenStream::new(),
        impls: TokenStream::new(),
        entry: TokenStream::new(),
    };
    let sort_keys: Vec<&KeyModel> = e
        .all_keys()
        .into_iter()
        .filter(|k| k.role == KeyRole::Sort)
        .collect();
    let native_chains = e.natives.iter().any(|n| !n.sk.is_empty());
    if native_chains || sort_keys.iter().any(|k| k.placeholders().next().is_some()) {
        // Const parameters in SCREAMING_CASE: a type of the user's with the
        // same name would take their place in `EKeyStep<K, ..>` (a type
        // argument is looked up among types first).
        let doc = format!("A step of a sort-key condition chain of `{ident}` (`{ident}::sk()` and each index's `<index>_sk()`): sort key `SORT_KEY` with `FIXED` fields fixed, offering the next field's method and, through `Deref`, the comparisons on it.");
        out.structs.extend(quote! {
            #[doc = #doc]
            #[must_use = "a sort-key step does nothing until a condition is taken from it"]
            #vis struct #step<const SORT_KEY: usize, const FIXED: usize, S>(S);
        });
        out.impls.extend(quote! {
            #[automatically_derived]
            impl<const SORT_KEY: usize, const FIXED: usize, S: __dk_Debug> __dk_Debug for #step<SORT_KEY, FIXED, S> {
                fn fmt(&self, f: &mut __dk_Formatter<'_>) -> __dk_FmtResult {
                    __dk_Debug::fmt(&self.0, f)
                }
            }
            #[automatically_derived]
            impl<const SORT_KEY: usize, const FIXED: usize, S> __dk_Deref for #step<SORT_KEY, FIXED, S> {
                type Target = S;
                fn deref(&self) -> &S {
                    &self.0
                }
            }
        });
    }
    let templates = sort_keys.len();
    for (n, k) in sort_keys.into_iter().enumerate() {
        chain(e, k, n, &step, &mut out);
    }
    for (n, ix) in e.natives.iter().filter(|n| !n.sk.is_empty()).enumerate() {
        native_chain(e, ix, templates + n, &step, &mut out);
    }
    out
}

/// The chain of native index `ix`'s sort attributes, the `n`-th chain of
/// the entity: each step fixes the next attribute by equality (the value
/// as the field's type takes it) and offers, through the runtime's
/// `NativeSortNext`, the comparisons on it.
fn native_chain(e: &Entity, ix: &NativeIndex, n: usize, step: &Ident, out: &mut ChainCode) {
    let ident = &e.ident;
    let kind = super::native::kind_ty(ix);
    let step_ty = |d: usize| -> TokenStream {
        match (e.stub, ix.sk.get(d)) {
            (true, Some(_)) => quote!(#step<#n, #d, __dk_SortKeyStub<#ident, #kind>>),
            (true, None) => quote!(__dk_SortKeyStub<#ident, #kind>),
            (false, Some(&f)) => {
                let ty = &e.fields[f].inner;
                quote!(#step<#n, #d, __dk_NativeSortNext<#ident, #kind, #ty>>)
            }
            (false, None) => quote!(__dk_NativeSortFull<#ident, #kind>),
        }
    };
    let v = crate::unraw::local("v");
    for (d, &field) in ix.sk.iter().enumerate() {
        let f = &e.fields[field];
        let (this, next) = (step_ty(d), step_ty(d + 1));
        let body = body(e.stub, || match ix.sk.get(d + 1) {
            None => quote!(self.0.__end(&#v)),
            Some(&nf) => {
                let ty = &e.fields[nf].inner;
                quote!(#step(self.0.__then::<#ty, _>(&#v)))
            }
        });
        let id = &f.name.ident;
        let vparam = super::native::param(e, field, &v);
        let doc = format!(
            "Native index `{}`: fixes `{}` to `v`.",
            ix.name, f.name.text
        );
        out.impls.extend(quote! {
            #[automatically_derived]
            impl #this {
                #[doc = #doc]
                pub fn #id(&self, #vparam) -> #next #body
            }
        });
    }
    let first = step_ty(0);
    let entry_body = if e.stub {
        quote!({ #step(__dk_SortKeyStub::new()) })
    } else {
        let (index, list) = (&ix.name, super::native::attrs_name(ix, true));
        quote!({ #step(__dk_NativeSortNext::__of(<Self as __dk_Entity>::META.discriminator, #index, #list)) })
    };
    let name = format_ident!("{}_sk", ix.snake);
    let names: Vec<&str> = ix
        .sk
        .iter()
        .map(|&i| e.fields[i].name.text.as_str())
        .collect();
    let doc = format!(
        "Sort-key conditions on native index `{}` (`{}`): fix leading attributes in order, then compare the next one (by value: numbers as numbers).",
        ix.name,
        names.join("`, `")
    );
    // `#[inline]`: compiled only where a condition is built from it.
    out.entry.extend(quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name() -> #first #entry_body
    });
}

/// The chain of sort key `k`, the `n`-th of the entity.
fn chain(e: &Entity, k: &KeyModel, n: usize, step: &Ident, out: &mut ChainCode) {
    let ident = &e.ident;
    let kind = kind_ty(k);
    let steps: Vec<(usize, crate::template::Format)> = k.placeholders().collect();
    let len = steps.len();
    let inner = |field: usize| -> TokenStream {
        let f = &e.fields[field];
        if e.stub {
            quote!(__dk_SortKeyStub<#ident, #kind>)
        } else if is_text(f) {
            quote!(__dk_SortKeyTextNext<#ident, #kind>)
        } else {
            let ty = &f.inner;
            quote!(__dk_SortKeyNext<#ident, #kind, #ty>)
        }
    };
    // The type after `d` fields are fixed.
    let step_ty = |d: usize| -> TokenStream {
        if d == len {
            if e.stub {
                quote!(__dk_SortKeyStub<#ident, #kind>)
            } else {
                quote!(__dk_SortKeyFull<#ident, #kind>)
            }
        } else {
            let s = inner(steps[d].0);
            quote!(#step<#n, #d, #s>)
        }
    };
    let v = crate::unraw::local("v");
    for (d, &(field, _)) in steps.iter().enumerate() {
        let f = &e.fields[field];
        let this = step_ty(d);
        let next = step_ty(d + 1);
        let fixer_body = body(e.stub, || {
            let a = arg(f);
            match steps.get(d + 1) {
                None => quote!(self.0.__end(#a)),
                Some(&(nf, _)) if is_text(&e.fields[nf]) && is_text(f) => {
                    quote!(#step(self.0.__then_text(#a)))
                }
                Some(&(nf, _)) if is_text(&e.fields[nf]) => {
                    quote!(#step(__dk_SortKeyTextNext::__from(&self.0, #a)))
                }
                Some(&(nf, nformat)) => {
                    let nfield = &e.fields[nf];
                    let w = write_fn(nfield, nformat);
                    let ty = &nfield.inner;
                    quote!(#step(self.0.__then::<#ty>(#a, #w)))
                }
            }
        });
        let id = &f.name.ident;
        let vparam = param_as(e, field, &v);
        let fix_doc = format!("`{}`: fixes `{}` to `v`.", k.tpl.text, f.name.text);
        let starts = (is_text(f) || e.stub).then(|| {
            let name = f.name.with_suffix("_starts_with");
            let doc = format!("Keys whose `{}` text starts with `text`: a prefix search on the text, unlike `.{}(..)`, which fixes the value.", f.name.text, f.name.text);
            let text = crate::unraw::local("text");
            let body = body(e.stub, || quote!(self.0.starts_with(#text)));
            quote! {
                #[doc = #doc]
                pub fn #name(&self, #text: impl __dk_AsRef<str>) -> __dk_CondResult<#ident, #kind> #body
            }
        });
        out.impls.extend(quote! {
            #[automatically_derived]
            impl #this {
                #[doc = #fix_doc]
                pub fn #id(&self, #vparam) -> #next #fixer_body
                #starts
            }
        });
    }
    let tpl = tpl_name(k);
    let first = step_ty(0);
    let entry_body = if e.stub {
        match len {
            0 => quote!({ __dk_SortKeyStub::new() }),
            _ => quote!({ #step(__dk_SortKeyStub::new()) }),
        }
    } else {
        match steps.first() {
            None => quote!({ __dk_SortKeyFull::__of(#tpl) }),
            Some(&(f, _)) if is_text(&e.fields[f]) => {
                quote!({ #step(__dk_SortKeyTextNext::__of(#tpl)) })
            }
            Some(&(f, format)) => {
                let w = write_fn(&e.fields[f], format);
                quote!({ #step(__dk_SortKeyNext::__of(#tpl, #w)) })
            }
        }
    };
    let name = format_ident!("{}", k.fn_name);
    let doc = format!(
        "Sort-key conditions on `{}` = `{}`{}: fix leading fields in order, then compare the next one.",
        k.attr,
        k.tpl.text,
        of_index(k)
    );
    // `#[inline]`: compiled only where a condition is built from it.
    out.entry.extend(quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name() -> #first #entry_body
    });
}
