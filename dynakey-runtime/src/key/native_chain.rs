//! Typed keys of native indexes: the partition from every partition
//! attribute ([`NativeKeyBuilder`]), and the sort-key condition chain
//! ([`NativeSortNext`], [`NativeSortFull`]), which fixes a leading run of
//! sort attributes by equality and compares the next one.
//!
//! The chain has the shape of the template chains (`key/chain.rs`): the
//! derive wraps each step in the entity's step struct, whose method named
//! after the next field fixes it and moves on, so a step offers only the
//! next attribute and skipping one does not compile.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use super::cond::{NativeRange, NativeSortOp, SortKeyCondition, SortKeyOp};
use super::native::{compare_key_values, native_error, NativeArg, NativeKeyAttr, NativePrefix};
use super::native_attr::NativeAttr;
use super::typed::{KeyKind, PartitionKey};
use super::CondResult;
use crate::error::{KeyFormatError, KeyRole};

/// Attributes and their values, in key order.
pub(crate) type NativeValues = Vec<(&'static str, AttributeValue)>;

/// The values of a native key given so far, or the first error.
struct Values {
    entity: &'static str,
    index: &'static str,
    /// Whether these are partition or sort attributes (for their size limit).
    role: KeyRole,
    attrs: &'static [NativeAttr],
    values: Result<NativeValues, KeyFormatError>,
}

impl Clone for Values {
    fn clone(&self) -> Self {
        Values {
            entity: self.entity,
            index: self.index,
            role: self.role,
            attrs: self.attrs,
            values: self.values.clone(),
        }
    }
}

impl fmt::Debug for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("NativeKey");
        d.field("index", &self.index);
        match &self.values {
            Ok(v) => d.field("fixed", v),
            Err(e) => d.field("error", e),
        };
        d.finish()
    }
}

impl Values {
    fn new(
        entity: &'static str,
        index: &'static str,
        role: KeyRole,
        attrs: &'static [NativeAttr],
    ) -> Self {
        Values {
            entity,
            index,
            role,
            attrs,
            values: Ok(Vec::with_capacity(attrs.len())),
        }
    }

    /// The attribute the next value is for.
    fn next_attr(&self) -> Option<&'static NativeAttr> {
        let at = self.values.as_ref().map_or(0, Vec::len);
        self.attrs.get(at)
    }

    /// A value of the next attribute, with the error's context.
    fn value<T: ?Sized, V: NativeArg<T> + ?Sized>(
        &self,
        v: &V,
    ) -> Result<(&'static str, AttributeValue), KeyFormatError> {
        let attr = self.next_attr().ok_or_else(|| {
            native_error(
                self.entity,
                self.index,
                "",
                super::formats::KeyPartError::new(
                    "",
                    crate::error::KeyFormatReason::Malformed {
                        expected: format!("at most {} attributes", self.attrs.len()),
                    },
                ),
            )
        })?;
        let value = v
            .native_value()
            .map_err(|e| native_error(self.entity, self.index, attr.field, e))?;
        Ok((attr.attr, self.sized(attr, value)?))
    }

    /// `value` of attribute `attr`, unless it is longer than the key holds:
    /// each attribute of a native key is held to its key's limit (2,048
    /// bytes for a partition attribute, 1,024 for a sort attribute).
    fn sized(
        &self,
        attr: &NativeAttr,
        value: AttributeValue,
    ) -> Result<AttributeValue, KeyFormatError> {
        let size = match &value {
            AttributeValue::S(s) | AttributeValue::N(s) => s.len(),
            AttributeValue::B(b) => b.as_ref().len(),
            _ => 0,
        };
        if size <= self.role.limit() {
            return Ok(value);
        }
        let shown = match &value {
            AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
            other => crate::codec::describe_value(other),
        };
        let reason = crate::error::KeyFormatReason::TooLong {
            role: self.role,
            size,
        };
        let e = super::formats::KeyPartError::new(shown, reason);
        Err(native_error(self.entity, self.index, attr.field, e))
    }

    /// These values with the next attribute's set to `v`.
    fn with<T: ?Sized, V: NativeArg<T> + ?Sized>(&self, v: &V) -> Self {
        let mut next = self.clone();
        if let Ok(fixed) = &self.values {
            next.values = self.value(v).map(|pair| {
                let mut fixed = fixed.clone();
                fixed.push(pair);
                fixed
            });
        }
        next
    }
}

/// A native index's partition key being written, one attribute per call
/// in key order; the first refused value is reported at the end.
///
/// ```
/// use dynakey_runtime::key::NativeKeyBuilder;
/// use dynakey_runtime::{Global, KeyAttrType::*, NativeAttr, KeyFormatReason};
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
/// # #[pk("USER#<user>")]
/// # struct Note { user: String }
/// static PK: [NativeAttr; 2] = [NativeAttr::__new("tenant", "tenant", S), NativeAttr::__new("shard", "shard", N)];
/// let pk = NativeKeyBuilder::<Note>::new("NOTE", "ByShard", &PK).value("acme").value(&3u8).partition::<Global>().unwrap();
/// assert_eq!(pk.index(), Some("ByShard"));
/// assert_eq!(pk.values().len(), 2);
/// let err = NativeKeyBuilder::<Note>::new("NOTE", "ByShard", &PK).value("").value(&3u8).partition::<Global>().unwrap_err();
/// assert_eq!((err.field, err.reason), ("tenant", KeyFormatReason::Empty));
/// ```
#[must_use]
pub struct NativeKeyBuilder<E> {
    values: Values,
    _entity: PhantomData<fn() -> E>,
}

impl<E> fmt::Debug for NativeKeyBuilder<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.values.fmt(f)
    }
}

impl<E> NativeKeyBuilder<E> {
    /// The partition key of native index `index` of the entity whose
    /// discriminator is `entity`, whose partition attributes are `attrs`
    /// (`entity` names the entity in errors).
    pub fn new(entity: &'static str, index: &'static str, attrs: &'static [NativeAttr]) -> Self {
        NativeKeyBuilder {
            values: Values::new(entity, index, KeyRole::Partition, attrs),
            _entity: PhantomData,
        }
    }

    /// The next attribute's value.
    pub fn value<T: ?Sized, V: NativeArg<T> + ?Sized>(self, v: &V) -> Self {
        NativeKeyBuilder {
            values: self.values.with::<T, V>(v),
            _entity: PhantomData,
        }
    }

    /// The partition key, once every attribute has its value.
    pub fn partition<K: KeyKind>(self) -> Result<PartitionKey<E, K>, KeyFormatError> {
        let Values {
            entity,
            index,
            attrs,
            values,
            ..
        } = self.values;
        let values = values?;
        if let Some(missing) = attrs.get(values.len()) {
            return Err(native_error(
                entity,
                index,
                missing.field,
                super::formats::KeyPartError::new(
                    "",
                    crate::error::KeyFormatReason::Malformed {
                        expected: format!("a value for each of the {} attributes", attrs.len()),
                    },
                ),
            ));
        }
        Ok(PartitionKey::__native(index, values))
    }
}

/// A native sort key with a leading run of attributes fixed, or the first
/// error fixing one.
struct Chain<E, K> {
    values: Values,
    _marker: PhantomData<fn() -> (E, K)>,
}

impl<E, K> Clone for Chain<E, K> {
    fn clone(&self) -> Self {
        Chain {
            values: self.values.clone(),
            _marker: PhantomData,
        }
    }
}

impl<E, K: KeyKind> Chain<E, K> {
    fn with<T: ?Sized, V: NativeArg<T> + ?Sized>(&self, v: &V) -> Self {
        Chain {
            values: self.values.with::<T, V>(v),
            _marker: PhantomData,
        }
    }

    fn cond(&self, range: Option<(&'static str, NativeRange)>) -> CondResult<E, K> {
        let eq = self.values.values.clone()?;
        let first = self.values.attrs.first().map_or("", |a| a.attr);
        let op = if eq.is_empty() && range.is_none() {
            SortKeyOp::All
        } else {
            SortKeyOp::Native(NativeSortOp { eq, range })
        };
        Ok(SortKeyCondition::__new(Some(self.values.index), first, op))
    }

    /// The condition with one range on the next attribute, whose value(s)
    /// `make` builds.
    fn range(
        &self,
        make: impl FnOnce(&Values) -> Result<NativeRange, KeyFormatError>,
    ) -> CondResult<E, K> {
        // An error fixing an earlier attribute is the one to report.
        self.values.values.as_ref().map_err(Clone::clone)?;
        let attr = self.values.next_attr().map_or("", |a| a.attr);
        let range = make(&self.values)?;
        if let NativeRange::Between(lo, hi) = &range {
            if compare_key_values(lo, hi).is_gt() {
                // Nothing is between: DynamoDB refuses such a BETWEEN, and
                // the query sends nothing.
                return Ok(SortKeyCondition::__new(
                    Some(self.values.index),
                    attr,
                    SortKeyOp::Empty,
                ));
            }
        }
        self.cond(Some((attr, range)))
    }
}

/// `Debug` of a step, without bounds on `E` and `K`.
macro_rules! step_debug {
    ($ty:ident $(, $t:ident)?) => {
        impl<E, K $(, $t: ?Sized)?> fmt::Debug for $ty<E, K $(, $t)?> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.chain.values.fmt(f)
            }
        }
    };
}

/// A step of a native sort-key chain whose next attribute has type `T`:
/// the comparisons of that attribute, within the attributes fixed so far
/// (what every step of a generated chain offers besides the method that
/// fixes the next attribute by name).
///
/// ```
/// use dynakey_runtime::key::{NativeSortNext, NativeSortOp, NativeRange};
/// use dynakey_runtime::{Global, KeyAttrType, NativeAttr, SortKeyOp};
/// use aws_sdk_dynamodb::types::AttributeValue::{N, S};
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
/// # #[pk("USER#<user>")]
/// # struct Note { user: String }
/// static SK: [NativeAttr; 2] = [
///     NativeAttr::__new("status", "status", KeyAttrType::S),
///     NativeAttr::__new("score", "score", KeyAttrType::N),
/// ];
/// let first: NativeSortNext<Note, Global, String> = NativeSortNext::__of("NOTE", "ByStatus", &SK);
/// let open = first.__then::<i64, _>("open");
/// let c = open.between(-5i64, 5i64).unwrap();
/// assert_eq!(c.op(), &SortKeyOp::Native(NativeSortOp {
///     eq: vec![("status", S("open".into()))],
///     range: Some(("score", NativeRange::Between(N("-5".into()), N("5".into())))),
/// }));
/// assert_eq!(first.begins_with("op").unwrap().op(), &SortKeyOp::Native(NativeSortOp {
///     eq: vec![],
///     range: Some(("status", NativeRange::BeginsWith(S("op".into())))),
/// }));
/// // Wrong order selects nothing, and sends nothing.
/// assert_eq!(open.between(5i64, -5i64).unwrap().op(), &SortKeyOp::Empty);
/// ```
#[must_use = "a sort-key step does nothing until a condition is taken from it"]
pub struct NativeSortNext<E, K, T: ?Sized> {
    chain: Chain<E, K>,
    _t: PhantomData<fn(&T)>,
}

impl<E, K, T: ?Sized> Clone for NativeSortNext<E, K, T> {
    fn clone(&self) -> Self {
        NativeSortNext {
            chain: self.chain.clone(),
            _t: PhantomData,
        }
    }
}

step_debug!(NativeSortNext, T);

impl<E, K: KeyKind, T: NativeKeyAttr> NativeSortNext<E, K, T> {
    /// The first step of the sort-key chain of native index `index` of the
    /// entity whose discriminator is `entity`, whose sort attributes are
    /// `attrs` (the first of type `T`).
    #[doc(hidden)]
    pub fn __of(entity: &'static str, index: &'static str, attrs: &'static [NativeAttr]) -> Self {
        NativeSortNext {
            chain: Chain {
                values: Values::new(entity, index, KeyRole::Sort, attrs),
                _marker: PhantomData,
            },
            _t: PhantomData,
        }
    }
}

impl<E, K: KeyKind, T: NativeKeyAttr> NativeSortNext<E, K, T> {
    /// Fixes this attribute to `v`; the next one has type `U`.
    #[doc(hidden)]
    pub fn __then<U: NativeKeyAttr, V: NativeArg<T> + ?Sized>(
        &self,
        v: &V,
    ) -> NativeSortNext<E, K, U> {
        NativeSortNext {
            chain: self.chain.with::<T, V>(v),
            _t: PhantomData,
        }
    }

    /// Fixes this attribute, the key's last, to `v`.
    #[doc(hidden)]
    pub fn __end<V: NativeArg<T> + ?Sized>(&self, v: &V) -> NativeSortFull<E, K> {
        NativeSortFull {
            chain: self.chain.with::<T, V>(v),
        }
    }

    /// Keys whose fixed attributes equal the values given (at depth zero,
    /// every key of the partition). A chain that fixes attributes by
    /// equality only ends here: `Place::by_region_sk().city("Lyon").eq()?`
    /// reads every key of the partition with that city, whatever the
    /// attributes after it; `Place::by_region_sk().eq()?` reads the whole
    /// partition.
    pub fn eq(&self) -> CondResult<E, K> {
        self.chain.cond(None)
    }

    fn one(&self, v: impl NativeArg<T>, op: fn(AttributeValue) -> NativeRange) -> CondResult<E, K> {
        self.chain
            .range(|vals| vals.value::<T, _>(&v).map(|(_, x)| op(x)))
    }

    /// The next attribute below `v` (within the attributes fixed so far).
    pub fn lt(&self, v: impl NativeArg<T>) -> CondResult<E, K> {
        self.one(v, NativeRange::Lt)
    }

    /// The next attribute at or below `v`.
    pub fn le(&self, v: impl NativeArg<T>) -> CondResult<E, K> {
        self.one(v, NativeRange::Le)
    }

    /// The next attribute above `v`.
    pub fn gt(&self, v: impl NativeArg<T>) -> CondResult<E, K> {
        self.one(v, NativeRange::Gt)
    }

    /// The next attribute at or above `v`.
    pub fn ge(&self, v: impl NativeArg<T>) -> CondResult<E, K> {
        self.one(v, NativeRange::Ge)
    }

    /// The next attribute between `lo` and `hi`, both included (nothing,
    /// and no request, when `lo > hi`).
    pub fn between(&self, lo: impl NativeArg<T>, hi: impl NativeArg<T>) -> CondResult<E, K> {
        self.chain.range(|vals| {
            let (_, lo) = vals.value::<T, _>(&lo)?;
            let (_, hi) = vals.value::<T, _>(&hi)?;
            Ok(NativeRange::Between(lo, hi))
        })
    }
}

impl<E, K: KeyKind, T: NativePrefix> NativeSortNext<E, K, T> {
    /// The next attribute's text (or bytes) starts with `prefix`. Only for
    /// attributes stored as S or B.
    ///
    /// An empty prefix is **no condition on this attribute**: every value
    /// starts with it, so `begins_with("")` is the same condition as
    /// [`eq()`](Self::eq) at this depth (the attributes fixed so far, and
    /// nothing on this one), and is sent as that. It is not refused: the
    /// prefix is often a runtime string (a search box), where "nothing
    /// typed yet" rightly means "everything in the range fixed so far". Check
    /// for an empty prefix yourself where it should mean something else.
    ///
    /// ```
    /// use dynakey_runtime::key::NativeSortNext;
    /// use dynakey_runtime::{Global, KeyAttrType, NativeAttr};
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// static SK: [NativeAttr; 2] = [
    ///     NativeAttr::__new("status", "status", KeyAttrType::S),
    ///     NativeAttr::__new("region", "region", KeyAttrType::S),
    /// ];
    /// let first: NativeSortNext<Note, Global, String> = NativeSortNext::__of("NOTE", "ByStatus", &SK);
    /// // At depth zero: every key of the partition.
    /// assert_eq!(first.begins_with("").unwrap().op(), first.eq().unwrap().op());
    /// // After `status = "open"`: every key with that status, whatever its region.
    /// let open = first.__then::<String, _>("open");
    /// assert_eq!(open.begins_with("").unwrap().op(), open.eq().unwrap().op());
    /// assert_ne!(open.begins_with("eu").unwrap().op(), open.eq().unwrap().op());
    /// ```
    pub fn begins_with(&self, prefix: impl AsRef<T::Prefix>) -> CondResult<E, K> {
        match T::prefix_value(prefix.as_ref()) {
            Some(p) => self.chain.range(|vals| match vals.next_attr() {
                Some(attr) => vals.sized(attr, p).map(NativeRange::BeginsWith),
                None => Ok(NativeRange::BeginsWith(p)),
            }),
            None => self.chain.cond(None),
        }
    }
}

/// A native sort key with every attribute fixed: the one key. The last
/// step of every generated native chain.
#[must_use = "a sort-key step does nothing until a condition is taken from it"]
pub struct NativeSortFull<E, K> {
    chain: Chain<E, K>,
}

impl<E, K> Clone for NativeSortFull<E, K> {
    fn clone(&self) -> Self {
        NativeSortFull {
            chain: self.chain.clone(),
        }
    }
}

step_debug!(NativeSortFull);

impl<E, K: KeyKind> NativeSortFull<E, K> {
    /// The one key with every attribute fixed: the end of a chain that
    /// fixed each of them (`.city("Lyon").zip("69001").eq()?`).
    pub fn eq(&self) -> CondResult<E, K> {
        self.chain.cond(None)
    }
}
