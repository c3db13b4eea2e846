//! Typed keys: a key knows its entity and which key (table, global or local
//! index) it addresses, so a query cannot mix them up.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

/// Which kind of key a [`PartitionKey`] or [`SortKeyCondition`] addresses.
///
/// [`SortKeyCondition`]: super::SortKeyCondition
pub trait KeyKind: Send + Sync + 'static {
    /// Whether DynamoDB allows a consistent read through this key.
    const CONSISTENT_READ: bool;
}

/// The table's own key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {}
/// A global secondary index key (eventually consistent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Global {}
/// A local secondary index key (shares the table's partition key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Local {}

impl KeyKind for Table {
    const CONSISTENT_READ: bool = true;
}
impl KeyKind for Global {
    const CONSISTENT_READ: bool = false;
}
impl KeyKind for Local {
    const CONSISTENT_READ: bool = true;
}

/// A key of a global index whose projection is not `ALL` (`KEYS_ONLY`,
/// `INCLUDE(..)`): its items are not whole, so a typed read of the entity
/// through it does not compile (DYNA402).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlobalPartial {}
/// A key of a local index whose projection is not `ALL` (see
/// [`GlobalPartial`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalPartial {}

impl KeyKind for GlobalPartial {
    const CONSISTENT_READ: bool = false;
}
impl KeyKind for LocalPartial {
    const CONSISTENT_READ: bool = true;
}

/// Keys through which a read returns whole items: the table's, and those of
/// indexes projecting `ALL`. Reading the entity (or a union) through an
/// index that holds less is DYNA402; read its keys (`keys_only()`) or the
/// whole items behind them (`hydrate()`).
#[diagnostic::on_unimplemented(
    message = "DYNA402: this index does not hold whole items (its projection is KEYS_ONLY or INCLUDE), so they cannot be decoded as the entity",
    label = "a read of the entity through a partial index",
    note = "read the keys with `.keys_only()`, or the whole items behind them, in index order, with `.hydrate()`; or declare projection = \"ALL\" on the index"
)]
pub trait WholeItems: KeyKind {}
#[diagnostic::do_not_recommend]
impl WholeItems for Table {}
#[diagnostic::do_not_recommend]
impl WholeItems for Global {}
#[diagnostic::do_not_recommend]
impl WholeItems for Local {}

/// The full table key of one item of `E`: what get, delete and update take.
///
/// Built by the generated `E::key(..)`.
pub struct Key<E> {
    pk_attr: &'static str,
    sk_attr: Option<&'static str>,
    pk: String,
    sk: Option<String>,
    _entity: PhantomData<fn() -> E>,
}

impl<E> Key<E> {
    #[doc(hidden)]
    pub fn __new(pk_attr: &'static str, pk: String, sk: Option<(&'static str, String)>) -> Self {
        let (sk_attr, sk) = match sk {
            Some((a, v)) => (Some(a), Some(v)),
            None => (None, None),
        };
        Self {
            pk_attr,
            sk_attr,
            pk,
            sk,
            _entity: PhantomData,
        }
    }

    /// The partition key text, e.g. `USER#alice`.
    pub fn pk(&self) -> &str {
        &self.pk
    }

    /// The sort key text, e.g. `GROUP#staff`; `None` for a table without one.
    pub fn sk(&self) -> Option<&str> {
        self.sk.as_deref()
    }

    /// The attribute name of the partition key.
    pub fn pk_attr(&self) -> &'static str {
        self.pk_attr
    }

    /// The attribute name of the sort key.
    pub fn sk_attr(&self) -> Option<&'static str> {
        self.sk_attr
    }

    /// The key as DynamoDB attributes (`Key` of a GetItem request).
    pub fn to_attributes(&self) -> HashMap<String, AttributeValue> {
        key_attributes(self.pk_attr, &self.pk, self.sk_attr, self.sk.as_deref())
    }

    /// The same key without its entity type, for the parts of the runtime
    /// that need only the key's text: one copy of their code serves every
    /// entity.
    pub(crate) fn erase(self) -> Key<()> {
        self.retype()
    }

    /// The same key as a key of `F` (for code that builds a key once, not
    /// once per entity).
    pub(crate) fn retype<F>(self) -> Key<F> {
        Key {
            pk_attr: self.pk_attr,
            sk_attr: self.sk_attr,
            pk: self.pk,
            sk: self.sk,
            _entity: PhantomData,
        }
    }
}

/// [`Key::to_attributes`], outside the generic impl (compiled once).
fn key_attributes(
    pk_attr: &str,
    pk: &str,
    sk_attr: Option<&str>,
    sk: Option<&str>,
) -> HashMap<String, AttributeValue> {
    let mut m = HashMap::with_capacity(2);
    m.insert(pk_attr.to_owned(), AttributeValue::S(pk.to_owned()));
    if let (Some(a), Some(v)) = (sk_attr, sk) {
        m.insert(a.to_owned(), AttributeValue::S(v.to_owned()));
    }
    m
}

impl<E> Clone for Key<E> {
    fn clone(&self) -> Self {
        Self {
            pk_attr: self.pk_attr,
            sk_attr: self.sk_attr,
            pk: self.pk.clone(),
            sk: self.sk.clone(),
            _entity: PhantomData,
        }
    }
}

impl<E> PartialEq for Key<E> {
    fn eq(&self, other: &Self) -> bool {
        self.pk == other.pk && self.sk == other.sk && self.pk_attr == other.pk_attr
    }
}
impl<E> Eq for Key<E> {}

impl<E> fmt::Debug for Key<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Key");
        d.field(self.pk_attr, &self.pk);
        if let (Some(a), Some(v)) = (self.sk_attr, &self.sk) {
            d.field(a, v);
        }
        d.finish()
    }
}

/// A partition key of the table (`K = Table`) or of an index, for queries.
///
/// Built by the generated `E::pk(..)`, `E::gsi1_pk(..)`, …, and for a
/// native index by its `E::<index>_pk(..)` from every partition attribute.
pub struct PartitionKey<E, K: KeyKind = Table> {
    pub(crate) index: Option<&'static str>,
    pub(crate) value: PkValue,
    _marker: PhantomData<fn() -> (E, K)>,
}

/// The two forms of a partition key.
#[derive(Clone, PartialEq)]
pub(crate) enum PkValue {
    /// One string attribute holding a template's text.
    Text { attr: &'static str, value: String },
    /// A native index's partition attributes with their values, in key order.
    Native(Vec<(&'static str, AttributeValue)>),
}

impl PkValue {
    /// Every partition attribute with its value (not generic: one copy
    /// serves every entity's reads).
    pub(crate) fn values(&self) -> Vec<(&'static str, AttributeValue)> {
        match self {
            PkValue::Text { attr, value } => vec![(*attr, AttributeValue::S(value.clone()))],
            PkValue::Native(v) => v.clone(),
        }
    }
}

impl<E, K: KeyKind> PartitionKey<E, K> {
    #[doc(hidden)]
    pub fn __new(index: Option<&'static str>, attr: &'static str, value: String) -> Self {
        Self {
            index,
            value: PkValue::Text { attr, value },
            _marker: PhantomData,
        }
    }

    /// The partition key of native index `index`: each partition attribute
    /// with its value, in key order (what a derived `E::<index>_pk(..)`
    /// builds through [`NativeKeyBuilder`](super::NativeKeyBuilder)).
    #[doc(hidden)]
    pub fn __native(index: &'static str, attrs: Vec<(&'static str, AttributeValue)>) -> Self {
        Self {
            index: Some(index),
            value: PkValue::Native(attrs),
            _marker: PhantomData,
        }
    }

    /// The index this key addresses; `None` for the table.
    pub fn index(&self) -> Option<&'static str> {
        self.index
    }

    /// Whether this is a native index's key (several attributes, any of S,
    /// N, B); see [`PartitionKey::values`].
    pub fn is_native(&self) -> bool {
        matches!(self.value, PkValue::Native(_))
    }

    /// The key attribute's name, e.g. `pk` or `gsi1pk`; for a native key,
    /// its first partition attribute (every one is in
    /// [`values`](Self::values)).
    pub fn attr(&self) -> &'static str {
        match &self.value {
            PkValue::Text { attr, .. } => attr,
            PkValue::Native(v) => v.first().map_or("", |(a, _)| a),
        }
    }

    /// The key text, e.g. `USER#alice`; for a native key, empty (its
    /// values are in [`values`](Self::values)).
    pub fn value(&self) -> &str {
        match &self.value {
            PkValue::Text { value, .. } => value,
            PkValue::Native(_) => "",
        }
    }

    /// Every attribute the partition is matched on, with its value: the
    /// one string of a template key, or each attribute of a native key in
    /// key order.
    ///
    /// ```
    /// use dynakey_runtime::{PartitionKey, Table};
    /// use aws_sdk_dynamodb::types::AttributeValue;
    /// let pk: PartitionKey<(), Table> = PartitionKey::__new(None, "pk", "USER#ann".into());
    /// assert_eq!(pk.values(), [("pk", AttributeValue::S("USER#ann".into()))]);
    /// ```
    pub fn values(&self) -> Vec<(&'static str, AttributeValue)> {
        self.value.values()
    }

    /// The same key seen as a key of another entity sharing the partition
    /// (for reading several types from one partition).
    pub fn cast<F>(self) -> PartitionKey<F, K> {
        PartitionKey {
            index: self.index,
            value: self.value,
            _marker: PhantomData,
        }
    }
}

impl<E, K: KeyKind> Clone for PartitionKey<E, K> {
    fn clone(&self) -> Self {
        PartitionKey {
            index: self.index,
            value: self.value.clone(),
            _marker: PhantomData,
        }
    }
}

impl<E, K: KeyKind> PartialEq for PartitionKey<E, K> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.value == other.value
    }
}
// Attribute values hold no floats: equality is an equivalence.
impl<E, K: KeyKind> Eq for PartitionKey<E, K> {}

impl<E, K: KeyKind> fmt::Debug for PartitionKey<E, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index = self.index.map(|i| format!("{i}.")).unwrap_or_default();
        match &self.value {
            PkValue::Text { attr, value } => write!(f, "PartitionKey({index}{attr} = {value:?})"),
            PkValue::Native(v) => {
                write!(f, "PartitionKey({index}")?;
                for (i, (a, x)) in v.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{a} = {x:?}")?;
                }
                f.write_str(")")
            }
        }
    }
}
