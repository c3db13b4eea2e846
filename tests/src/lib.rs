//! Integration tests of dynakey; the recipe entities live in
//! `dynakey-examples` and are re-exported here.

pub use dynakey_examples::seeds;
pub mod codec_sample;
pub mod fixture;
pub mod interleaved;
pub mod notes;
