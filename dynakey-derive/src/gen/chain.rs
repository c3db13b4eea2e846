//! Sort-key condition chains: `E::sk().status(s).placed_lt(t)`.
//!
//! One struct per number of fixed fields, so each step offers only the
//! next field in template order. Each struct wraps a runtime step
//! (`SortKeyNext`, or `SortKeyTextNext` when the next field is text) and
//! dereferences to it, so the comparisons are written once in the runtime;
//! the derive generates only the method that fixes each field by name. The
//! last step, every field fixed, is the runtime's `SortKeyFull` itself.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::keys::{kind_ty, kind_ty_full, method, of_index, param_as, tpl_name};
use super::{body, dk, private_path};
use crate::model::{Entity, Field, KeyModel};
use crate::types::TypeKind;
use crate::unraw::camel;

/// What a chain emits: the step structs (for the user's module) and their
/// impls and the entry function (for the scoped block).
pub struct ChainCode {
    pub structs: TokenStream,
    pub impls: TokenStream,
    pub entry: TokenStream,
}

fn is_text(f: &Field) -> bool {
    f.kind == TypeKind::String
}

/// The runtime writer function of a field (`KeyWriter::padded::<u32>`),
/// with the field type's span.
fn write_fn(f: &Field, format: crate::template::Format) -> TokenStream {
    let p = dk();
    let m = format_ident!("{}", method(f, format));
    let ty = &f.inner;
    quote_spanned!(ty.span()=> #p::KeyWriter::#m::<#ty>)
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

/// The chain of sort key `k`.
pub fn chain(e: &Entity, k: &KeyModel) -> ChainCode {
    let p = dk();
    let full = private_path();
    let ident = &e.ident;
    let vis = &e.vis;
    let kind = kind_ty(k);
    let kind_full = kind_ty_full(k);
    let camel = camel(&k.fn_name);
    let steps: Vec<(usize, crate::template::Format)> = k.placeholders().collect();
    let n = steps.len();
    let level = |i: usize| format_ident!("{}{}Cond{}", ident, camel, i);
    let full_ty = if e.stub {
        quote!(#p::SortKeyStub<#ident, #kind>)
    } else {
        quote!(#p::SortKeyFull<#ident, #kind>)
    };
    // The type after `i` fields are fixed.
    let step_ty = |i: usize| -> TokenStream {
        if i == n {
            full_ty.clone()
        } else {
            let l = level(i);
            quote!(#l)
        }
    };
    let v = crate::unraw::local("v");
    let mut structs = TokenStream::new();
    let mut impls = TokenStream::new();
    for (i, &(field, _)) in steps.iter().enumerate() {
        let f = &e.fields[field];
        let this = level(i);
        let (inner, inner_full) = if e.stub {
            (
                quote!(#p::SortKeyStub<#ident, #kind>),
                quote!(#full::SortKeyStub<#ident, #kind_full>),
            )
        } else if is_text(f) {
            (
                quote!(#p::SortKeyTextNext<#ident, #kind>),
                quote!(#full::SortKeyTextNext<#ident, #kind_full>),
            )
        } else {
            let ty = &f.inner;
            (
                quote!(#p::SortKeyNext<#ident, #kind, #ty>),
                quote!(#full::SortKeyNext<#ident, #kind_full, #ty>),
            )
        };
        let doc = if i == 0 {
            format!(
                "Conditions on `{}` = `{}` of `{ident}`: fix leading fields in order, then compare the next one.",
                k.attr, k.tpl.text
            )
        } else {
            format!(
                "`{}` with {i} field(s) fixed; `{}` next.",
                k.tpl.text, f.name.text
            )
        };
        structs.extend(quote! {
            #[doc = #doc]
            #[must_use]
            #vis struct #this(#inner_full);
        });
        let next = step_ty(i + 1);
        let fixer_body = body(e.stub, || {
            let a = arg(f);
            match steps.get(i + 1) {
                None => quote!(self.0.__end(#a)),
                Some(&(nf, _)) if is_text(&e.fields[nf]) && is_text(f) => {
                    quote!(#next(self.0.__then_text(#a)))
                }
                Some(&(nf, _)) if is_text(&e.fields[nf]) => {
                    quote!(#next(#p::SortKeyTextNext::__from(&self.0, #a)))
                }
                Some(&(nf, nformat)) => {
                    let nfield = &e.fields[nf];
                    let w = write_fn(nfield, nformat);
                    let ty = &nfield.inner;
                    quote!(#next(self.0.__then::<#ty>(#a, #w)))
                }
            }
        });
        let id = &f.name.ident;
        let vparam = param_as(e, field, &v);
        let fix_doc = format!("Fixes `{}` to `v`.", f.name.text);
        let starts = (is_text(f) || e.stub).then(|| {
            let name = f.name.with_suffix("_starts_with");
            let doc = format!("Keys whose `{}` text starts with `text`: a prefix search on the text, unlike `.{}(..)`, which fixes the value.", f.name.text, f.name.text);
            let text = crate::unraw::local("text");
            let body = body(e.stub, || quote!(self.0.starts_with(#text)));
            quote! {
                #[doc = #doc]
                pub fn #name(&self, #text: impl #p::AsRef<str>) -> #p::CondResult<#ident, #kind> #body
            }
        });
        impls.extend(quote! {
            #[automatically_derived]
            impl #p::Debug for #this {
                fn fmt(&self, f: &mut #p::Formatter<'_>) -> #p::FmtResult {
                    #p::Debug::fmt(&self.0, f)
                }
            }
            #[automatically_derived]
            impl #p::Deref for #this {
                type Target = #inner;
                fn deref(&self) -> &#inner {
                    &self.0
                }
            }
            impl #this {
                #[doc = #fix_doc]
                pub fn #id(&self, #vparam) -> #next #fixer_body
                #starts
            }
        });
    }
    let tpl = tpl_name(k);
    let first = step_ty(0);
    let entry_body = body(false, || {
        if e.stub {
            return match n {
                0 => quote!(#p::SortKeyStub::new()),
                _ => quote!(#first(#p::SortKeyStub::new())),
            };
        }
        match steps.first() {
            None => quote!(#p::SortKeyFull::__of(#tpl)),
            Some(&(f, _)) if is_text(&e.fields[f]) => {
                quote!(#first(#p::SortKeyTextNext::__of(#tpl)))
            }
            Some(&(f, format)) => {
                let w = write_fn(&e.fields[f], format);
                quote!(#first(#p::SortKeyNext::__of(#tpl, #w)))
            }
        }
    });
    let name = format_ident!("{}", k.fn_name);
    let doc = format!(
        "Sort-key conditions on `{}` = `{}`{}.",
        k.attr,
        k.tpl.text,
        of_index(k)
    );
    let entry = quote! {
        #[doc = #doc]
        pub fn #name() -> #first #entry_body
    };
    ChainCode {
        structs,
        impls,
        entry,
    }
}
