//! Typed updates and typed attribute handles, the runtime half of what
//! `#[derive(DynamoEntity)]` generates as `E::update(..)`, `E::upsert(..)`
//! and `E::attrs()`.
//!
//! An update that sets an input of an index key must set the key's other
//! inputs too, or DynamoDB would keep a stale index key: the derive tracks
//! which inputs an update sets with the marker types [`Set`], [`Unset`] and
//! [`Removed`], folds the states of each key's inputs with [`Fold`] (a
//! constant number of impls, whatever the number of inputs), and refuses
//! the incomplete updates at compile time (DYNA226). An upsert must also set
//! every field a new item needs (DYNA228).
//!
//! ```
//! use dynakey_runtime::update::{Fold, Nil, Patch, Removed, Set, Unset, UpdateMode, Upsert};
//! fn name<F: Fold>() -> &'static str {
//!     std::any::type_name::<F>()
//! }
//! // A key of two inputs, the first set and the second untouched: `Sets`,
//! // which the derive refuses unless the second comes with the table key.
//! type Half = <<Nil as Fold>::Then<Set> as Fold>::Then<Unset>;
//! assert!(name::<Half>().ends_with("Sets"));
//! // An input removed removes the key, whatever the others: `Rem`.
//! type Gone = <<Nil as Fold>::Then<Removed> as Fold>::Then<Unset>;
//! assert!(name::<Gone>().ends_with("Rem"));
//! assert!(<Upsert as UpdateMode>::UPSERT && !<Patch as UpdateMode>::UPSERT);
//! ```

use std::marker::PhantomData;

mod core;
#[doc(hidden)]
pub use self::core::UpdateCore;

use crate::codec::Attr;
use crate::entity::Entity;
use crate::error::Error;
use crate::expr::{CmpOp, Condition, Update};
use crate::key::Key;

/// Typestate: the update does not touch this field (see the module docs).
#[derive(Debug, Clone, Copy)]
pub enum Unset {}
/// Typestate: the update sets this field to a value (see the module docs).
#[derive(Debug, Clone, Copy)]
pub enum Set {}
/// Typestate: the update removes this (optional) field, so every index key
/// it feeds is removed and their other inputs are not needed.
#[derive(Debug, Clone, Copy)]
pub enum Removed {}

/// Mode of a typed update: [`Patch`] changes an existing item (and fails
/// with [`Error::ConditionFailed`] when there is none), [`Upsert`] creates
/// the item when it is missing.
pub trait UpdateMode: Send + 'static {
    /// Whether a missing item is created.
    const UPSERT: bool;
    /// The state of a required field after a setter that a patch may
    /// apply conditionally: unchanged in a [`Patch`] (so `if c { u =
    /// u.set_title(t) }` keeps `u`'s type), [`Set`] in an [`Upsert`], which
    /// must set it (DYNA228).
    type Mark<S>;
}

/// [`UpdateMode::Mark`] of mode `M`.
pub type Mark<M, S> = <M as UpdateMode>::Mark<S>;

/// `E::update(..)`: change an existing item only.
#[derive(Debug, Clone, Copy)]
pub enum Patch {}
/// `E::upsert(..)`: create the item when it is missing, else change it.
#[derive(Debug, Clone, Copy)]
pub enum Upsert {}

impl UpdateMode for Patch {
    const UPSERT: bool = false;
    type Mark<S> = S;
}
impl UpdateMode for Upsert {
    const UPSERT: bool = true;
    type Mark<S> = Set;
}

/// The states of a key's inputs folded so far: none set.
#[derive(Debug, Clone, Copy)]
pub enum Nil {}
/// Folded: some input set, none removed.
#[derive(Debug, Clone, Copy)]
pub enum Sets {}
/// Folded: some input removed (the key is removed whatever the others).
#[derive(Debug, Clone, Copy)]
pub enum Rem {}

/// A typestate of one field ([`Unset`], [`Set`], [`Removed`]): where it
/// takes the fold of a key's input states.
pub trait State {
    /// The fold after this state, from [`Nil`].
    type AfterNil: Fold;
    /// The fold after this state, from [`Sets`].
    type AfterSets: Fold;
}

/// The fold over a key's input states: `<<Nil as Fold>::Then<S0> as
/// Fold>::Then<S1>…`, well-formed for any parameters bounded by [`State`].
pub trait Fold {
    /// The fold after one more input in state `S`.
    type Then<S: State>: Fold;
}

impl Fold for Nil {
    type Then<S: State> = S::AfterNil;
}
impl Fold for Sets {
    type Then<S: State> = S::AfterSets;
}
impl Fold for Rem {
    type Then<S: State> = Rem;
}

/// The fold of a tuple of input states, `<Nil as Fold>::Then<A>` and so on
/// for each: what a key's DYNA226 bounds read, written once per key.
pub trait Folded {
    /// The fold.
    type Out: Fold;
}

macro_rules! folded {
    ($($s:ident)*) => {
        impl<$($s: State),*> Folded for ($($s,)*) {
            type Out = folded!(@fold Nil; $($s)*);
        }
    };
    (@fold $acc:ty;) => { $acc };
    (@fold $acc:ty; $head:ident $($rest:ident)*) => {
        folded!(@fold <$acc as Fold>::Then<$head>; $($rest)*)
    };
}

folded!(A);
folded!(A B);
folded!(A B C);
folded!(A B C D);
folded!(A B C D E);
folded!(A B C D E F);
folded!(A B C D E F G);
folded!(A B C D E F G H);
folded!(A B C D E F G H I);
folded!(A B C D E F G H I J);
folded!(A B C D E F G H I J K);
folded!(A B C D E F G H I J K L);
folded!(A B C D E F G H I J K L M);
folded!(A B C D E F G H I J K L M N);
folded!(A B C D E F G H I J K L M N O);
folded!(A B C D E F G H I J K L M N O P);

impl State for Unset {
    type AfterNil = Nil;
    type AfterSets = Sets;
}
impl State for Set {
    type AfterNil = Sets;
    type AfterSets = Sets;
}
impl State for Removed {
    type AfterNil = Rem;
    type AfterSets = Rem;
}

/// An input of an index key in state `Self`, where `Acc` is the fold of
/// the key's input states: fine when it is set or removed, or untouched
/// while no input of the key is set (`Nil`) or one is removed (`Rem`).
///
/// Each generated DYNA226 trait has one blanket impl over this, so the
/// rules are written once and the derive emits one impl per input. `Tag`
/// is the generated trait (as `dyn Trait<Acc>`): two inputs missing from
/// one update are two distinct obligations, so both are reported.
pub trait InputComplete<Acc, Tag: ?Sized> {}
impl<Acc, Tag: ?Sized> InputComplete<Acc, Tag> for Set {}
impl<Acc, Tag: ?Sized> InputComplete<Acc, Tag> for Removed {}
impl<Tag: ?Sized> InputComplete<Nil, Tag> for Unset {}
impl<Tag: ?Sized> InputComplete<Rem, Tag> for Unset {}

/// The inputs of one index key in the states `Self` (a tuple, in the
/// key's order): complete when each input is set or removed, or when none
/// is set (DYNA226's rule). Each generated DYNA226 trait has one blanket
/// impl over this; `Tag` is that trait.
pub trait KeyComplete<Tag: ?Sized> {}

impl<Tag: ?Sized, T: Folded + CompleteUnder<<T as Folded>::Out, Tag>> KeyComplete<Tag> for T {}

/// Each state of the tuple `Self` is an [`InputComplete`] input under the
/// fold `Acc` of them all.
pub trait CompleteUnder<Acc, Tag: ?Sized> {}

/// Every field of the tuple `Self` that a new item needs is set, or the
/// update is a [`Patch`] (DYNA228's rule, for the generated trait `Tag`).
pub trait AllRequired<M, Tag: ?Sized> {}

macro_rules! tuples {
    ($($s:ident)*) => {
        impl<Accum, Tag: ?Sized, $($s: InputComplete<Accum, Tag>),*> CompleteUnder<Accum, Tag> for ($($s,)*) {}
        impl<Mode, Tag: ?Sized, $($s: RequiredSet<Mode, Tag>),*> AllRequired<Mode, Tag> for ($($s,)*) {}
    };
}

tuples!(A);
tuples!(A B);
tuples!(A B C);
tuples!(A B C D);
tuples!(A B C D E);
tuples!(A B C D E F);
tuples!(A B C D E F G);
tuples!(A B C D E F G H);
tuples!(A B C D E F G H I);
tuples!(A B C D E F G H I J);
tuples!(A B C D E F G H I J K);
tuples!(A B C D E F G H I J K L);
tuples!(A B C D E F G H I J K L M);
tuples!(A B C D E F G H I J K L M N);
tuples!(A B C D E F G H I J K L M N O);
tuples!(A B C D E F G H I J K L M N O P);

/// A field a new item needs, in state `Self`, under update mode `M`: fine
/// when it is set, or untouched by a [`Patch`] (DYNA228's rule, written
/// once for the derive's blanket impls; `Tag` as for [`InputComplete`]).
pub trait RequiredSet<M, Tag: ?Sized> {}
impl<M, Tag: ?Sized> RequiredSet<M, Tag> for Set {}
impl<Tag: ?Sized> RequiredSet<Patch, Tag> for Unset {}

/// What a typed update's setter of a table-key field takes: nothing, so
/// such a call does not compile (DYNA227). A key is the item's identity:
/// an update cannot move an item.
#[diagnostic::on_unimplemented(
    message = "DYNA227: an update cannot change a table-key field: the key is the item's identity",
    label = "this sets a field of the table key",
    note = "delete the item and put it under its new key in one transaction: `db.move_item(old_key, &new_item)`"
)]
pub trait TableKeyField {}

/// A value that becomes a field of type `T`: `T` itself, the inner value of
/// an `Option`, and `&str` for strings.
///
/// ```
/// use dynakey_runtime::update::IntoField;
/// let s: String = "pro".into_field();
/// let o: Option<String> = "pro".into_field();
/// let n: Option<u32> = 3u32.into_field();
/// assert_eq!((s.as_str(), o.as_deref(), n), ("pro", Some("pro"), Some(3)));
/// ```
pub trait IntoField<T> {
    /// The field value.
    fn into_field(self) -> T;
}

impl<T> IntoField<T> for T {
    fn into_field(self) -> T {
        self
    }
}

impl<T> IntoField<Option<T>> for T {
    fn into_field(self) -> Option<T> {
        Some(self)
    }
}

impl IntoField<String> for &str {
    fn into_field(self) -> String {
        self.to_owned()
    }
}

impl IntoField<Option<String>> for &str {
    fn into_field(self) -> Option<String> {
        Some(self.to_owned())
    }
}

impl IntoField<String> for &String {
    fn into_field(self) -> String {
        self.clone()
    }
}

/// An update built by the derive's `E::update(..)`: the item's key and the
/// update expression, index keys included. Only complete updates implement
/// it (DYNA226): the derive implements [`CompleteUpdate`] for the states it
/// accepts, and this trait follows from it (see [`CompleteUpdate`] for why).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::{expr::Placeholders, TypedUpdate};
/// // Tagging sets the index's one input: the index key comes with it.
/// let parts = Note::update("ann", 1).set_tag("red").into_parts().unwrap();
/// assert_eq!(parts.key, Note::key("ann", 1).unwrap());
/// let mut cx = Placeholders::default();
/// assert_eq!(parts.update.render(&mut cx).unwrap(), "SET #n0 = :v0, #n1 = :v1");
/// assert_eq!(cx.names().unwrap()["#n1"], "gsi1pk");
/// // A patch carries the condition that the item exists.
/// assert!(parts.condition.is_some());
/// ```
pub trait TypedUpdate: Send {
    /// The entity updated.
    type Entity: Entity;
    /// The key and the update expression, with the condition the builder
    /// carries (a version check).
    fn into_parts(self) -> Result<UpdateParts<Self::Entity>, Error>;
}

/// The entity an update builder changes, whatever its typestate.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::UpdateTarget;
/// fn entity_of<U: UpdateTarget>(_: &U) -> &'static str {
///     std::any::type_name::<U::Entity>()
/// }
/// assert!(entity_of(&Note::update("ann", 1)).ends_with("Note"));
/// ```
pub trait UpdateTarget {
    /// The entity updated.
    type Entity: Entity;
}

/// What the derive implements for its update builder in the states its
/// typestate accepts (DYNA226, DYNA228); [`TypedUpdate`] follows from it
/// through [`CheckedUpdate`].
///
/// Why three traits: the derive's impl carries the `where` bounds that
/// make DYNA226 and DYNA228. Were it an impl of the trait a call asks for,
/// rustc would list it under the error ("the trait is implemented for
/// `TaskUpdate<_mode, ..>`"), and it lists no blanket impl. `TypedUpdate`
/// is a blanket over `CheckedUpdate` and that one over this trait, so the
/// error is rustc's reading of `TypedUpdate::Entity` (at the call, without
/// a note on where the bound was declared); the entity comes from
/// [`UpdateTarget`], which every state implements. The middle step is
/// there because reading `TypedUpdate::Entity` asks for the blanket impl's
/// bound as a root of its own: were that bound this trait, rustc would
/// list this trait's one impl, the derive's, after all.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::CompleteUpdate;
/// let parts = Note::update("ann", 1).set_text("hi").parts().unwrap();
/// assert_eq!(parts.key, Note::key("ann", 1).unwrap());
/// ```
pub trait CompleteUpdate: UpdateTarget + Send {
    /// The same as [`TypedUpdate::into_parts`].
    fn parts(self) -> Result<UpdateParts<Self::Entity>, Error>;
}

/// Every [`CompleteUpdate`]: the step between it and [`TypedUpdate`] (see
/// [`CompleteUpdate`] for why it exists).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::CheckedUpdate;
/// let parts = Note::update("ann", 1).set_text("hi").checked_parts().unwrap();
/// assert_eq!(parts.key, Note::key("ann", 1).unwrap());
/// ```
pub trait CheckedUpdate: UpdateTarget + Send {
    /// The same as [`TypedUpdate::into_parts`].
    fn checked_parts(self) -> Result<UpdateParts<Self::Entity>, Error>;
}

impl<U: CompleteUpdate> CheckedUpdate for U {
    fn checked_parts(self) -> Result<UpdateParts<U::Entity>, Error> {
        self.parts()
    }
}

impl<U: CheckedUpdate> TypedUpdate for U {
    type Entity = <U as UpdateTarget>::Entity;
    fn into_parts(self) -> Result<UpdateParts<Self::Entity>, Error> {
        self.checked_parts()
    }
}

/// What a [`TypedUpdate`] turns into (see the example on [`TypedUpdate`]).
#[derive(Debug)]
pub struct UpdateParts<E> {
    /// The item's key.
    pub key: Key<E>,
    /// The update expression.
    pub update: Update,
    /// A condition the builder adds (e.g. an expected version).
    pub condition: Option<Condition>,
}

/// A typed handle on one attribute of entity `E` holding values of type `T`
/// (the inner type for an `Option` field), for conditions and filters.
///
/// ```
/// use dynakey_runtime::update::Field;
/// let plan: Field<(), String> = Field::new("plan");
/// let (text, _, _) = plan.eq("pro").or(plan.not_exists()).render_standalone().unwrap();
/// assert_eq!(text, "(#n0 = :v0) OR (attribute_not_exists(#n0))");
/// ```
pub struct Field<E, T> {
    name: &'static str,
    _marker: PhantomData<fn() -> (E, T)>,
}

impl<E, T> Clone for Field<E, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E, T> Copy for Field<E, T> {}

impl<E, T> std::fmt::Debug for Field<E, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Field({})", self.name)
    }
}

fn av<T: Attr>(v: T) -> aws_sdk_dynamodb::types::AttributeValue {
    v.to_attr()
        .unwrap_or(aws_sdk_dynamodb::types::AttributeValue::Null(true))
}

macro_rules! compare {
    ($($f:ident => $doc:literal),*) => {$(
        #[doc = $doc]
        pub fn $f(&self, v: impl IntoField<T>) -> Condition {
            Condition::attr(self.name).$f(av(v.into_field()))
        }
    )*};
}

impl<E, T> Field<E, T> {
    /// A handle on the attribute `name`.
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            _marker: PhantomData,
        }
    }

    /// The attribute name.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl<E, T: Attr> Field<E, T> {
    compare!(
        eq => "`attr = v`", ne => "`attr <> v`", lt => "`attr < v`",
        le => "`attr <= v`", gt => "`attr > v`", ge => "`attr >= v`"
    );

    /// `attr BETWEEN lo AND hi`.
    pub fn between(&self, lo: impl IntoField<T>, hi: impl IntoField<T>) -> Condition {
        Condition::attr(self.name).between(av(lo.into_field()), av(hi.into_field()))
    }

    /// `attr IN (v, …)`.
    pub fn is_in<V: IntoField<T>>(&self, vs: impl IntoIterator<Item = V>) -> Condition {
        Condition::attr(self.name).is_in(vs.into_iter().map(|v| av(v.into_field())))
    }

    /// `begins_with(attr, v)`.
    pub fn begins_with(&self, v: impl IntoField<T>) -> Condition {
        Condition::attr(self.name).begins_with(av(v.into_field()))
    }

    /// `contains(attr, v)`: a substring, or a member of a set or list.
    pub fn contains<V: crate::expr::IntoValue>(&self, v: V) -> Condition {
        Condition::attr(self.name).contains(v)
    }

    /// `attribute_exists(attr)`.
    pub fn exists(&self) -> Condition {
        Condition::attr(self.name).exists()
    }

    /// `attribute_not_exists(attr)`.
    pub fn not_exists(&self) -> Condition {
        Condition::attr(self.name).not_exists()
    }

    /// `attribute_type(attr, t)`, with `t` one of `S N B BOOL NULL L M SS NS BS`.
    pub fn attribute_type(&self, t: &str) -> Condition {
        Condition::attr(self.name).has_type(t)
    }

    /// `size(attr)`, to compare with a number.
    pub fn size(&self) -> Size {
        Size(self.name)
    }
}

/// `size(attr)` of a [`Field`], compared with a number.
///
/// ```
/// use dynakey_runtime::update::Field;
/// let tags: Field<(), Vec<String>> = Field::new("tags");
/// let (text, _, _) = tags.size().gt(3).render_standalone().unwrap();
/// assert_eq!(text, "size(#n0) > :v0");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Size(&'static str);

impl Size {
    /// `size(attr) = n`.
    pub fn eq(self, n: u64) -> Condition {
        Condition::attr(self.0).size_cmp(CmpOp::Eq, n)
    }
    /// `size(attr) < n`.
    pub fn lt(self, n: u64) -> Condition {
        Condition::attr(self.0).size_cmp(CmpOp::Lt, n)
    }
    /// `size(attr) <= n`.
    pub fn le(self, n: u64) -> Condition {
        Condition::attr(self.0).size_cmp(CmpOp::Le, n)
    }
    /// `size(attr) > n`.
    pub fn gt(self, n: u64) -> Condition {
        Condition::attr(self.0).size_cmp(CmpOp::Gt, n)
    }
    /// `size(attr) >= n`.
    pub fn ge(self, n: u64) -> Condition {
        Condition::attr(self.0).size_cmp(CmpOp::Ge, n)
    }
}
