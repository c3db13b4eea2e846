//! Generated code written as source text, for the parts of an expansion
//! that carry no span of the user's.
//!
//! Why text: a derive runs unoptimised in a dev build, and building a token
//! stream with `quote!` costs a call into `proc_macro2` (and across the
//! proc-macro bridge) per token, which made the derive the largest single
//! cost of `cargo check` on a crate of entities. Formatting text runs in
//! the standard library's optimised code, and rustc lexes the result in
//! one call ([`tokens`]). Text gets `Span::call_site()`, as `quote!`'s
//! tokens do; anything whose span points an error at the user's code (a
//! field type in a trait call, a validator path) stays a token stream.
//!
//! User types are interpolated through [`Types`]: their source text, or
//! an alias when the text would not lex back (`$crate` from a
//! `macro_rules!` expansion).

use proc_macro2::{Delimiter, Group, TokenStream};
use quote::{format_ident, quote, ToTokens};

use crate::model::Entity;

/// Appends formatted text: `w!(out, "fn {name}() {{}}")`.
macro_rules! w {
    ($out:expr, $($fmt:tt)*) => {{
        use ::std::fmt::Write as _;
        // Writing to a `String` cannot fail.
        let _ = ::std::write!($out, $($fmt)*);
    }};
}
pub(crate) use w;

/// Lexes generated text into tokens (one call into rustc).
pub fn tokens(src: &str) -> TokenStream {
    // rustc's lexer directly: `proc_macro2`'s `FromStr` first checks the
    // text with its own lexer, which (unoptimised in a dev build) costs
    // more than everything text saves.
    if proc_macro::is_available() {
        let ts: proc_macro::TokenStream = src.parse().unwrap_or_else(|e| {
            panic!("dynakey-derive generated text that does not lex ({e:?}): {src}")
        });
        return ts.into();
    }
    src.parse()
        .unwrap_or_else(|e| panic!("dynakey-derive generated text that does not lex ({e}): {src}"))
}

/// A string literal holding `s`: `Debug` escapes exactly what a Rust
/// string literal needs.
pub fn lit(s: &str) -> String {
    format!("{s:?}")
}

/// The text of every field's type (`ty`) and of its type without
/// `Option` (`inner`), computed once per entity.
pub struct Types {
    pub ty: Vec<String>,
    pub inner: Vec<String>,
    /// Items for the `const _` block: the aliases some texts name.
    pub aliases: TokenStream,
}

impl Types {
    pub fn of(e: &Entity) -> Self {
        let mut t = Types {
            ty: Vec::new(),
            inner: Vec::new(),
            aliases: TokenStream::new(),
        };
        // (text, alias) of the types named through an alias.
        let mut named: Vec<(String, String)> = Vec::new();
        for f in &e.fields {
            let ty = t.text(&f.ty, &mut named);
            let inner = t.text(&f.inner, &mut named);
            t.ty.push(ty);
            t.inner.push(inner);
        }
        t
    }

    /// The text that names `ty` in generated source.
    fn text(&mut self, ty: &syn::Type, named: &mut Vec<(String, String)>) -> String {
        let tokens = ty.to_token_stream();
        let text = tokens.to_string();
        if !text.contains('$') {
            return text;
        }
        // `$crate` (a type written by a `macro_rules!` expansion) does not
        // lex back from text: name the type through an alias written as
        // tokens, which keep their hygiene.
        if let Some((_, alias)) = named.iter().find(|(t, _)| *t == text) {
            return alias.clone();
        }
        let alias = format!("__DkTy{}", named.len());
        let ident = format_ident!("{}", alias);
        self.aliases.extend(quote!(type #ident = #tokens;));
        named.push((text, alias.clone()));
        alias
    }
}

/// A piece of a function body: text, or tokens that keep their spans.
pub enum Piece {
    Text(String),
    Tokens(TokenStream),
}

/// Generated items: text where nothing needs a span, tokens where
/// something does.
#[derive(Default)]
pub struct Code {
    pub text: String,
    pub tokens: TokenStream,
}

impl Code {
    /// A function whose body mixes text and spanned tokens: its signature
    /// (with attributes) as text, its body as one brace group.
    pub fn hybrid_fn(&mut self, sig: &str, body: Vec<Piece>) {
        if body.iter().all(|p| matches!(p, Piece::Text(_))) {
            w!(self.text, "{sig} {{");
            for p in body {
                if let Piece::Text(t) = p {
                    self.text.push_str(&t);
                }
            }
            self.text.push('}');
            return;
        }
        let mut inner = TokenStream::new();
        let mut run = String::new();
        for p in body {
            match p {
                Piece::Text(t) => run.push_str(&t),
                Piece::Tokens(t) => {
                    if !run.is_empty() {
                        inner.extend(tokens(&std::mem::take(&mut run)));
                    }
                    inner.extend(t);
                }
            }
        }
        if !run.is_empty() {
            inner.extend(tokens(&run));
        }
        self.tokens.extend(tokens(sig));
        Group::new(Delimiter::Brace, inner).to_tokens(&mut self.tokens);
    }

    /// Everything, as tokens.
    pub fn into_tokens(self) -> TokenStream {
        let mut out = tokens(&self.text);
        out.extend(self.tokens);
        out
    }

    /// Wraps the items in `header { .. }` (an impl block): the text in one
    /// block, the tokens in another.
    pub fn wrapped(self, header: &str) -> TokenStream {
        let mut out = TokenStream::new();
        if !self.text.is_empty() {
            out.extend(tokens(&format!("{header} {{ {} }}", self.text)));
        }
        if !self.tokens.is_empty() {
            out.extend(tokens(header));
            Group::new(Delimiter::Brace, self.tokens).to_tokens(&mut out);
        }
        out
    }

    /// Wraps the items in `header { .. }` as one block (a trait impl,
    /// which cannot be split).
    pub fn one_block(self, header: &str) -> TokenStream {
        let mut body = tokens(&self.text);
        body.extend(self.tokens);
        let mut out = tokens(header);
        Group::new(Delimiter::Brace, body).to_tokens(&mut out);
        out
    }
}
