//! Spans moved onto the user's tokens, so an error rustc finds in
//! generated code points at what the user wrote.

use proc_macro2::TokenStream;

/// `tokens` with every span set to `span` (groups included).
pub fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), respan(g.stream(), span));
                n.set_span(span);
                TokenTree::Group(n)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}
