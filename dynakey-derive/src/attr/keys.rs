//! `#[pk("…")]`, `#[sk("…")]`, `#[gsi("NAME", ..)]` and `#[lsi("NAME", ..)]`,
//! parsed by hand: they start with a bare string literal.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::diag::render::{caret, did_you_mean};
use crate::diag::{Code, Message};

/// A template as written: its text, its literal's span, and how to redraw
/// it.
#[derive(Clone)]
pub struct TemplateLit {
    pub text: String,
    pub span: Span,
    /// How the template appears in the attribute: `pk`, `GSI1 sk`, …
    pub label: String,
}

impl TemplateLit {
    /// Reports `message` at this template, redrawn with a caret under
    /// `range`.
    pub fn report(&self, cx: &Ctxt, message: Message, range: std::ops::Range<usize>) {
        let drawn = caret(&self.label, &self.text, range, "");
        cx.report(self.span, message.draw(drawn));
    }
}

fn template(lit: &LitStr, label: String) -> TemplateLit {
    TemplateLit {
        text: lit.value(),
        span: lit.span(),
        label,
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
    /// `projection = "KEYS_ONLY"` / `"INCLUDE(a, b)"` / `"ALL"`.
    pub projection: Option<TemplateLit>,
    /// `pk(a, b)`: a native key, the fields' own attributes.
    pub pk_native: Option<NativeList>,
    /// `sk(c, d)`.
    pub sk_native: Option<NativeList>,
}

/// The fields of a native key, as written: `pk(tenant, region)`. Names are
/// the fields' without `r#` (keywords are allowed: `pk(type)`).
#[derive(Clone)]
pub struct NativeList {
    pub names: Vec<(String, Span)>,
    /// The whole `pk(..)`.
    pub span: Span,
}

impl RawIndex {
    /// Whether either key is written as a list of fields.
    pub fn is_native(&self) -> bool {
        self.pk_native.is_some() || self.sk_native.is_some()
    }
}

/// The key templates of an entity.
#[derive(Default)]
pub struct RawKeys {
    pub pk: Option<TemplateLit>,
    pub sk: Option<TemplateLit>,
    pub indexes: Vec<RawIndex>,
    /// `#[pk(..)]` / `#[sk(..)]` written as a list of fields, as a native
    /// key (which the table key cannot be: DYNA122, reported when the
    /// model, which has no place for it, is built).
    pub native_table_keys: Vec<NativeTableKey>,
}

/// A table key written as a list of fields: `#[pk(tenant, region)]`.
pub struct NativeTableKey {
    /// `pk` or `sk`.
    pub label: &'static str,
    /// The attribute as written, `#[pk(tenant, region)]`.
    pub written: String,
    pub span: Span,
}

const GSI_OPTIONS: &[&str] = &["pk", "sk", "sparse", "pk_attr", "sk_attr", "projection"];
const LSI_OPTIONS: &[&str] = &["sk", "sk_attr", "projection"];

fn unknown(cx: &Ctxt, span: Span, what: &str, found: &str, options: &[&'static str]) {
    let hint = match did_you_mean(found, options.iter().copied()) {
        Some(s) => format!("did you mean `{s}`? "),
        None => String::new(),
    };
    cx.report(
        span,
        Code::Options
            .msg(format!("unknown {what} option `{found}`"))
            .help(format!(
                "{hint}options are {}",
                options
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
    );
}

fn twice(cx: &Ctxt, span: Span, what: &str) {
    cx.report(
        span,
        Code::Options
            .msg(format!("{what} is given twice"))
            .help("keep one; a second one would silently win"),
    );
}

pub fn keys(cx: &Ctxt, attrs: &[Attribute]) -> RawKeys {
    let mut out = RawKeys::default();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("pk") || path.is_ident("sk") {
            let label = if path.is_ident("pk") { "pk" } else { "sk" };
            match attr.parse_args::<LitStr>() {
                Ok(lit) => {
                    let slot = if label == "pk" { &mut out.pk } else { &mut out.sk };
                    if slot.is_some() {
                        twice(cx, lit.span(), &format!("#[{label}]"));
                    } else {
                        *slot = Some(template(&lit, label.to_owned()));
                    }
                }
                Err(_) if attr.parse_args_with(|i: ParseStream<'_>| Punctuated::<Ident, Token![,]>::parse_terminated_with(i, Ident::parse_any)).is_ok() => {
                    let list = attr.meta.require_list().map(|l| l.tokens.to_string()).unwrap_or_default();
                    out.native_table_keys.push(NativeTableKey {
                        label,
                        written: format!("#[{label}({list})]"),
                        span: attr.meta.require_list().map_or(attr.pound_token.span, |l| l.delimiter.span().join()),
                    });
                }
                Err(e) => cx.push(syn::Error::new(e.span(), Code::TemplateSyntax.msg(format!("#[{label}] takes one template string, as in #[{label}(\"USER#<user_id>\")]")).render())),
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

fn index(cx: &Ctxt, input: ParseStream<'_>, kind: IndexKind) -> syn::Result<RawIndex> {
    let which = if kind == IndexKind::Global {
        "gsi"
    } else {
        "lsi"
    };
    let name: LitStr = input.parse().map_err(|e| {
        syn::Error::new(e.span(), Code::TemplateSyntax.msg(format!("#[{which}] starts with the index name, as in #[{which}(\"GSI1\", pk = \"TEAM#<team>\", sk = \"HIRED#<hired_on>\")]")).render())
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
        projection: None,
        pk_native: None,
        sk_native: None,
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
        if (k == "pk" || k == "sk") && input.peek(syn::token::Paren) {
            let content;
            let parens = syn::parenthesized!(content in input);
            let names =
                Punctuated::<Ident, Token![,]>::parse_terminated_with(&content, Ident::parse_any)?;
            let list = NativeList {
                names: names
                    .iter()
                    .map(|n| (crate::unraw::Name::new(n).text, n.span()))
                    .collect(),
                span: key.span().join(parens.span.close()).unwrap_or(key.span()),
            };
            let what = format!("`{k}` of #[{which}(\"{}\")]", ix.name);
            let slot = if k == "pk" {
                &mut ix.pk_native
            } else {
                &mut ix.sk_native
            };
            if slot.is_some() || (k == "pk" && ix.pk.is_some()) || (k == "sk" && ix.sk.is_some()) {
                twice(cx, key.span(), &what);
            } else {
                *slot = Some(list);
            }
            continue;
        }
        let value: Option<LitStr> = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        if !options.contains(&k.as_str()) {
            unknown(cx, key.span(), which, &k, options);
            continue;
        }
        let what = format!("`{k}` of #[{which}(\"{}\")]", ix.name);
        match (k.as_str(), value) {
            ("sparse", None) if ix.sparse => twice(cx, key.span(), &what),
            ("sparse", None) => ix.sparse = true,
            ("pk", Some(v)) => set(
                cx,
                &mut ix.pk,
                template(&v, format!("{} pk", ix.name)),
                &what,
            ),
            ("sk", Some(v)) => set(
                cx,
                &mut ix.sk,
                template(&v, format!("{} sk", ix.name)),
                &what,
            ),
            ("pk_attr", Some(v)) => set(cx, &mut ix.pk_attr, (v.value(), v.span()), &what),
            ("sk_attr", Some(v)) => set(cx, &mut ix.sk_attr, (v.value(), v.span()), &what),
            ("projection", Some(v)) => set(
                cx,
                &mut ix.projection,
                template(&v, format!("{} projection", ix.name)),
                &what,
            ),
            _ => cx.report(
                key.span(),
                Code::Options
                    .msg(format!("option `{k}` of #[{which}] is malformed"))
                    .help(format!("write `{k} = \"...\"`, or `sparse` alone")),
            ),
        }
    }
    Ok(ix)
}

/// Sets an option once; a second one is DYNA112.
fn set<T: Spanned>(cx: &Ctxt, slot: &mut Option<T>, value: T, what: &str) {
    if slot.is_some() {
        twice(cx, value.span(), what);
    } else {
        *slot = Some(value);
    }
}

trait Spanned {
    fn span(&self) -> Span;
}

impl Spanned for TemplateLit {
    fn span(&self) -> Span {
        self.span
    }
}

impl Spanned for (String, Span) {
    fn span(&self) -> Span {
        self.1
    }
}
