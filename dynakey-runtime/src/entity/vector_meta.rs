//! The description of a vector index (`#[vector_index(..)]`) in an
//! entity's metadata, with DynamoDB's limits: what `create_table`, the
//! exports and the typed search ([`crate::vector`]) read.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{IndexProjection, NativeAttr};
use crate::codec::Item;

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
    pub const MAX_TOP_K: u32 = crate::error::MAX_TOP_K;
    /// The most vector indexes of one table.
    pub const MAX_PER_TABLE: usize = 5;
    /// The most filter attributes (`INLINE_FILTER` elements) of one index
    /// (AWS's vector search reference: "up to 18 inline filters"; the
    /// derive refuses more, DYNA606).
    pub const MAX_FILTERS: usize = 18;
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

    /// The non-key attributes the index holds besides its search schema
    /// and the table's keys: `None` for ALL (every attribute), else the
    /// discriminator (so a search knows each result's type) and the
    /// projection's own. What `create_table` declares and what a write's
    /// cost sizes an entry by.
    ///
    /// ```
    /// use dynakey_runtime::entity::IndexProjection;
    /// use dynakey_runtime::vector::{Distance, VectorIndexMeta};
    /// static IX: VectorIndexMeta = VectorIndexMeta::__new(
    ///     "ByText", "v", "v", 2, Distance::Cosine, &[], &[], IndexProjection::Include(&["title"]),
    /// );
    /// assert_eq!(IX.non_key_attrs("entity"), Some(vec!["entity", "title"]));
    /// ```
    pub fn non_key_attrs(&self, discriminator_attr: &'static str) -> Option<Vec<&'static str>> {
        match self.projection {
            IndexProjection::All => None,
            IndexProjection::KeysOnly => Some(vec![discriminator_attr]),
            IndexProjection::Include(a) => Some(
                std::iter::once(discriminator_attr)
                    .chain(a.iter().copied())
                    .collect(),
            ),
        }
    }

    /// Whether `value` is a vector this index reads: a list of exactly its
    /// dimensions' numbers (any other value leaves the item out of it).
    ///
    /// ```
    /// use aws_sdk_dynamodb::types::AttributeValue::{L, N, S};
    /// use dynakey_runtime::entity::IndexProjection;
    /// use dynakey_runtime::vector::{Distance, VectorIndexMeta};
    /// static IX: VectorIndexMeta = VectorIndexMeta::__new(
    ///     "ByText", "v", "v", 2, Distance::Cosine, &[], &[], IndexProjection::All,
    /// );
    /// assert!(IX.reads(&L(vec![N("1".into()), N("-2.5".into())])));
    /// assert!(!IX.reads(&L(vec![N("1".into())])));
    /// assert!(!IX.reads(&L(vec![N("1".into()), S("2".into())])));
    /// ```
    pub fn reads(&self, value: &AttributeValue) -> bool {
        matches!(value, AttributeValue::L(l)
            if l.len() == self.dimensions as usize
                && l.iter().all(|e| matches!(e, AttributeValue::N(_))))
    }

    /// The item's entry in the index, while it has one: its vector, and its
    /// scope's value if the index has a scope (an item lacking either is
    /// not in the index, as DynamoDB leaves it out).
    pub fn entry<'a>(
        &self,
        item: &'a Item,
    ) -> Option<(&'a AttributeValue, Option<&'a AttributeValue>)> {
        let vector = item.get(self.vector_attr).filter(|v| self.reads(v))?;
        let scope = match self.scope() {
            Some(s) => Some(item.get(s.attr)?),
            None => None,
        };
        Some((vector, scope))
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
