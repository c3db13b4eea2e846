// clippy reads two `#[gsi(.., sparse)]` helper attributes as one attribute
// written twice (rust-clippy duplicated_attributes); they are two indexes.
#![allow(clippy::duplicated_attributes)]

//! The entities of the seed documents (the recipes), shared by the example
//! programs, the integration tests and the benchmarks.

pub mod seeds;
