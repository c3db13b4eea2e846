//! Vector indexes: DynamoDB's third kind of index (`VectorIndexes` on
//! `CreateTable`, searched with `SearchVectors`), declared on the entity and
//! searched through a typed call.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! #[dynamo(crate = "dynakey_runtime", entity = "TICKET")]
//! #[pk("TENANT#<tenant>")]
//! #[sk("TICKET#<id>")]
//! #[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "COSINE",
//!                scope(tenant), filter(status))]
//! struct Ticket { tenant: String, id: String, status: String, embedding: Option<[f32; 3]> }
//!
//! use dynakey_runtime::Entity;
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("tickets");
//! db.create_table(&[Ticket::META]).await.unwrap(); // with the vector index
//! let t = |id: &str, status: &str, v| Ticket {
//!     tenant: "acme".into(), id: id.into(), status: status.into(), embedding: Some(v),
//! };
//! db.put(&t("1", "open", [0.9, 0.1, 0.0])).await.unwrap();
//! db.put(&t("2", "closed", [0.8, 0.2, 0.0])).await.unwrap();
//! let hits = db
//!     .search(Ticket::by_similar("acme").unwrap(), &[1.0, 0.0, 0.0])
//!     .top_k(5)
//!     .filter(|f| f.status.eq("open"))
//!     .await
//!     .unwrap();
//! assert_eq!(hits.len(), 1);
//! assert_eq!(hits[0].item.id, "1");
//! assert!(hits[0].score < 0.1); // COSINE: a distance, near 0
//! # });
//! ```
//!
//! A search vector of another length than the field's array does not
//! compile:
//!
//! ```compile_fail
//! # async fn f(db: dynakey_runtime::Db) {
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "T")]
//! # #[pk("T#<id>")]
//! # #[vector_index("ByV", vector = v, dimensions = 3, distance = "COSINE")]
//! # struct T { id: String, v: [f32; 3] }
//! db.search(T::by_v(), &[1.0, 0.0]).await;
//! # }
//! ```
//!
//! What the derive checks (DYNA6xx) and what the search holds by type:
//!
//! - the vector field is `[f32; N]` (its length is the index's dimensions,
//!   so a search vector of another length does not compile) or `Vec<f32>`
//!   (the length is checked before sending), or an `Option` of either: an
//!   item without a vector is not in the index;
//! - the scope (`scope(field)`, DynamoDB's `HASH` search-schema element, at
//!   most one) is given in full by the generated function's parameters;
//! - filters (`filter(a, b)`, `INLINE_FILTER` elements) are reached through
//!   the index's filter handles, which have only equality: the comparison
//!   DynamoDB and the embedded engine both accept there (one per attribute,
//!   joined by AND);
//! - `top_k` is 1–100 and every element finite, refused with
//!   [`Error::VectorSearch`](crate::Error::VectorSearch) before sending;
//! - results are decoded as the entity only when the index holds whole
//!   items (`projection` `ALL`, the default); otherwise `.project::<P>()`
//!   or `.keys_only()` (DYNA402, as for global indexes).
//!
//! Results are nearest first, each with its [`Scored::score`] (a distance
//! for `COSINE` and `EUCLIDEAN`, lower is nearer; a similarity for
//! `DOT_PRODUCT`, higher is nearer). DynamoDB's search is approximate: do
//! not rely on the exact list nor on the order of equal scores.

mod search;

pub use crate::entity::{limits, Distance, VectorIndexMeta};
pub use crate::error::{VectorSearchError, VectorSearchReason};
pub use search::{Scored, Search, VectorCond, VectorFilter, VectorScope, DEFAULT_TOP_K};

/// A vector field's type: `[f32; N]` (its length known to the type) or
/// `Vec<f32>` (checked at run time), each as a slice of its elements.
///
/// ```
/// use dynakey_runtime::vector::VectorValue;
/// assert_eq!(<[f32; 4] as VectorValue>::LEN, Some(4));
/// assert_eq!(<Vec<f32> as VectorValue>::LEN, None);
/// assert_eq!(vec![1.0f32, 2.0].elements(), [1.0, 2.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA602: `{Self}` cannot hold a vector of a vector index",
    label = "not a vector type",
    note = "a vector field is `[f32; N]` with N the index's dimensions, or `Vec<f32>` (its length checked at run time), or an `Option` of either for an item that may have no vector"
)]
pub trait VectorValue: Send + Sync + 'static {
    /// The number of elements when the type fixes it.
    const LEN: Option<usize>;
    /// The elements.
    fn elements(&self) -> &[f32];
}

impl<const N: usize> VectorValue for [f32; N] {
    const LEN: Option<usize> = Some(N);
    fn elements(&self) -> &[f32] {
        self
    }
}

impl VectorValue for Vec<f32> {
    const LEN: Option<usize> = None;
    fn elements(&self) -> &[f32] {
        self
    }
}
