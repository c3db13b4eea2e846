//! Attribute parsing: syntax only, nothing checked beyond it. The errors
//! reported here are syntax errors: an attribute that is not what its
//! grammar takes is DYNA100 for a key attribute (`#[pk]` not one template
//! string, `#[gsi]` not starting with the index name) and DYNA112 for an
//! option (unknown, given twice, malformed, or a value of the wrong type).
//! A template's own grammar is scanned when the model is built (`model`),
//! and every rule over what was written is a `check`.
//!
//! `#[dynamo(..)]` options of containers, fields and variants are parsed by
//! darling, after [`screen`] has taken out (and reported as DYNA112) the
//! options that are unknown or given twice: darling's error kinds are not
//! public, and its wording is no interface to match, so the errors whose
//! words the derive chooses are found before darling runs, and darling's
//! remaining errors (a value of the wrong type, …) are shown in its words.
//! The key templates (`#[pk("…")]`, `#[sk("…")]`, `#[gsi("GSI1", pk = "…",
//! ..)]`, `#[lsi(..)]`) start with bare string literals, which darling's
//! named-field model cannot take, so `keys.rs` parses them by hand.

mod keys;
mod options;
mod vector;

pub use keys::{keys, IndexKind, NativeList, NativeTableKey, RawIndex, RawKeys, TemplateLit};
pub use options::{
    crate_path, entity, field, projection, table, value_container, variant, FieldOpts,
};
pub use vector::{vectors, RawProblem, RawVector};

use darling::ast::NestedMeta;
use quote::quote;
use syn::spanned::Spanned;
use syn::Attribute;

use crate::ctxt::Ctxt;
use crate::diag::render::did_you_mean;
use crate::diag::Code;

/// A syntax node with attributes, which darling parses options from.
pub trait Node: Clone {
    fn attrs(&self) -> &[Attribute];
    fn attrs_mut(&mut self) -> &mut Vec<Attribute>;
}

macro_rules! node {
    ($($t:ty),*) => {$(
        impl Node for $t {
            fn attrs(&self) -> &[Attribute] {
                &self.attrs
            }
            fn attrs_mut(&mut self) -> &mut Vec<Attribute> {
                &mut self.attrs
            }
        }
    )*};
}
node!(syn::DeriveInput, syn::Field, syn::Variant);

/// The `#[dynamo(..)]` options of `node` of kind `what` (`an entity`, `a
/// field`, …), whose options are `options`, parsed by `from` (darling's
/// derived parser); `None` when any was reported.
pub fn parse<N: Node, T>(
    cx: &Ctxt,
    node: &N,
    what: &str,
    options: &[&str],
    from: impl FnOnce(&N) -> darling::Result<T>,
) -> Option<T> {
    let screened = screen(cx, node.attrs(), what, options);
    let parsed = match &screened {
        Some(attrs) => {
            let mut clean = node.clone();
            *clean.attrs_mut() = attrs.clone();
            from(&clean)
        }
        None => from(node),
    };
    match parsed {
        Ok(opts) => screened.is_none().then_some(opts),
        Err(e) => {
            report(cx, e, what, options);
            None
        }
    }
}

fn listed(options: &[&str]) -> String {
    options
        .iter()
        .map(|o| format!("`{o}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reports each option of `#[dynamo(..)]` in `attrs` that is not one of
/// `options`, or that comes again, and returns the attributes without them
/// (`None` when there was none).
fn screen(cx: &Ctxt, attrs: &[Attribute], what: &str, options: &[&str]) -> Option<Vec<Attribute>> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(attrs.len());
    let mut changed = false;
    for attr in attrs {
        let list = match &attr.meta {
            syn::Meta::List(l) if attr.path().is_ident("dynamo") => l,
            _ => {
                out.push(attr.clone());
                continue;
            }
        };
        // Malformed syntax is darling's to report.
        let Ok(items) = NestedMeta::parse_meta_list(list.tokens.clone()) else {
            out.push(attr.clone());
            continue;
        };
        let mut kept = Vec::with_capacity(items.len());
        for item in items {
            let path = match &item {
                NestedMeta::Meta(m) => m.path(),
                NestedMeta::Lit(_) => {
                    kept.push(item);
                    continue;
                }
            };
            let name = quote!(#path).to_string();
            let span = path.span();
            if !options.contains(&name.as_str()) {
                let hint = did_you_mean(&name, options.iter().copied())
                    .map(|s| format!("did you mean `{s}`? "))
                    .unwrap_or_default();
                cx.report(
                    span,
                    Code::Options
                        .msg(format!(
                            "unknown option `{name}` in #[dynamo(..)] of {what}"
                        ))
                        .help(format!("{hint}options are {}", listed(options))),
                );
                changed = true;
            } else if seen.contains(&name) {
                cx.report(
                    span,
                    Code::Options
                        .msg(format!(
                            "option `{name}` is given twice in #[dynamo(..)] of {what}"
                        ))
                        .help(format!("options are {}", listed(options))),
                );
                changed = true;
            } else {
                seen.push(name);
                kept.push(item);
            }
        }
        let mut clean = attr.clone();
        if let syn::Meta::List(l) = &mut clean.meta {
            l.tokens = quote!(#(#kept),*);
        }
        out.push(clean);
    }
    changed.then_some(out)
}

/// Reports darling's errors as DYNA112, each at its own span, in darling's
/// words.
fn report(cx: &Ctxt, err: darling::Error, what: &str, options: &[&str]) {
    for e in err.flatten() {
        cx.report(
            e.span(),
            Code::Options
                .msg(format!("{e} in #[dynamo(..)] of {what}"))
                .help(format!("options are {}", listed(options))),
        );
    }
}
