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
//! User types are interpolated through [`TypeText`]: their source text, or
//! an alias when the text would not lex back (`$crate` from a
//! `macro_rules!` expansion).

use std::collections::HashMap;

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

/// The text of the user's types, each written once per expansion.
#[derive(Default)]
pub struct TypeText {
    texts: HashMap<String, String>,
    aliases: Vec<(String, TokenStream)>,
}

impl TypeText {
    /// The text that names `ty` in generated source.
    pub fn of(&mut self, ty: &impl ToTokens) -> String {
        let tokens = ty.to_token_stream();
        let text = tokens.to_string();
        if !text.contains('$') {
            return text;
        }
        // `$crate` (a type written by a `macro_rules!` expansion) does not
        // lex back from text: name the type through an alias written as
        // tokens, which keep their hygiene.
        if let Some(alias) = self.texts.get(&text) {
            return alias.clone();
        }
        let alias = format!("__DkTy{}", self.aliases.len());
        self.texts.insert(text, alias.clone());
        self.aliases.push((alias.clone(), tokens));
        alias
    }

    /// The aliases [`TypeText::of`] handed out, as items for the
    /// expansion's `const _` block.
    pub fn aliases(&self) -> TokenStream {
        let items = self.aliases.iter().map(|(name, ty)| {
            let name = format_ident!("{}", name);
            quote!(type #name = #ty;)
        });
        quote!(#(#items)*)
    }
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
        let mut t = TypeText::default();
        let ty = e.fields.iter().map(|f| t.of(&f.ty)).collect();
        let inner = e.fields.iter().map(|f| t.of(&f.inner)).collect();
        Types {
            ty,
            inner,
            aliases: t.aliases(),
        }
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
