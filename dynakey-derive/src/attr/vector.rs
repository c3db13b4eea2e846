//! `#[vector_index("NAME", vector = field, dimensions = 768, distance =
//! "COSINE", scope(field), filter(a, b), projection = "INCLUDE(title)")]`,
//! parsed by hand (it starts with a bare string literal, like `#[gsi]`).
//! Syntax only: what the options mean is checked in `check::vector`, and
//! every message of the family is there.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitInt, LitStr, Token};

use crate::check::vector::{self as msg, Code};
use crate::ctxt::Ctxt;
use crate::model::TemplateLit;

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
}

/// Every `#[vector_index(..)]` of an entity.
pub fn vectors(cx: &Ctxt, attrs: &[Attribute]) -> Vec<RawVector> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("vector_index")) {
        match attr.parse_args_with(|input: ParseStream<'_>| one(cx, input)) {
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

fn one(cx: &Ctxt, input: ParseStream<'_>) -> syn::Result<RawVector> {
    let name: LitStr = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), msg::text(Code::Shape, "#[vector_index] starts with the index name", "write #[vector_index(\"BySimilar\", vector = embedding, dimensions = 768, distance = \"COSINE\")]")))?;
    let mut v = RawVector {
        name: name.value(),
        name_span: name.span(),
        vector: None,
        dimensions: None,
        distance: None,
        scope: None,
        filter: None,
        projection: None,
    };
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key = Ident::parse_any(input)?;
        let k = key.to_string();
        let twice = |given: bool| {
            if given {
                msg::twice(cx, key.span(), &k, &v.name);
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
                    msg::twice(cx, key.span(), &k, &v.name);
                } else {
                    *slot = Some(list);
                }
            }
            "vector" => {
                input.parse::<Token![=]>()?;
                let field = Ident::parse_any(input)?;
                if !twice(v.vector.is_some()) {
                    v.vector = Some((crate::unraw::Name::new(&field).text, field.span()));
                }
            }
            "dimensions" => {
                input.parse::<Token![=]>()?;
                let n: LitInt = input.parse()?;
                if !twice(v.dimensions.is_some()) {
                    v.dimensions = Some((n.base10_digits().to_owned(), n.span()));
                }
            }
            "distance" => {
                input.parse::<Token![=]>()?;
                let d: LitStr = input.parse()?;
                if !twice(v.distance.is_some()) {
                    v.distance = Some((d.value(), d.span()));
                }
            }
            "projection" => {
                input.parse::<Token![=]>()?;
                let p: LitStr = input.parse()?;
                if !twice(v.projection.is_some()) {
                    v.projection = Some(TemplateLit {
                        text: p.value(),
                        span: p.span(),
                        label: format!("{} projection", v.name),
                    });
                }
            }
            _ => {
                msg::unknown_option(cx, key.span(), &k);
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
