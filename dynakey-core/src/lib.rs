//! The formats dynakey's derive and runtime share, in one place so the two
//! cannot disagree: the runtime writes a table's schema snapshot, the derive
//! reads it at expansion (the drift checks, DYNA501–DYNA506), and both go
//! through [`snapshot`].
//!
//! Not a proc macro: `dynakey-derive` and `dynakey-runtime` both depend on
//! it, and users reach it through `dynakey`. Each persisted format carries
//! its version, and this crate reads every earlier one.

pub mod snapshot;
