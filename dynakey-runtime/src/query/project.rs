//! Typed partial reads: a `#[derive(DynamoProjection)]` type holds some
//! fields of an entity, checked against it at compile time, and a read
//! asks only for their attributes (`ProjectionExpression`).

use std::marker::PhantomData;

use super::decode::key_attrs;
use super::{Decoder, Query, ReadsThrough, Typed};
use crate::codec::{DecodeError, Item};
use crate::entity::{Entity, EntityMeta};
use crate::error::Error;
use crate::expr::Condition;
use crate::key::KeyKind;
use crate::update::Field;

/// Some fields of an entity, implemented by `#[derive(DynamoProjection)]`
/// with `#[dynamo(of = Entity)]`: each field names a field of the entity,
/// of the same type (or an `Option` of it); another name or type does not
/// compile (DYNA119).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::{DynamoEntity, DynamoProjection};
/// #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
/// #[pk("OWNER#<owner>")]
/// #[sk("TASK#<id>")]
/// struct Task { owner: String, id: String, #[dynamo(rename = "t")] title: String, body: String }
///
/// #[derive(DynamoProjection, Debug, PartialEq)]
/// #[dynamo(crate = "dynakey_runtime", of = Task)]
/// struct TaskTitle { id: String, title: String }
///
/// use dynakey_runtime::{query::Projection, Entity};
/// assert_eq!(TaskTitle::attrs(), ["id", "t"]);
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("tasks");
/// db.create_table(&[Task::META]).await.unwrap();
/// db.put(&Task { owner: "ann".into(), id: "1".into(), title: "Hi".into(), body: "long".into() }).await.unwrap();
/// let titles = db.query(Task::pk("ann").unwrap()).project::<TaskTitle>().all().await.unwrap();
/// assert_eq!(titles, [TaskTitle { id: "1".into(), title: "Hi".into() }]);
/// # });
/// ```
pub trait Projection: Sized + Send + Sync + 'static {
    /// The entity whose fields these are.
    type Entity: Entity;
    /// The attributes read, in field order.
    fn attrs() -> Vec<&'static str>;
    /// Reads the fields from an item (or a partial one).
    fn from_item(item: &Item) -> Result<Self, DecodeError>;
}

/// A projection field of type `Self` reads the entity field whose typed
/// handle is `H`: the generated check of DYNA119, for a handle
/// `Field<E, T>` only `T` itself.
///
/// ```
/// use dynakey_runtime::query::SameField;
/// use dynakey_runtime::update::Field;
/// let done: Field<(), bool> = Field::new("done");
/// // A projection's `bool` is the entity's `bool` field.
/// assert_eq!(<bool as SameField<_>>::attr(&done), "done");
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA119: this projection field holds `{Self}`, but the entity's field is another type (its handle is `{H}`)",
    label = "not the entity field's type",
    note = "give the projection field the entity field's type, or an Option of it"
)]
pub trait SameField<H> {
    /// The attribute name.
    fn attr(handle: &H) -> &'static str;
}

// Implemented for the value type (a type parameter): rustc then lists no
// impl under DYNA119, as it would for an impl on `Field` ("but trait
// `SameField<bool>` is implemented for it").
impl<E, T> SameField<Field<E, T>> for T {
    fn attr(handle: &Field<E, T>) -> &'static str {
        handle.name()
    }
}

/// A second impl, so that rustc does not take `H` from the one impl there
/// would be (it would, and then report a type mismatch instead of DYNA119).
#[doc(hidden)]
pub enum NoHandle {}
impl<T> SameField<NoHandle> for T {
    fn attr(handle: &NoHandle) -> &'static str {
        match *handle {}
    }
}

/// Reads items as the projection `P` (see [`Query::project`]).
pub struct Projected<P>(PhantomData<fn() -> P>);

super::decode::marker_impls!(Projected);

impl<P: Projection> Decoder for Projected<P> {
    type Out = P;
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition> {
        Some(Condition::attr(meta.discriminator_attr).eq(meta.discriminator))
    }
    fn projection(
        &self,
        meta: &'static EntityMeta,
        index: Option<&str>,
    ) -> Option<Vec<&'static str>> {
        let mut v = key_attrs(meta, index);
        for a in P::attrs() {
            if !v.contains(&a) {
                v.push(a);
            }
        }
        Some(v)
    }
    fn decode(&self, item: &Item) -> Result<Option<P>, Error> {
        P::from_item(item).map(Some).map_err(Error::from)
    }
}

/// A projection reads through any index; a field the index does not hold
/// reads as absent (`None` for an `Option` field, else a decode error).
impl<P: Projection, K: KeyKind> ReadsThrough<K> for Projected<P> {}

impl<E: Entity, K: KeyKind> Query<E, K, Typed<E>> {
    /// Read only the fields of the projection `P` (a
    /// `ProjectionExpression` of its attributes and the keys).
    pub fn project<P: Projection<Entity = E>>(self) -> Query<E, K, Projected<P>> {
        self.with_decoder(Projected::default())
    }
}
