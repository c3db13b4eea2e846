//! Sort-key condition chains: `E::sk().status(s).placed_lt(t)`.
//!
//! One struct per number of fixed fields, so each step offers only the
//! next field in template order. Each struct wraps a runtime step
//! (`SortKeyNext` or `SortKeyTextNext`) and dereferences to it, so the
//! comparisons are written once in the runtime; the derive generates only
//! the method that fixes each field by name, in one line. The last step,
//! every field fixed, is the runtime's `SortKeyFull` itself.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::keys::{arg_ty, of_index, opt_str, tpl_const, write_fn_path};
use super::{private, private_path};
use crate::model::{Entity, Field, KeyModel, Part};
use crate::template::Format;
use crate::types::TypeKind;

/// `gsi1_sk` → `Gsi1Sk`.
fn camel(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// One field of a chain, with how its value is written.
struct Step<'a> {
    f: &'a Field,
    format: Format,
}

impl Step<'_> {
    fn is_text(&self) -> bool {
        self.f.kind == TypeKind::String
    }

    /// The runtime step type that compares this field.
    fn runtime_ty(
        &self,
        full: &dyn quote::ToTokens,
        e: &syn::Ident,
        kind: &TokenStream,
    ) -> TokenStream {
        let inner = &self.f.inner;
        if self.is_text() {
            quote!(#full::SortKeyTextNext<#e, #kind>)
        } else {
            quote!(#full::SortKeyNext<#e, #kind, #inner>)
        }
    }

    /// The runtime writer method that writes this field's value.
    fn write_fn(&self) -> TokenStream {
        write_fn_path(self.f, self.format)
    }

    /// The value argument `v` as the reference the runtime takes.
    fn arg(&self) -> TokenStream {
        if self.is_text() {
            quote!(v.as_ref())
        } else {
            quote!(v.borrow())
        }
    }
}

/// The chain of sort key `k`: the structs (for the user's module), their
/// impls, and the entry function (for the entity's impl).
pub fn cond_chain(
    e: &Entity,
    k: &KeyModel,
    vis: &syn::Visibility,
) -> (TokenStream, TokenStream, TokenStream) {
    let p = private();
    let full = private_path();
    let ident = &e.ident;
    let kind_short = format_ident!("{}", k.kind_name());
    let kind = quote!(#full::#kind_short);
    let camel = camel(&k.fn_name);
    let level = |i: usize| format_ident!("{}{}Cond{}", ident, camel, i);
    let steps: Vec<Step> = k
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Field { field, format } => Some(Step {
                f: &e.fields[*field],
                format: *format,
            }),
            Part::Lit(_) => None,
        })
        .collect();
    let n = steps.len();
    let res = quote!(#p::CondResult<#ident, #p::#kind_short>);
    let mut structs = Vec::new();
    let mut impls = Vec::new();
    // The last step has no field to fix, so no method of its own: the
    // chain ends in the runtime's `SortKeyFull` itself.
    let full_ty = quote!(#p::SortKeyFull<#ident, #p::#kind_short>);
    let step_ty = |i: usize| {
        if i == n {
            full_ty.clone()
        } else {
            let l = level(i);
            quote!(#l)
        }
    };
    for i in 0..n {
        let this = level(i);
        let s = &steps[i];
        let inner = s.runtime_ty(&full, ident, &kind);
        // The same type through the alias, for the impls in the scoped block.
        let short = s.runtime_ty(&p, ident, &quote!(#p::#kind_short));
        let doc = if i == 0 {
            format!(
                "Conditions on `{}` = `{}` of `{}`: fix leading fields in order, then compare the next one.",
                k.attr, k.template, ident
            )
        } else {
            format!(
                "`{}` with its first {} field(s) fixed; `{}` next.",
                k.template, i, s.f.ident
            )
        };
        structs.push(quote! {
            #[doc = #doc]
            #[must_use]
            #vis struct #this(#inner);
        });
        impls.push(quote! {
            impl #p::Debug for #this {
                fn fmt(&self, f: &mut #p::Formatter<'_>) -> #p::FmtResult {
                    #p::Debug::fmt(&self.0, f)
                }
            }
            impl #p::Deref for #this {
                type Target = #short;
                #[inline]
                fn deref(&self) -> &Self::Target {
                    &self.0
                }
            }
        });
        impls.push(fixer(&this, s, steps.get(i + 1), &step_ty(i + 1), &res));
    }
    let entry_name = format_ident!("{}", k.fn_name);
    let first = step_ty(0);
    let index = opt_str(&k.index);
    let attr = &k.attr;
    let tpl = tpl_const(k);
    let doc = format!(
        "Sort-key conditions on `{}` = `{}`{}.",
        k.attr,
        k.template,
        of_index(k)
    );
    let start = match steps.first() {
        None => quote!(#p::SortKeyFull::__new(#index, #attr, #tpl)),
        Some(s) if s.is_text() => quote!(#p::SortKeyTextNext::__new(#index, #attr, #tpl)),
        Some(s) => {
            let write = s.write_fn();
            quote!(#p::SortKeyNext::__new(#index, #attr, #tpl, #write))
        }
    };
    let wrapped = if n == 0 {
        start
    } else {
        quote!(#first(#start))
    };
    let entry = quote! {
        #[doc = #doc]
        pub fn #entry_name() -> #first {
            #wrapped
        }
    };
    (quote!(#(#structs)*), quote!(#(#impls)*), entry)
}

/// The impl of step `this` that fixes its field `s`, leading to step
/// `next_ty` (whose field is `next`, if any); and for a text field, the
/// prefix search named after it. `res` is the condition type.
fn fixer(
    this: &syn::Ident,
    s: &Step,
    next: Option<&Step>,
    next_ty: &TokenStream,
    res: &TokenStream,
) -> TokenStream {
    let p = private();
    let id = &s.f.ident;
    let aty = arg_ty(s.f);
    let v = s.arg();
    let body = match (s.is_text(), next) {
        (_, None) => quote!(self.0.__end(#v)),
        (true, Some(n)) if n.is_text() => quote!(#next_ty(self.0.__then_text(#v))),
        (false, Some(n)) if n.is_text() => {
            quote!(#next_ty(#p::SortKeyTextNext::__from(&self.0, #v)))
        }
        (_, Some(n)) => {
            let inner = &n.f.inner;
            let write = n.write_fn();
            quote!(#next_ty(self.0.__then::<#inner>(#v, #write)))
        }
    };
    let doc = format!("Fixes `{id}` to `v`.");
    let prefix = s.is_text().then(|| {
        let sw = format_ident!("{}_starts_with", id);
        let doc = format!(
            "Keys whose `{id}` text starts with `text`: a prefix search on the text, unlike `.{id}(..)`, which fixes the value."
        );
        quote! {
            #[doc = #doc]
            pub fn #sw(&self, text: impl #p::AsRef<str>) -> #res {
                self.0.starts_with(text)
            }
        }
    });
    quote! {
        impl #this {
            #[doc = #doc]
            pub fn #id(&self, v: #aty) -> #next_ty {
                #body
            }
            #prefix
        }
    }
}
