//! Key templates such as `SITE#<country>#<city>#EMP#<number:d6>`: their
//! grammar ([`token`], [`parts`]), the formats a placeholder can name
//! ([`PartFormat`], [`parse_format`]) and the rules of a key's text
//! ([`is_delimiter`], [`escape_char`], [`forbidden_raw`]).
//!
//! The derive checks a template through these and reports what breaks
//! them with a caret under the culprit; the runtime splits the template
//! into parts with the same tokenizer at compile time and writes and reads
//! keys by the same rules. A format change is one edit here.

mod grammar;
mod rules;

pub use grammar::{
    is_field_name, parse_format, parts, token, FormatError, PartFormat, Span, TemplatePart, Token,
    MAX_DECIMAL_DIGITS, MAX_PADDED_WIDTH, MAX_SIGNED_WIDTH,
};
pub use rules::{
    escape_char, escape_into, forbidden_raw, is_delimiter, unescape, HIGH, MIN_ESCAPE,
};
