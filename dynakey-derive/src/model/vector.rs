//! The model of a vector index (`#[vector_index(..)]`), as `model::vectors`
//! builds it and `gen::vector` generates from it.

use super::Projection;

/// The length of a vector field's type.
#[derive(Clone)]
pub enum VectorLen {
    /// `[f32; 768]`: the length, checked against the dimensions.
    Literal(u64),
    /// `[f32; N]` with a const: compared in the generated code.
    Const(syn::Expr),
    /// `Vec<f32>`: checked at run time.
    Runtime,
}

pub struct VectorIndex {
    pub name: String,
    /// The snake-case name of its search function (`by_similar`).
    pub snake: String,
    /// The vector field.
    pub vector: usize,
    pub len: VectorLen,
    pub dimensions: u32,
    /// `Cosine`, `Euclidean` or `DotProduct` (the runtime's `Distance`).
    pub distance: &'static str,
    /// The scope field (`HASH`), at most one.
    pub scope: Option<usize>,
    /// The filter fields (`INLINE_FILTER`).
    pub filters: Vec<usize>,
    pub projection: Projection,
}

impl VectorIndex {
    /// Reads through it cannot decode whole items (DYNA402).
    pub fn partial(&self) -> bool {
        self.projection != Projection::All
    }
}
