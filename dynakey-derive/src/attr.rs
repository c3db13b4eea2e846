//! Attribute parsing: `#[dynamo(..)]`, `#[pk]`, `#[sk]`, `#[gsi]`, `#[lsi]`
//! into a raw model. Nothing is checked here beyond syntax.

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::render::did_you_mean;

/// A template as written: its text, its literal's span, and how to redraw it.
#[derive(Clone)]
pub struct TemplateLit {
    pub text: String,
    pub span: Span,
    pub label: String,
}

impl TemplateLit {
    fn new(lit: &LitStr, label: String) -> Self {
        Self {
            text: lit.value(),
            span: lit.span(),
            label,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    Global,
    Local,
}

pub struct RawIndex {
    pub kind: IndexKind,
    pub name: String,
    pub name_span: Span,
    pub pk: Option<TemplateLit>,
    pub sk: Option<TemplateLit>,
    pub sparse: bool,
    pub pk_attr: Option<(String, Span)>,
    pub sk_attr: Option<(String, Span)>,
}

#[derive(Default)]
pub struct RawContainer {
    pub entity: Option<(String, Span)>,
    pub discriminator_attr: Option<(String, Span)>,
    pub pk_attr: Option<(String, Span)>,
    pub sk_attr: Option<(String, Span)>,
    pub pk: Option<TemplateLit>,
    pub sk: Option<TemplateLit>,
    pub indexes: Vec<RawIndex>,
}

#[derive(Default)]
pub struct RawField {
    pub rename: Option<String>,
    pub omit_empty: bool,
    pub skip: bool,
    pub serde: bool,
    pub ttl: bool,
    pub version: bool,
}

const CONTAINER_OPTIONS: &[&str] = &[
    "entity",
    "discriminator_attr",
    "pk_attr",
    "sk_attr",
    "crate",
];
const FIELD_OPTIONS: &[&str] = &["rename", "omit_empty", "skip", "serde", "ttl", "version"];
const GSI_OPTIONS: &[&str] = &["pk", "sk", "sparse", "pk_attr", "sk_attr"];
const LSI_OPTIONS: &[&str] = &["sk", "sk_attr"];

fn unknown(cx: &Ctxt, span: Span, what: &str, found: &str, options: &[&'static str]) {
    let hint = match did_you_mean(found, options.iter().copied()) {
        Some(s) => format!("did you mean `{s}`? "),
        None => String::new(),
    };
    cx.error(
        span,
        format!(
            "DYNA112: unknown {what} option `{found}`\n  = help: {hint}options are {}",
            options
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
}

fn string_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> RawContainer {
    let mut out = RawContainer::default();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("dynamo") {
            let r = attr.parse_nested_meta(|meta| {
                let key = meta
                    .path
                    .get_ident()
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                match key.as_str() {
                    // Read by `crate_path` before anything else.
                    "crate" => skip_value(&meta)?,
                    "entity" | "discriminator_attr" | "pk_attr" | "sk_attr" => {
                        let lit = string_value(&meta)?;
                        let v = Some((lit.value(), lit.span()));
                        match key.as_str() {
                            "entity" => out.entity = v,
                            "discriminator_attr" => out.discriminator_attr = v,
                            "pk_attr" => out.pk_attr = v,
                            _ => out.sk_attr = v,
                        }
                    }
                    _ => {
                        unknown(
                            cx,
                            meta.path.span_or_call(),
                            "entity",
                            &key,
                            CONTAINER_OPTIONS,
                        );
                        skip_value(&meta)?;
                    }
                }
                Ok(())
            });
            if let Err(e) = r {
                cx.push(e);
            }
        } else if path.is_ident("pk") || path.is_ident("sk") {
            let label = if path.is_ident("pk") { "pk" } else { "sk" };
            match attr.parse_args::<LitStr>() {
                Ok(lit) => {
                    let t = Some(TemplateLit::new(&lit, label.to_owned()));
                    if label == "pk" {
                        out.pk = t;
                    } else {
                        out.sk = t;
                    }
                }
                Err(e) => cx.push(syn::Error::new(
                    e.span(),
                    format!("DYNA100: #[{label}] takes one template string, as in #[{label}(\"USER#<user_id>\")]"),
                )),
            }
        } else if path.is_ident("gsi") || path.is_ident("lsi") {
            let kind = if path.is_ident("gsi") {
                IndexKind::Global
            } else {
                IndexKind::Local
            };
            match attr.parse_args_with(|input: ParseStream<'_>| index(cx, input, kind)) {
                Ok(ix) => out.indexes.push(ix),
                Err(e) => cx.push(e),
            }
        }
    }
    out
}

trait SpanOrCall {
    fn span_or_call(&self) -> Span;
}
impl SpanOrCall for syn::Path {
    fn span_or_call(&self) -> Span {
        syn::spanned::Spanned::span(self)
    }
}

/// Consumes `= value` after an unknown option so parsing can go on.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

fn index(cx: &Ctxt, input: ParseStream<'_>, kind: IndexKind) -> syn::Result<RawIndex> {
    let which = if kind == IndexKind::Global {
        "gsi"
    } else {
        "lsi"
    };
    let name: LitStr = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("DYNA100: #[{which}] starts with the index name, as in #[{which}(\"GSI1\", pk = \"TEAM#<team>\", sk = \"HIRED#<hired_on>\")]"),
        )
    })?;
    let mut ix = RawIndex {
        kind,
        name: name.value(),
        name_span: name.span(),
        pk: None,
        sk: None,
        sparse: false,
        pk_attr: None,
        sk_attr: None,
    };
    let options = if kind == IndexKind::Global {
        GSI_OPTIONS
    } else {
        LSI_OPTIONS
    };
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key: Ident = input.parse()?;
        let k = key.to_string();
        let value: Option<LitStr> = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        let known = options.contains(&k.as_str());
        match (k.as_str(), value) {
            ("sparse", None) if known => ix.sparse = true,
            ("pk", Some(v)) if known => ix.pk = Some(TemplateLit::new(&v, format!("{} pk", ix.name))),
            ("sk", Some(v)) if known => ix.sk = Some(TemplateLit::new(&v, format!("{} sk", ix.name))),
            ("pk_attr", Some(v)) if known => ix.pk_attr = Some((v.value(), v.span())),
            ("sk_attr", Some(v)) if known => ix.sk_attr = Some((v.value(), v.span())),
            _ if known => cx.error(key.span(), format!("DYNA112: option `{k}` of #[{which}] is malformed\n  = help: write `{k} = \"...\"`, or `sparse` alone")),
            _ => unknown(cx, key.span(), which, &k, options),
        }
    }
    Ok(ix)
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> RawField {
    let mut out = RawField::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynamo")) {
        let r = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            match key.as_str() {
                "rename" => out.rename = Some(string_value(&meta)?.value()),
                "omit_empty" => out.omit_empty = true,
                "skip" => out.skip = true,
                "serde" => out.serde = true,
                "ttl" => out.ttl = true,
                "version" => out.version = true,
                _ => {
                    unknown(cx, meta.path.span_or_call(), "field", &key, FIELD_OPTIONS);
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.push(e);
        }
    }
    out
}

/// `#[dynamo(crate = "path")]`: where generated code finds the runtime
/// (`::dynakey` by default). Read before the rest of the container's
/// options, since every generator needs it; those parsers skip it.
pub fn crate_path(cx: &Ctxt, attrs: &[Attribute]) -> Option<syn::Path> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynamo")) {
        // Only `crate` is read here; other options (and their errors) are
        // the container parser's.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                match string_value(&meta).and_then(|l| l.parse::<syn::Path>()) {
                    Ok(p) => out = Some(p),
                    Err(e) => cx.push(syn::Error::new(
                        e.span(),
                        "DYNA112: `crate` takes a path in a string, as in #[dynamo(crate = \"::dynakey\")]",
                    )),
                }
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
    out
}

/// `#[dynamo(rename = "..")]` on an enum variant.
pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> Option<String> {
    let mut rename = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynamo")) {
        let r = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                rename = Some(string_value(&meta)?.value());
            } else {
                let key = meta
                    .path
                    .get_ident()
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                unknown(cx, meta.path.span_or_call(), "variant", &key, &["rename"]);
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.push(e);
        }
    }
    rename
}
