//! Decoders: what each item a read returns becomes (an entity, a key, a
//! variant of a union), and what the read asks DynamoDB for to get it (a
//! filter on the discriminator, a projection).

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::{AttrPath, DecodeError, Item};
use crate::entity::{Entity, EntityMeta};
use crate::error::Error;
use crate::expr::Condition;
use crate::key::{Key, KeyKind, WholeItems};
use crate::union::EntityUnion;

/// Turns the items a read returns into results: [`Typed`] (the default),
/// [`KeysOnly`] (`keys_only()`) and [`AnyOf`] (`of::<U>()`).
///
/// ```
/// use dynakey_runtime::query::{Decoder, Typed};
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32 }
/// use dynakey_runtime::Entity;
/// let typed = Typed::<Note>::default();
/// let (text, _, _) = typed.filter(Note::META).unwrap().render_standalone().unwrap();
/// assert_eq!(text, "#n0 = :v0"); // entity = "NOTE"
/// let item = Note { user: "a".into(), id: 1 }.to_item().unwrap();
/// assert_eq!(typed.decode(&item).unwrap(), Some(Note { user: "a".into(), id: 1 }));
/// ```
pub trait Decoder: Clone + Send + Sync + 'static {
    /// What each item becomes.
    type Out: Send + 'static;
    /// A filter the read adds (e.g. the discriminator of a typed read).
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition>;
    /// The attributes to read, or `None` for all. A projection keeps the
    /// key attributes of the table and of `index`: a page's cursor is made
    /// from them.
    fn projection(
        &self,
        meta: &'static EntityMeta,
        index: Option<&str>,
    ) -> Option<Vec<&'static str>>;
    /// Decodes one item; `Ok(None)` skips it.
    fn decode(&self, item: &Item) -> Result<Option<Self::Out>, Error>;
}

/// `Default`, `Clone` and `Debug` of a decoder that is a type marker.
macro_rules! marker_impls {
    ($name:ident) => {
        impl<E> Default for $name<E> {
            fn default() -> Self {
                $name(PhantomData)
            }
        }

        impl<E> Clone for $name<E> {
            fn clone(&self) -> Self {
                $name(PhantomData)
            }
        }

        impl<E> std::fmt::Debug for $name<E> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}
pub(super) use marker_impls;

/// Reads items as entity `E`; a filter on the discriminator leaves the
/// other types out (see [`Decoder`]).
pub struct Typed<E>(PhantomData<fn() -> E>);

marker_impls!(Typed);

fn discriminator_filter(meta: &'static EntityMeta) -> Condition {
    Condition::attr(meta.discriminator_attr).eq(meta.discriminator)
}

impl<E: Entity> Decoder for Typed<E> {
    type Out = E;
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition> {
        Some(discriminator_filter(meta))
    }
    fn projection(&self, _: &'static EntityMeta, _: Option<&str>) -> Option<Vec<&'static str>> {
        None
    }
    fn decode(&self, item: &Item) -> Result<Option<E>, Error> {
        E::from_item(item).map(Some).map_err(Error::from)
    }
}

/// Reads only the table keys of entity `E` (`ProjectionExpression` of the
/// key attributes).
///
/// ```
/// use dynakey_runtime::query::{Decoder, KeysOnly};
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String> }
/// use dynakey_runtime::Entity;
/// let keys = KeysOnly::<Note>::default();
/// assert_eq!(keys.projection(Note::META, Some("GSI1")).unwrap(), ["pk", "sk", "gsi1pk", "gsi1sk"]);
/// let item = Note { user: "a".into(), id: 1, tag: None }.to_item().unwrap();
/// assert_eq!(keys.decode(&item).unwrap(), Some(Note::key("a", 1).unwrap()));
/// ```
pub struct KeysOnly<E>(PhantomData<fn() -> E>);

marker_impls!(KeysOnly);

impl<E: Entity> Decoder for KeysOnly<E> {
    type Out = Key<E>;
    fn filter(&self, meta: &'static EntityMeta) -> Option<Condition> {
        Some(discriminator_filter(meta))
    }
    fn projection(
        &self,
        meta: &'static EntityMeta,
        index: Option<&str>,
    ) -> Option<Vec<&'static str>> {
        Some(key_attrs(meta, index))
    }
    fn decode(&self, item: &Item) -> Result<Option<Key<E>>, Error> {
        let meta = E::META;
        let s = |a: &'static str| -> Result<String, Error> {
            match item.get(a) {
                Some(AttributeValue::S(s)) => Ok(s.clone()),
                Some(other) => Err(DecodeError::mismatch(&AttrPath::root(a), "S", other).into()),
                None => Err(DecodeError::missing(&AttrPath::root(a)).into()),
            }
        };
        let pk = s(meta.pk.attr)?;
        let sk = match &meta.sk {
            Some(k) => Some((k.attr, s(k.attr)?)),
            None => None,
        };
        Ok(Some(Key::__new(meta.pk.attr, pk, sk)))
    }
}

/// The key attributes of the table and of `index`: what an
/// `ExclusiveStartKey` of a read of that index holds.
pub(crate) fn key_attrs(meta: &EntityMeta, index: Option<&str>) -> Vec<&'static str> {
    let mut v = vec![meta.pk.attr];
    v.extend(meta.sk.as_ref().map(|k| k.attr));
    if let Some(ix) = index.and_then(|n| meta.index(n)) {
        for a in ix.key_attrs() {
            if !v.contains(&a) {
                v.push(a);
            }
        }
    }
    v
}

/// Reads items as a union of entities, by discriminator; an unknown one is
/// an error unless `skip_unknown()` was asked.
///
/// ```
/// use dynakey_runtime::query::{AnyOf, Decoder};
/// # use dynakey_derive::{DynamoEntity, DynamoUnion};
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32 }
/// # #[derive(DynamoUnion, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime")]
/// # enum UserItem { Note(Note) }
/// use dynakey_runtime::Entity;
/// let any = AnyOf::<UserItem>::default();
/// let item = Note { user: "a".into(), id: 1 }.to_item().unwrap();
/// assert!(matches!(any.decode(&item).unwrap(), Some(UserItem::Note(_))));
/// ```
pub struct AnyOf<U> {
    pub(crate) skip_unknown: bool,
    _u: PhantomData<fn() -> U>,
}

impl<U> Default for AnyOf<U> {
    fn default() -> Self {
        AnyOf {
            skip_unknown: false,
            _u: PhantomData,
        }
    }
}

impl<U> Clone for AnyOf<U> {
    fn clone(&self) -> Self {
        AnyOf {
            skip_unknown: self.skip_unknown,
            _u: PhantomData,
        }
    }
}

impl<U> fmt::Debug for AnyOf<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyOf")
            .field("skip_unknown", &self.skip_unknown)
            .finish()
    }
}

impl<U: EntityUnion> Decoder for AnyOf<U> {
    type Out = U;
    fn filter(&self, _: &'static EntityMeta) -> Option<Condition> {
        None
    }
    fn projection(&self, _: &'static EntityMeta, _: Option<&str>) -> Option<Vec<&'static str>> {
        None
    }
    fn decode(&self, item: &Item) -> Result<Option<U>, Error> {
        match U::from_item(item) {
            Ok(u) => Ok(Some(u)),
            Err(Error::UnknownDiscriminator { .. }) if self.skip_unknown => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A decoder that can read items through keys of kind `K`: any decoder
/// through keys of whole items, only [`KeysOnly`] through a partial index
/// (DYNA402, see [`WholeItems`]).
///
/// Implemented through [`ReadsThrough`], for every decoder: a read asks for
/// `ReadFrom`, whose one impl is a blanket, so that rustc does not list the
/// decoders under DYNA402 as if the user had meant another one.
pub trait ReadFrom<K: KeyKind>: Decoder {}
impl<D: ReadsThrough<K>, K: KeyKind> ReadFrom<K> for D {}

/// The keys a decoder can read items through, for [`ReadFrom`] (which
/// follows from it): every decoder of the runtime implements this one.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::{GlobalPartial, KeyKind, KeysOnly, ReadFrom, ReadsThrough, Table, Typed};
/// fn reads<D: ReadFrom<K>, K: KeyKind>() {}
/// // Keys read through any index; whole items only where the index holds them.
/// reads::<KeysOnly<Note>, GlobalPartial>();
/// reads::<Typed<Note>, Table>();
/// // A decoder of one's own says where it reads.
/// #[derive(Clone, Debug, Default)]
/// struct Count;
/// # impl dynakey_runtime::Decoder for Count {
/// #     type Out = ();
/// #     fn filter(&self, _: &'static dynakey_runtime::EntityMeta) -> Option<dynakey_runtime::expr::Condition> { None }
/// #     fn projection(&self, _: &'static dynakey_runtime::EntityMeta, _: Option<&str>) -> Option<Vec<&'static str>> { None }
/// #     fn decode(&self, _: &dynakey_runtime::Item) -> Result<Option<()>, dynakey_runtime::Error> { Ok(Some(())) }
/// # }
/// impl<K: KeyKind> ReadsThrough<K> for Count {}
/// reads::<Count, GlobalPartial>();
/// ```
pub trait ReadsThrough<K: KeyKind>: Decoder {}
impl<E: Entity, K: KeyKind> ReadsThrough<K> for KeysOnly<E> {}
impl<E: Entity, K: WholeItems> ReadsThrough<K> for Typed<E> {}
impl<U: EntityUnion, K: WholeItems> ReadsThrough<K> for AnyOf<U> {}
