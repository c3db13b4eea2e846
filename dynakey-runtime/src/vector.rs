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

mod error;
mod search;

pub use error::{VectorSearchError, VectorSearchReason};
pub use search::{Scored, Search, VectorCond, VectorFilter, VectorScope};

use crate::entity::{IndexProjection, NativeAttr};

/// How a vector index measures nearness (`DistanceFunction`).
///
/// ```
/// use dynakey_runtime::vector::Distance;
/// assert_eq!(Distance::parse("DOT_PRODUCT"), Some(Distance::DotProduct));
/// assert_eq!(Distance::Cosine.as_str(), "COSINE");
/// assert!(Distance::DotProduct.higher_is_nearer());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Distance {
    /// Cosine distance (`1 - cos`), 0 for the same direction.
    Cosine,
    /// Euclidean distance.
    Euclidean,
    /// Dot product, a similarity: higher is nearer.
    DotProduct,
}

impl Distance {
    /// Every distance function DynamoDB has.
    pub const ALL: [Distance; 3] = [Distance::Cosine, Distance::Euclidean, Distance::DotProduct];

    /// The API's name: `COSINE`, `EUCLIDEAN`, `DOT_PRODUCT`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Distance::Cosine => "COSINE",
            Distance::Euclidean => "EUCLIDEAN",
            Distance::DotProduct => "DOT_PRODUCT",
        }
    }

    /// The function of an API name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == name)
    }

    /// Whether a higher score is nearer (a similarity, not a distance).
    pub fn higher_is_nearer(self) -> bool {
        self == Distance::DotProduct
    }

    pub(crate) fn sdk(self) -> aws_sdk_dynamodb::types::VectorDistanceFunction {
        self.as_str().into()
    }
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// DynamoDB's limits on vector indexes: dimensions 1–4,096 (cfn-lint's
/// schema and the engine's captured `CreateTable` answer), `TopK` 1–100
/// (`SearchVectors`' captured answer for 101), five per table (the engine's
/// captured `CreateTable` answer).
pub mod limits {
    /// The fewest dimensions.
    pub const MIN_DIMENSIONS: u32 = 1;
    /// The most dimensions.
    pub const MAX_DIMENSIONS: u32 = 4096;
    /// The most results of one search.
    pub const MAX_TOP_K: u32 = 100;
    /// The most vector indexes of one table.
    pub const MAX_PER_TABLE: usize = 5;
}

/// One vector index of an entity, as the derive describes it
/// (`EntityMeta::vectors`).
///
/// ```
/// use dynakey_runtime::entity::IndexProjection;
/// use dynakey_runtime::vector::{Distance, VectorIndexMeta};
/// use dynakey_runtime::{KeyAttrType::*, NativeAttr};
/// static SCOPE: [NativeAttr; 1] = [NativeAttr::__new("tenant", "tenant", S)];
/// static FILTERS: [NativeAttr; 1] = [NativeAttr::__new("status", "status", S)];
/// static IX: VectorIndexMeta = VectorIndexMeta::__new(
///     "BySimilar", "embedding", "embedding", 768, Distance::Cosine, &SCOPE, &FILTERS,
///     IndexProjection::All,
/// );
/// assert_eq!(IX.scope().unwrap().attr, "tenant");
/// assert_eq!(IX.schema_attrs().collect::<Vec<_>>(), [("tenant", S, true), ("status", S, false)]);
/// ```
#[derive(Debug)]
pub struct VectorIndexMeta {
    /// The index name.
    pub name: &'static str,
    /// The attribute holding the vector.
    pub vector_attr: &'static str,
    /// The field holding the vector.
    pub vector_field: &'static str,
    /// The number of elements of every vector.
    pub dimensions: u32,
    /// How nearness is measured.
    pub distance: Distance,
    /// The scope (`HASH` element), none or one attribute.
    pub scope: &'static [NativeAttr],
    /// The filter attributes (`INLINE_FILTER` elements).
    pub filters: &'static [NativeAttr],
    /// What the index holds of each item.
    pub projection: IndexProjection,
}

impl VectorIndexMeta {
    /// What the derive writes.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        name: &'static str,
        vector_attr: &'static str,
        vector_field: &'static str,
        dimensions: u32,
        distance: Distance,
        scope: &'static [NativeAttr],
        filters: &'static [NativeAttr],
        projection: IndexProjection,
    ) -> Self {
        VectorIndexMeta {
            name,
            vector_attr,
            vector_field,
            dimensions,
            distance,
            scope,
            filters,
            projection,
        }
    }

    /// The scope attribute, if the index has one.
    pub fn scope(&self) -> Option<&NativeAttr> {
        self.scope.first()
    }

    /// The search schema: each attribute with its type, and whether it is
    /// the scope (`HASH`) rather than a filter (`INLINE_FILTER`).
    pub fn schema_attrs(
        &self,
    ) -> impl Iterator<Item = (&'static str, crate::KeyAttrType, bool)> + '_ {
        let scope = self.scope.iter().map(|a| (a.attr, a.ty, true));
        scope.chain(self.filters.iter().map(|a| (a.attr, a.ty, false)))
    }
}

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
