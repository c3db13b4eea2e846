//! Why a vector search was refused before anything was sent.

use std::fmt;

/// The most results of one vector search (`SearchVectors`' captured
/// answer for 101).
pub(crate) const MAX_TOP_K: u32 = 100;

/// A vector search refused before sending: which entity and index, and
/// why ([`VectorSearchReason`]).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "TICKET")]
/// # #[pk("TICKET#<id>")]
/// # #[vector_index("BySimilar", vector = v, dimensions = 2, distance = "COSINE")]
/// # struct Ticket { id: String, v: [f32; 2] }
/// use dynakey_runtime::vector::VectorSearchReason;
/// use dynakey_runtime::Error;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("no-table-needed");
/// let Err(Error::VectorSearch(e)) = db.search(Ticket::by_similar(), &[1.0, 0.0]).top_k(0).await else {
///     panic!("refused before sending")
/// };
/// assert_eq!(e.reason, VectorSearchReason::TopK { value: 0 });
/// assert_eq!(e.to_string(), "vector search Ticket.BySimilar refused: top_k 0 is outside DynamoDB's 1..=100");
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct VectorSearchError {
    /// The entity's type name.
    pub entity: &'static str,
    /// The vector index.
    pub index: &'static str,
    /// What is wrong.
    pub reason: VectorSearchReason,
}

/// What is wrong with a vector search (see [`VectorSearchError`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum VectorSearchReason {
    /// `top_k` outside 1–100.
    TopK {
        /// The value given.
        value: u32,
    },
    /// The search vector's length is not the index's dimensions (a
    /// `Vec<f32>` vector field; an array's length is checked by its type).
    Dimensions {
        /// The index's dimensions.
        expected: u32,
        /// The search vector's length.
        found: usize,
    },
    /// An element is NaN or infinite: DynamoDB takes finite 32-bit floats.
    NotFinite {
        /// Its position.
        position: usize,
        /// Its value.
        value: f32,
    },
    /// Two filters on one attribute: DynamoDB takes one condition per
    /// attribute.
    FilterTwice {
        /// The attribute.
        attr: &'static str,
    },
}

impl fmt::Display for VectorSearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vector search {}.{} refused: ", self.entity, self.index)?;
        match &self.reason {
            VectorSearchReason::TopK { value } => write!(
                f,
                "top_k {value} is outside DynamoDB's 1..={}",
                MAX_TOP_K
            ),
            VectorSearchReason::Dimensions { expected, found } => write!(
                f,
                "the search vector has {found} elements, the index {expected} dimensions"
            ),
            VectorSearchReason::NotFinite { position, value } => write!(
                f,
                "element {position} of the search vector is {value}; DynamoDB takes finite 32-bit floats"
            ),
            VectorSearchReason::FilterTwice { attr } => write!(
                f,
                "two filters on `{attr}`; DynamoDB takes one condition per attribute"
            ),
        }
    }
}

impl std::error::Error for VectorSearchError {}
