//! The formats dynakey's derive and runtime share, in one place so the two
//! cannot disagree: the grammar and rules of key templates ([`template`]:
//! the derive checks a template by them, the runtime writes and reads keys
//! by them), and a table's schema snapshot ([`snapshot`]: the runtime
//! writes it, the derive reads it at expansion for the drift checks,
//! DYNA501–DYNA507).
//!
//! Not a proc macro: `dynakey-derive` and `dynakey-runtime` both depend on
//! it, and users reach it through `dynakey`. Each persisted format carries
//! its version, and this crate reads every earlier one.

pub mod format;
pub mod snapshot;
pub mod template;
