//! Attribute parsing: syntax only, nothing checked beyond it.
//!
//! `#[dynamo(..)]` options of containers, fields and variants are parsed by
//! darling, which brings duplicate detection, "did you mean" and error
//! accumulation; its errors become DYNA112. The key templates (`#[pk("…")]`,
//! `#[sk("…")]`, `#[gsi("GSI1", pk = "…", ..)]`, `#[lsi(..)]`) start with bare
//! string literals, which darling's named-field model cannot take, so
//! `keys.rs` parses them by hand.

mod keys;
mod options;
mod vector;

pub use keys::{keys, IndexKind, NativeList, RawIndex, RawKeys};
pub use options::{
    crate_path, entity, field, projection, table, value_container, variant, FieldOpts,
};
pub use vector::{vectors, RawProblem, RawVector};

use crate::ctxt::Ctxt;

/// Reports darling's errors as DYNA112, each at its own span, in the
/// words of the other diagnostics.
pub fn report(cx: &Ctxt, err: darling::Error, what: &str, options: &[&str]) {
    let list = options
        .iter()
        .map(|o| format!("`{o}`"))
        .collect::<Vec<_>>()
        .join(", ");
    for e in err.flatten() {
        let span = e.span();
        let text = e
            .to_string()
            .replace("Unknown field: ", "unknown option ")
            .replace("Duplicate field ", "option ");
        // darling's suggestion goes to the help line.
        let (text, hint) = match text.split_once(". Did you mean") {
            Some((t, rest)) => (t.to_owned(), format!("did you mean{rest} ")),
            None => (text, String::new()),
        };
        let text = if text.starts_with("option ") {
            format!("{text} is given twice")
        } else {
            text
        };
        cx.error(
            span,
            format!(
                "DYNA112: {text} in #[dynamo(..)] of {what}\n  = help: {hint}options are {list}"
            ),
        );
    }
}
