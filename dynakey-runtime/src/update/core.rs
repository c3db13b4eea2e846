//! What every generated update builder holds and does.
//!
//! `Order::update(..)` returns a struct the derive generates, whose type
//! parameters track which fields are set (DYNA226/228). Its state and the
//! steps that are the same for every entity live here once, so each
//! generated setter is a few calls and the derive's output stays small.

use crate::codec::Attr;
use crate::error::EncodeError;
use crate::error::Error;
use crate::error::KeyFormatError;
use crate::expr::{Condition, Update};
use crate::key::Key;

use super::{IntoField, UpdateParts};

/// The state of one typed update of entity `E`. `V` holds the values of the
/// fields that feed index keys (a tuple the derive lays out), from which
/// the keys are rebuilt when the update is sent.
///
/// ```
/// use dynakey_runtime::__private::{Key, UpdateCore};
/// let key: Key<()> = Key::__new("pk", "USER#1".into(), None);
/// let mut u: UpdateCore<(), (Option<String>,)> = UpdateCore::patch(Ok(key), (None,), "pk");
/// u.put("plan", &"pro".to_owned());
/// u.vals.0 = Some("pro".into());
/// u.index_key("gsi1pk", Some(Ok("PLAN#pro".into())));
/// let parts = u.finish().unwrap();
/// assert!(parts.condition.is_some()); // the item must exist
/// ```
pub struct UpdateCore<E, V> {
    key: Result<Key<E>, KeyFormatError>,
    /// The index-key inputs set so far.
    pub vals: V,
    /// What does not depend on the entity: the expression, the condition
    /// and the first error (its methods are compiled once, not once per
    /// entity; reached through `Deref`).
    core: Core,
}

/// The entity-independent state of a typed update (see [`UpdateCore`]).
#[derive(Debug, Default)]
pub struct Core {
    /// The update expression.
    pub upd: Update,
    cond: Option<Condition>,
    err: Option<Error>,
}

impl<E, V> std::ops::Deref for UpdateCore<E, V> {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl<E, V> std::ops::DerefMut for UpdateCore<E, V> {
    fn deref_mut(&mut self) -> &mut Core {
        &mut self.core
    }
}

/// What a typed update will send (the index-key inputs are in the
/// expression already).
impl<E, V> std::fmt::Debug for UpdateCore<E, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedUpdate")
            .field("key", &self.key)
            .field("update", &self.core.upd)
            .field("condition", &self.core.cond)
            .field("error", &self.core.err)
            .finish()
    }
}

impl<E, V> UpdateCore<E, V> {
    /// An update of the existing item at `key`: it carries the condition
    /// that the item exists (its partition-key attribute `pk_attr`).
    pub fn patch(key: Result<Key<E>, KeyFormatError>, vals: V, pk_attr: &'static str) -> Self {
        UpdateCore {
            key,
            vals,
            core: Core::patch(pk_attr),
        }
    }

    /// An upsert at `key`: it writes the discriminator, so a new item is
    /// typed like one `put` wrote.
    pub fn upsert(
        key: Result<Key<E>, KeyFormatError>,
        vals: V,
        disc_attr: &'static str,
        disc: &'static str,
    ) -> Self {
        UpdateCore {
            key,
            vals,
            core: Core::upsert(disc_attr, disc),
        }
    }

    /// Keeps a field validator's refusal of the value set; it is returned
    /// when the update is sent, instead of sending it.
    pub fn check<M: std::fmt::Display>(&mut self, field: &'static str, r: Result<(), M>)
    where
        E: crate::entity::Entity,
    {
        if let Err(e) = crate::rules::check_field(E::META.type_name, field, r) {
            self.core.err.get_or_insert(e);
        }
    }

    /// Rewrites the index key `k` writes (its template's attribute) when
    /// the update touches one of its inputs: the key text when every input
    /// is present, nothing otherwise, so the item leaves the index.
    pub fn rekey(&mut self, k: crate::key::KeyWriter)
    where
        E: crate::entity::Entity,
    {
        self.core.rekey(k);
    }

    /// The key, the update and the condition, or the first error met.
    pub fn finish(self) -> Result<UpdateParts<E>, Error> {
        let (update, condition) = self.core.finish()?;
        Ok(UpdateParts {
            key: self.key?,
            update,
            condition,
        })
    }
}

impl Core {
    /// [`UpdateCore::rekey`] (not generic: one copy serves every entity);
    /// the key is held to the limit of its template's role.
    fn rekey(&mut self, k: crate::key::KeyWriter) {
        if k.touched() {
            let attr = k.template().attr();
            self.index_key(attr, k.finish_opt());
        }
    }

    fn patch(pk_attr: &'static str) -> Self {
        Core {
            upd: Update::new(),
            cond: Some(Condition::attr(pk_attr).exists()),
            err: None,
        }
    }

    fn upsert(disc_attr: &'static str, disc: &'static str) -> Self {
        Core {
            upd: Update::new().set_value(
                disc_attr,
                aws_sdk_dynamodb::types::AttributeValue::S(disc.to_owned()),
            ),
            cond: None,
            err: None,
        }
    }

    /// Sets attribute `attr` to the value `v` becomes (or removes it when
    /// that encodes to nothing) and returns the value: a derived setter in
    /// one call.
    pub fn set<T: Attr>(&mut self, attr: &'static str, v: impl IntoField<T>) -> T {
        let v = v.into_field();
        self.put(attr, &v);
        v
    }

    /// [`set`](Self::set) of an `omit_empty` field.
    pub fn set_omit_empty<T: Attr>(&mut self, attr: &'static str, v: impl IntoField<T>) -> T {
        let v = v.into_field();
        self.put_omit_empty(attr, &v);
        v
    }

    /// [`set`](Self::set) of a `#[dynamo(serde)]` field (`name` for errors).
    pub fn set_serde<T: serde::Serialize>(
        &mut self,
        attr: &'static str,
        name: &'static str,
        v: impl IntoField<T>,
    ) -> T {
        let v = v.into_field();
        self.put_encoded(attr, crate::entity::serde_field::serde_to_attr(&v, name));
        v
    }

    /// [`set`](Self::set) of a `#[dynamo(ttl)]` field (epoch seconds).
    pub fn set_ttl<T: crate::codec::Ttl>(&mut self, attr: &'static str, v: impl IntoField<T>) -> T {
        let v = v.into_field();
        self.put_value(attr, v.ttl_to_attr());
        v
    }

    /// `SET attr = if_not_exists(attr, v)`, returning the value.
    pub fn set_if_not_exists<T: Attr>(&mut self, attr: &'static str, v: impl IntoField<T>) -> T {
        let v = v.into_field();
        match written(attr, &v) {
            Ok(a) => {
                let a = a.unwrap_or(aws_sdk_dynamodb::types::AttributeValue::Null(true));
                self.with(|u| u.set_if_not_exists(attr, a));
            }
            Err(e) => self.put_encoded(attr, Err(e)),
        }
        v
    }

    /// Sets attribute `attr` to `v`, or removes it when `v` encodes to
    /// nothing (`None`, an empty set); a value with no stored form the
    /// decoder reads back is the error the update reports.
    pub fn put<T: Attr>(&mut self, attr: &'static str, v: &T) {
        self.put_encoded(attr, written(attr, v));
    }

    /// [`put`](Self::put), removing the attribute when `v` is empty too
    /// (`omit_empty`).
    pub fn put_omit_empty<T: Attr>(&mut self, attr: &'static str, v: &T) {
        if v.is_empty_value() {
            self.put_value(attr, None);
        } else {
            self.put(attr, v);
        }
    }

    /// Sets or removes `attr`, whose value a field encoded otherwise (TTL,
    /// serde); an encoding error is kept and reported when the update is sent.
    pub fn put_encoded(
        &mut self,
        attr: &'static str,
        v: Result<Option<aws_sdk_dynamodb::types::AttributeValue>, EncodeError>,
    ) {
        match v {
            Ok(a) => self.put_value(attr, a),
            Err(e) => {
                self.err.get_or_insert(Error::from(e));
            }
        }
    }

    fn put_value(
        &mut self,
        attr: &'static str,
        a: Option<aws_sdk_dynamodb::types::AttributeValue>,
    ) {
        let upd = std::mem::take(&mut self.upd);
        self.upd = match a {
            Some(a) => upd.set_value(attr, a),
            None => upd.remove(attr),
        };
    }

    /// Sets string attribute `attr` (a key field of an upsert).
    pub fn put_str(&mut self, attr: &'static str, v: &str) {
        self.put_value(
            attr,
            Some(aws_sdk_dynamodb::types::AttributeValue::S(v.to_owned())),
        );
    }

    /// Applies an expression update (`ADD`, `list_append`, ...).
    pub fn with(&mut self, f: impl FnOnce(Update) -> Update) {
        self.upd = f(std::mem::take(&mut self.upd));
    }

    /// Removes `attr`.
    pub fn remove(&mut self, attr: &'static str) {
        self.upd = std::mem::take(&mut self.upd).remove(attr);
    }

    /// Writes index-key attribute `attr`: the key text when every input is
    /// present (`Some`), nothing otherwise, so the item leaves the index.
    pub fn index_key(&mut self, attr: &'static str, text: Option<Result<String, KeyFormatError>>) {
        match text {
            Some(Ok(s)) => {
                self.put_value(attr, Some(aws_sdk_dynamodb::types::AttributeValue::S(s)))
            }
            Some(Err(e)) => {
                self.err.get_or_insert(Error::from(e));
            }
            None => self.remove(attr),
        }
    }

    /// Adds a condition, joined with AND to any other.
    pub fn condition(&mut self, c: Condition) {
        self.cond = Some(Condition::join(self.cond.take(), c));
    }

    /// The update and the condition, or the first error met.
    fn finish(self) -> Result<(Update, Option<Condition>), Error> {
        match self.err {
            Some(e) => Err(e),
            None => Ok((self.upd, self.cond)),
        }
    }
}

/// What `v` writes to attribute `attr`, unless it has no stored form the
/// decoder reads back ([`Attr::unwritable`]).
fn written<T: Attr>(
    attr: &str,
    v: &T,
) -> Result<Option<aws_sdk_dynamodb::types::AttributeValue>, EncodeError> {
    match v.unwritable() {
        Some(u) => Err(EncodeError::unwritable(attr, u)),
        None => Ok(v.to_attr()),
    }
}
