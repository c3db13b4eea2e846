//! The entities of the seed documents (the recipes), shared by the example
//! programs, the integration tests and the benchmarks.

pub mod seeds;
