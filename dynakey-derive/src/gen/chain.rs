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

use super::keys::{arg_text, of_index, opt_text, tpl_name, write_fn_path};
use super::private_path;
use super::text::{lit, w, Code, Piece, Types};
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
    /// The field's index in the entity.
    i: usize,
    f: &'a Field,
    format: Format,
}

impl Step<'_> {
    fn is_text(&self) -> bool {
        self.f.kind == TypeKind::String
    }

    /// The runtime writer method that writes this field's value: tokens
    /// with the field type's span (a type without the format's trait gets
    /// its error at the field).
    fn write_fn(&self) -> TokenStream {
        write_fn_path(self.f, self.format)
    }

    /// The value argument `v` as the reference the runtime takes.
    fn arg(&self) -> &'static str {
        if self.is_text() {
            "v.as_ref()"
        } else {
            "v.borrow()"
        }
    }
}

/// The chain of sort key `k`: the structs (returned, for the user's
/// module); their impls go to `impls` and the entry function to
/// `inherent`.
pub fn cond_chain(
    e: &Entity,
    k: &KeyModel,
    vis: &syn::Visibility,
    t: &Types,
    impls: &mut Code,
    inherent: &mut Code,
) -> TokenStream {
    let full = private_path();
    let ident = &e.ident;
    let kind_name = k.kind_name();
    let kind_short = format_ident!("{}", kind_name);
    let camel = camel(&k.fn_name);
    let level = |i: usize| format!("{ident}{camel}Cond{i}");
    let steps: Vec<Step> = k
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Field { field, format } => Some(Step {
                i: *field,
                f: &e.fields[*field],
                format: *format,
            }),
            Part::Lit(_) => None,
        })
        .collect();
    let n = steps.len();
    let res = format!("__dk::CondResult<{ident}, __dk::{kind_name}>");
    let mut structs = Vec::new();
    // The last step has no field to fix, so no method of its own: the
    // chain ends in the runtime's `SortKeyFull` itself.
    let step_ty = |i: usize| {
        if i == n {
            format!("__dk::SortKeyFull<{ident}, __dk::{kind_name}>")
        } else {
            level(i)
        }
    };
    for (i, s) in steps.iter().enumerate() {
        let this = level(i);
        let this_ident = format_ident!("{}", this);
        let inner = if s.is_text() {
            quote!(#full::SortKeyTextNext<#ident, #full::#kind_short>)
        } else {
            let ty = &s.f.inner;
            quote!(#full::SortKeyNext<#ident, #full::#kind_short, #ty>)
        };
        // The same type through the alias, for the impls in the scoped block.
        let short = if s.is_text() {
            format!("__dk::SortKeyTextNext<{ident}, __dk::{kind_name}>")
        } else {
            format!(
                "__dk::SortKeyNext<{ident}, __dk::{kind_name}, {}>",
                t.inner[s.i]
            )
        };
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
            #vis struct #this_ident(#inner);
        });
        w!(
            impls.text,
            "impl __dk::Debug for {this} {{ \
             fn fmt(&self, f: &mut __dk::Formatter<'_>) -> __dk::FmtResult {{ __dk::Debug::fmt(&self.0, f) }} }} \
             impl __dk::Deref for {this} {{ type Target = {short}; \
             #[inline] fn deref(&self) -> &Self::Target {{ &self.0 }} }}"
        );
        fixer(
            &this,
            s,
            steps.get(i + 1),
            &step_ty(i + 1),
            &res,
            e,
            t,
            impls,
        );
    }
    let first = step_ty(0);
    let index = opt_text(&k.index);
    let attr = lit(&k.attr);
    let tpl = tpl_name(k);
    let doc = lit(&format!(
        "Sort-key conditions on `{}` = `{}`{}.",
        k.attr,
        k.template,
        of_index(k)
    ));
    let body = match steps.first() {
        None => vec![Piece::Text(format!(
            "__dk::SortKeyFull::__new({index}, {attr}, {tpl})"
        ))],
        Some(s) if s.is_text() => vec![Piece::Text(format!(
            "{first}(__dk::SortKeyTextNext::__new({index}, {attr}, {tpl}))"
        ))],
        Some(s) => {
            // The writer's tokens go inside the call's parentheses, which
            // text cannot leave open: the call is tokens too.
            let write = s.write_fn();
            let index = match &k.index {
                Some(ix) => quote!(__dk::Some(#ix)),
                None => quote!(__dk::None),
            };
            let tpl = format_ident!("{}", tpl);
            let attr = &k.attr;
            let first = format_ident!("{}", first);
            vec![Piece::Tokens(
                quote!(#first(__dk::SortKeyNext::__new(#index, #attr, #tpl, #write))),
            )]
        }
    };
    inherent.hybrid_fn(
        &format!("#[doc = {doc}] pub fn {}() -> {first}", k.fn_name),
        body,
    );
    quote!(#(#structs)*)
}

/// The impl of step `this` that fixes its field `s`, leading to step
/// `next_ty` (whose field is `next`, if any); and for a text field, the
/// prefix search named after it. `res` is the condition type.
#[allow(clippy::too_many_arguments)]
fn fixer(
    this: &str,
    s: &Step,
    next: Option<&Step>,
    next_ty: &str,
    res: &str,
    e: &Entity,
    t: &Types,
    out: &mut Code,
) {
    let id = &s.f.ident;
    let aty = arg_text(e, t, s.i);
    let v = s.arg();
    let body = match (s.is_text(), next) {
        (_, None) => Piece::Text(format!("self.0.__end({v})")),
        (true, Some(n)) if n.is_text() => {
            Piece::Text(format!("{next_ty}(self.0.__then_text({v}))"))
        }
        (false, Some(n)) if n.is_text() => Piece::Text(format!(
            "{next_ty}(__dk::SortKeyTextNext::__from(&self.0, {v}))"
        )),
        (_, Some(n)) => {
            // The next field's writer keeps its span: the whole call is
            // tokens (text cannot leave the parentheses open).
            let write = n.write_fn();
            let next_ty = format_ident!("{}", next_ty);
            let inner = &n.f.inner;
            let v = if s.is_text() {
                quote!(v.as_ref())
            } else {
                quote!(v.borrow())
            };
            Piece::Tokens(quote!(#next_ty(self.0.__then::<#inner>(#v, #write))))
        }
    };
    let doc = lit(&format!("Fixes `{id}` to `v`."));
    let mut code = Code::default();
    code.hybrid_fn(
        &format!("#[doc = {doc}] pub fn {id}(&self, v: {aty}) -> {next_ty}"),
        vec![body],
    );
    if s.is_text() {
        let doc = lit(&format!(
            "Keys whose `{id}` text starts with `text`: a prefix search on the text, unlike `.{id}(..)`, which fixes the value."
        ));
        w!(
            code.text,
            "#[doc = {doc}] pub fn {id}_starts_with(&self, text: impl __dk::AsRef<str>) -> {res} {{ self.0.starts_with(text) }}"
        );
    }
    if code.tokens.is_empty() {
        w!(out.text, "impl {this} {{ {} }}", code.text);
    } else {
        out.tokens.extend(code.wrapped(&format!("impl {this}")));
    }
}
