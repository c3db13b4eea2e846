//! Code generation from a checked model. Nothing here reports user errors.

pub mod codec;
pub mod entity;
pub mod keys;
pub mod table;
pub mod union;
pub mod update;
pub mod value;
