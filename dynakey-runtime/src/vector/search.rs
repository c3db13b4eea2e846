//! The typed search of a vector index: [`VectorScope`] (made by the
//! generated `Entity::<index>(scope..)`), [`Db::search`] and [`Search`],
//! sent through the runtime's traced request path.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{limits, VectorIndexMeta, VectorSearchError, VectorSearchReason, VectorValue};
use crate::codec::Item;
use crate::db::Db;
use crate::entity::{Entity, EntityMeta};
use crate::error::{Error, KeyFormatError};
use crate::explain::Explain;
use crate::key::{KeyKind, NativeArg};
use crate::query::{Decoder, KeysOnly, Projected, Projection, ReadFrom, Typed};
use crate::send;
use aws_sdk_dynamodb::operation::search_vectors::builders::SearchVectorsInputBuilder;
use aws_sdk_dynamodb::operation::search_vectors::SearchVectorsInput;

/// The types a handle is of, holding none of them (`fn() -> T`: `Send`,
/// `Sync` and covariant whatever `T` is).
type Types<T> = PhantomData<fn() -> T>;

/// One result of a search: the item (decoded) and its score (see
/// [`Distance`](super::Distance) for which way is nearer).
#[derive(Debug, Clone, PartialEq)]
pub struct Scored<T> {
    /// The item, as the search's decoder reads it.
    pub item: T,
    /// DynamoDB's score of the item against the search vector.
    pub score: f64,
}

/// Where a search looks: one vector index of `E`, and the value of its
/// scope attribute when it has one. Made by the generated function of the
/// index (`Ticket::by_similar(tenant)`), which takes the scope in full; `V`
/// is the vector field's type, `K` whether the index holds whole items
/// ([`Global`](crate::Global)) or not ([`GlobalPartial`](crate::GlobalPartial)),
/// and `F` the index's filter handles.
pub struct VectorScope<E, V: ?Sized, K, F> {
    index: &'static VectorIndexMeta,
    scope: Option<AttributeValue>,
    _types: Types<(E, K, F, *const V)>,
}

impl<E, V: ?Sized, K, F> Clone for VectorScope<E, V, K, F> {
    fn clone(&self) -> Self {
        Self {
            index: self.index,
            scope: self.scope.clone(),
            _types: PhantomData,
        }
    }
}

impl<E, V: ?Sized, K, F> fmt::Debug for VectorScope<E, V, K, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VectorScope")
            .field("index", &self.index.name)
            .field("scope", &self.scope)
            .finish()
    }
}

impl<E: Entity, V: VectorValue + ?Sized, K: KeyKind, F> VectorScope<E, V, K, F> {
    /// The `n`th vector index of `E` (what the derive writes).
    #[doc(hidden)]
    pub fn __new(n: usize) -> Self {
        Self {
            index: &E::META.vectors[n],
            scope: None,
            _types: PhantomData,
        }
    }

    /// The scope's value (what the derive writes).
    #[doc(hidden)]
    pub fn __scoped<T: ?Sized, A: NativeArg<T> + ?Sized>(
        mut self,
        value: &A,
    ) -> Result<Self, KeyFormatError> {
        let attr = self.index.scope().map_or("", |a| a.field);
        let v = value.native_value().map_err(|e| {
            crate::key::native::native_error(E::META.type_name, self.index.name, attr, e)
        })?;
        self.scope = Some(v);
        Ok(self)
    }

    /// The index searched.
    pub fn index(&self) -> &'static VectorIndexMeta {
        self.index
    }
}

/// A handle on one filter attribute of a vector index, of type `T`, for
/// the index whose handles are `F` (`f.status` in `.filter(|f| ..)`).
pub struct VectorFilter<F, T: ?Sized> {
    attr: &'static str,
    _types: Types<(F, *const T)>,
}

impl<F, T: ?Sized> Clone for VectorFilter<F, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F, T: ?Sized> Copy for VectorFilter<F, T> {}

impl<F, T: ?Sized> fmt::Debug for VectorFilter<F, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VectorFilter({})", self.attr)
    }
}

impl<F, T: ?Sized> VectorFilter<F, T> {
    /// The handle of attribute `attr` (what the derive writes).
    #[doc(hidden)]
    pub const fn __new(attr: &'static str) -> Self {
        Self {
            attr,
            _types: PhantomData,
        }
    }

    /// The attribute.
    pub fn attr(&self) -> &'static str {
        self.attr
    }

    /// Results whose attribute equals `value`: the one comparison both
    /// DynamoDB and the embedded engine take on a filter attribute.
    pub fn eq<A: NativeArg<T> + ?Sized>(&self, value: &A) -> VectorCond<F> {
        let pair = value
            .native_value()
            .map(|v| (self.attr, v))
            .map_err(|e| (self.attr, e));
        VectorCond {
            pairs: vec![pair],
            _types: PhantomData,
        }
    }
}

/// Equalities on filter attributes of one index, joined by AND.
pub struct VectorCond<F> {
    #[allow(clippy::type_complexity)]
    pairs: Vec<Result<(&'static str, AttributeValue), (&'static str, crate::key::KeyPartError)>>,
    _types: PhantomData<fn() -> F>,
}

impl<F> fmt::Debug for VectorCond<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.pairs.iter()).finish()
    }
}

impl<F> VectorCond<F> {
    /// Both conditions.
    #[must_use]
    pub fn and(mut self, other: VectorCond<F>) -> Self {
        self.pairs.extend(other.pairs);
        self
    }
}

/// A vector search, built by [`Db::search`]; `.await` (or
/// [`send`](Search::send)) runs it.
#[must_use = "a search does nothing until awaited"]
pub struct Search<E, K, F, D> {
    db: Db,
    index: &'static VectorIndexMeta,
    scope: Option<AttributeValue>,
    vector: Vec<f32>,
    top_k: u32,
    filter: Option<VectorCond<F>>,
    decoder: D,
    _types: PhantomData<fn() -> (E, K)>,
}

impl<E, K, F, D: fmt::Debug> fmt::Debug for Search<E, K, F, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Search")
            .field("table", &self.db.table)
            .field("index", &self.index.name)
            .field("scope", &self.scope)
            .field("top_k", &self.top_k)
            .field("filter", &self.filter)
            .field("decoder", &self.decoder)
            .finish_non_exhaustive()
    }
}

/// The number of results a search asks for unless `top_k` says otherwise.
pub const DEFAULT_TOP_K: u32 = 10;

impl Db {
    /// Searches a vector index of `E` for the items nearest `vector`,
    /// within the scope `scope` (made by the generated function of the
    /// index, e.g. `Ticket::by_similar(tenant)`). Asks for
    /// [`DEFAULT_TOP_K`] results unless [`Search::top_k`] says otherwise.
    /// See [`crate::vector`].
    pub fn search<E: Entity, V: VectorValue + ?Sized, K: KeyKind, F>(
        &self,
        scope: VectorScope<E, V, K, F>,
        vector: &V,
    ) -> Search<E, K, F, Typed<E>> {
        Search {
            db: self.clone(),
            index: scope.index,
            scope: scope.scope,
            vector: vector.elements().to_vec(),
            top_k: DEFAULT_TOP_K,
            filter: None,
            decoder: Typed::default(),
            _types: PhantomData,
        }
    }
}

impl<E: Entity, K: KeyKind, F, D: Decoder> Search<E, K, F, D> {
    /// At most `n` results, 1–100 (another value is refused before
    /// sending: [`VectorSearchReason::TopK`]).
    pub fn top_k(mut self, n: u32) -> Self {
        self.top_k = n;
        self
    }

    /// Only results whose filter attributes equal the given values:
    /// `.filter(|f| f.status.eq("open").and(f.price.eq(&10)))`. Another
    /// call adds to the conditions.
    pub fn filter(mut self, cond: impl FnOnce(&F) -> VectorCond<F>) -> Self
    where
        F: Default,
    {
        let c = cond(&F::default());
        self.filter = Some(match self.filter.take() {
            Some(have) => have.and(c),
            None => c,
        });
        self
    }

    fn with_decoder<D2: Decoder>(self, decoder: D2) -> Search<E, K, F, D2> {
        Search {
            db: self.db,
            index: self.index,
            scope: self.scope,
            vector: self.vector,
            top_k: self.top_k,
            filter: self.filter,
            decoder,
            _types: PhantomData,
        }
    }

    /// The results as the projection `P` (what an index that does not
    /// hold whole items is read as).
    pub fn project<P: Projection<Entity = E>>(self) -> Search<E, K, F, Projected<P>> {
        self.with_decoder(Projected::default())
    }

    /// The results' table keys.
    pub fn keys_only(self) -> Search<E, K, F, KeysOnly<E>> {
        self.with_decoder(KeysOnly::default())
    }

    fn refused(&self, reason: VectorSearchReason) -> Error {
        Error::VectorSearch(VectorSearchError {
            entity: E::META.type_name,
            index: self.index.name,
            reason,
        })
    }

    /// The request, or why it is refused before sending.
    fn request(
        &self,
    ) -> Result<
        aws_sdk_dynamodb::operation::search_vectors::builders::SearchVectorsInputBuilder,
        Error,
    > {
        let ix = self.index;
        if !(1..=limits::MAX_TOP_K).contains(&self.top_k) {
            return Err(self.refused(VectorSearchReason::TopK { value: self.top_k }));
        }
        if self.vector.len() != ix.dimensions as usize {
            return Err(self.refused(VectorSearchReason::Dimensions {
                expected: ix.dimensions,
                found: self.vector.len(),
            }));
        }
        let mut search_vector = Vec::with_capacity(self.vector.len());
        for (position, v) in self.vector.iter().enumerate() {
            if !v.is_finite() {
                return Err(self.refused(VectorSearchReason::NotFinite {
                    position,
                    value: *v,
                }));
            }
            search_vector.push(AttributeValue::N(v.to_string()));
        }
        // The scope first, then the filters: `#sN = :sN` joined by AND.
        let mut pairs: Vec<(&'static str, AttributeValue)> = Vec::new();
        if let (Some(a), Some(v)) = (ix.scope(), &self.scope) {
            pairs.push((a.attr, v.clone()));
        }
        for p in self.filter.iter().flat_map(|c| &c.pairs) {
            let (attr, value) = match p {
                Ok(pair) => pair.clone(),
                Err((attr, e)) => {
                    let field = ix
                        .filters
                        .iter()
                        .find(|f| f.attr == *attr)
                        .map_or(*attr, |f| f.field);
                    return Err(crate::key::native::native_error(
                        E::META.type_name,
                        ix.name,
                        field,
                        e.clone(),
                    )
                    .into());
                }
            };
            if pairs.iter().any(|(a, _)| *a == attr) {
                return Err(self.refused(VectorSearchReason::FilterTwice { attr }));
            }
            pairs.push((attr, value));
        }
        let mut req = aws_sdk_dynamodb::operation::search_vectors::SearchVectorsInput::builder()
            .table_name(&*self.db.table)
            .index_name(ix.name)
            .set_search_vector(Some(search_vector))
            .top_k(self.top_k as i32)
            .return_consumed_capacity(self.db.capacity.clone());
        let mut names = HashMap::new();
        if !pairs.is_empty() {
            let mut values = HashMap::new();
            let mut text = Vec::new();
            for (i, (attr, value)) in pairs.into_iter().enumerate() {
                names.insert(format!("#s{i}"), attr.to_owned());
                values.insert(format!(":s{i}"), value);
                text.push(format!("#s{i} = :s{i}"));
            }
            req = req
                .search_condition_expression(text.join(" AND "))
                .set_expression_attribute_values(Some(values));
        }
        // A search leaves the vector out of its results unless a
        // ProjectionExpression names it: ask for every attribute the
        // decoder reads (for the entity, all of its own).
        let attrs = self
            .decoder
            .projection(E::META, None)
            .unwrap_or_else(|| entity_attrs(E::META));
        let mut text = Vec::with_capacity(attrs.len());
        for (i, attr) in attrs.iter().enumerate() {
            names.insert(format!("#p{i}"), (*attr).to_owned());
            text.push(format!("#p{i}"));
        }
        Ok(req
            .projection_expression(text.join(", "))
            .set_expression_attribute_names(Some(names)))
    }

    /// The `SearchVectors` request the search sends, built without sending
    /// it (or why it would be refused before sending).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TICKET")]
    /// # #[pk("TENANT#<tenant>")]
    /// # #[sk("TICKET#<id>")]
    /// # #[vector_index("BySimilar", vector = embedding, dimensions = 3,
    /// #     distance = "COSINE", scope(tenant), filter(status))]
    /// # struct Ticket { tenant: String, id: String, status: String, embedding: Option<[f32; 3]> }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("tickets");
    /// let s = db
    ///     .search(Ticket::by_similar("acme").unwrap(), &[1.0, 0.0, 0.0])
    ///     .top_k(5)
    ///     .filter(|f| f.status.eq("open"));
    /// let input = s.to_input().unwrap();
    /// assert_eq!((input.index_name(), input.top_k()), (Some("BySimilar"), Some(5)));
    /// assert_eq!(input.search_condition_expression(), Some("#s0 = :s0 AND #s1 = :s1"));
    /// // Refused before sending, as `.await` would refuse it.
    /// assert!(db.search(Ticket::by_similar("acme").unwrap(), &[0.0; 3]).top_k(0).to_input().is_err());
    /// ```
    pub fn to_input(&self) -> Result<SearchVectorsInput, Error> {
        self.request()?.build().map_err(crate::write::build_err)
    }

    /// What the search sends, to read: its index, its condition with the
    /// scope and filter values in place, `TopK` and the vector's length,
    /// without sending it (see [`Explain`]).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TICKET")]
    /// # #[pk("TENANT#<tenant>")]
    /// # #[sk("TICKET#<id>")]
    /// # #[vector_index("BySimilar", vector = embedding, dimensions = 3,
    /// #     distance = "COSINE", scope(tenant), filter(status))]
    /// # struct Ticket { tenant: String, id: String, status: String, embedding: Option<[f32; 3]> }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("tickets");
    /// let x = db
    ///     .search(Ticket::by_similar("acme").unwrap(), &[1.0, 0.0, 0.0])
    ///     .filter(|f| f.status.eq("open"))
    ///     .explain()
    ///     .unwrap();
    /// assert_eq!((x.operation.as_str(), x.index.as_deref()), ("SearchVectors", Some("BySimilar")));
    /// let text = x.to_string();
    /// assert!(text.contains("tenant = \"acme\"") && text.contains("status = \"open\""), "{text}");
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        Ok(Explain::from(&self.to_input()?))
    }

    /// Runs the search: the results nearest first, each decoded by the
    /// search's decoder (items of other entities sharing the index are
    /// left out, so a search may return fewer than `top_k`).
    pub async fn send(self) -> Result<Vec<Scored<D::Out>>, Error>
    where
        D: ReadFrom<K>,
    {
        let req = self.request()?;
        let db = &self.db;
        let to = send::To::db(db).entity(E::META.type_name);
        let span = send::open(&to, &req);
        let out = match send::call(&span, &to, req).await {
            Ok(out) => out,
            Err(e) => return span.end(Err(send::error_of::<SearchVectorsInputBuilder>(&to, e))),
        };
        let mut results = Vec::new();
        for r in out.search_results() {
            let Some(item) = r.item() else { continue };
            if !same_entity(E::META, item) {
                continue;
            }
            match self.decoder.decode(item) {
                Ok(Some(x)) => results.push(Scored {
                    item: x,
                    score: r.score(),
                }),
                Ok(None) => {}
                Err(e) => return span.end(Err(e)),
            }
        }
        let n = i32::try_from(results.len()).unwrap_or(i32::MAX);
        span.counts(
            n,
            i32::try_from(out.search_results().len()).unwrap_or(i32::MAX),
        );
        Ok(results)
    }
}

/// Every attribute an entity's items hold that decoding reads: the table
/// keys, the discriminator and each stored field's.
fn entity_attrs(meta: &EntityMeta) -> Vec<&'static str> {
    let mut v = vec![meta.pk.attr];
    v.extend(meta.sk.as_ref().map(|k| k.attr));
    v.push(meta.discriminator_attr);
    for f in meta.fields {
        if !v.contains(&f.attr) {
            v.push(f.attr);
        }
    }
    v
}

/// Whether `item` is of entity `meta` (an item without the discriminator,
/// which an index projecting less may leave out, counts as one).
fn same_entity(meta: &EntityMeta, item: &Item) -> bool {
    match item.get(meta.discriminator_attr) {
        Some(AttributeValue::S(d)) => d == meta.discriminator,
        _ => true,
    }
}

impl<E: Entity, K: KeyKind, F: 'static, D: ReadFrom<K>> std::future::IntoFuture
    for Search<E, K, F, D>
{
    type Output = Result<Vec<Scored<D::Out>>, Error>;
    type IntoFuture = crate::ops::BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
