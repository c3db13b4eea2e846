//! `#[vector_index("NAME", vector = field, dimensions = 768, distance =
//! "COSINE", scope(field), filter(a, b), projection = "INCLUDE(title)")]`,
//! parsed by hand (it starts with a bare string literal, like `#[gsi]`).
//! Syntax only: what the options mean is checked in `model::vectors`, and
//! every message of the family is there (this parser records its
//! problems in [`RawVector::problems`] for it to report).

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitInt, LitStr, Token};

use super::TemplateLit;
use crate::ctxt::Ctxt;

/// A name as written, with its span.
pub type Spanned = (String, Span);

pub struct RawVector {
    pub name: String,
    pub name_span: Span,
    pub vector: Option<Spanned>,
    /// The number as written (it may not fit a `u32`), and its span.
    pub dimensions: Option<(String, Span)>,
    pub distance: Option<Spanned>,
    pub scope: Option<(Vec<Spanned>, Span)>,
    pub filter: Option<(Vec<Spanned>, Span)>,
    /// `projection = "KEYS_ONLY"` / `"INCLUDE(a, b)"` / `"ALL"`.
    pub projection: Option<TemplateLit>,
    /// What did not parse, for `model::vectors` to report.
    pub problems: Vec<(RawProblem, Span)>,
}

/// A syntax problem of a `#[vector_index]`.
pub enum RawProblem {
    /// It does not start with the index name.
    NoName,
    /// An option given twice.
    Twice(String),
    /// An unknown option.
    Unknown(String),
}

/// Every `#[vector_index(..)]` of an entity.
pub fn vectors(cx: &Ctxt, attrs: &[Attribute]) -> Vec<RawVector> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("vector_index")) {
        match attr.parse_args_with(one) {
            Ok(v) => out.push(v),
            Err(e) => cx.push(e),
        }
    }
    out
}

fn names(input: ParseStream<'_>) -> syn::Result<(Vec<Spanned>, Span)> {
    let content;
    let parens = syn::parenthesized!(content in input);
    let list = Punctuated::<Ident, Token![,]>::parse_terminated_with(&content, Ident::parse_any)?;
    let names = list
        .iter()
        .map(|n| (crate::unraw::Name::new(n).text, n.span()))
        .collect();
    Ok((names, parens.span.join()))
}

fn one(input: ParseStream<'_>) -> syn::Result<RawVector> {
    let mut v = RawVector {
        name: String::new(),
        name_span: input.span(),
        vector: None,
        dimensions: None,
        distance: None,
        scope: None,
        filter: None,
        projection: None,
        problems: Vec::new(),
    };
    match input.parse::<LitStr>() {
        Ok(name) => (v.name, v.name_span) = (name.value(), name.span()),
        Err(_) => {
            v.problems.push((RawProblem::NoName, input.span()));
            // The rest cannot be read as options of a named index.
            let _: proc_macro2::TokenStream = input.parse()?;
            return Ok(v);
        }
    }
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key = Ident::parse_any(input)?;
        let k = key.to_string();
        let twice = |given: bool, v: &mut RawVector| {
            if given {
                v.problems.push((RawProblem::Twice(k.clone()), key.span()));
            }
            given
        };
        match k.as_str() {
            "scope" | "filter" if input.peek(syn::token::Paren) => {
                let list = names(input)?;
                let slot = if k == "scope" {
                    &mut v.scope
                } else {
                    &mut v.filter
                };
                if slot.is_some() {
                    v.problems.push((RawProblem::Twice(k.clone()), key.span()));
                } else {
                    *slot = Some(list);
                }
            }
            "vector" => {
                input.parse::<Token![=]>()?;
                let field = Ident::parse_any(input)?;
                if !twice(v.vector.is_some(), &mut v) {
                    v.vector = Some((crate::unraw::Name::new(&field).text, field.span()));
                }
            }
            "dimensions" => {
                input.parse::<Token![=]>()?;
                let n: LitInt = input.parse()?;
                if !twice(v.dimensions.is_some(), &mut v) {
                    v.dimensions = Some((n.base10_digits().to_owned(), n.span()));
                }
            }
            "distance" => {
                input.parse::<Token![=]>()?;
                let d: LitStr = input.parse()?;
                if !twice(v.distance.is_some(), &mut v) {
                    v.distance = Some((d.value(), d.span()));
                }
            }
            "projection" => {
                input.parse::<Token![=]>()?;
                let p: LitStr = input.parse()?;
                if !twice(v.projection.is_some(), &mut v) {
                    v.projection = Some(TemplateLit {
                        text: p.value(),
                        span: p.span(),
                        label: format!("{} projection", v.name),
                    });
                }
            }
            _ => {
                v.problems
                    .push((RawProblem::Unknown(k.clone()), key.span()));
                // Skip the option's value, so the next one is read.
                if input.peek(Token![=]) {
                    input.parse::<Token![=]>()?;
                    let _: syn::Expr = input.parse()?;
                } else if input.peek(syn::token::Paren) {
                    let _ = names(input);
                }
            }
        }
    }
    Ok(v)
}
