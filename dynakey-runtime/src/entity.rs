//! The trait every `#[derive(DynamoEntity)]` type implements, and the
//! metadata a runtime or a tool reads from it.

use crate::codec::{DecodeError, Item};
use crate::error::{EncodeError, KeyFormatError, KeyRole};
use crate::key::Key;

mod field;
pub(crate) mod serde_field;
mod vector_meta;

pub use field::{FieldForm, FieldMeta};
pub use vector_meta::{limits, Distance, VectorIndexMeta};

pub use crate::key::native_attr::{KeyAttrType, NativeAttr, NativeKey};

/// A type stored as DynamoDB items, implemented by `#[derive(DynamoEntity)]`.
///
/// `#[derive(DynamoEntity)]` writes this impl; the `dynakey` crate's
/// documentation has more of the generated code.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::Entity;
/// let n = Note { user: "ann".into(), id: 7, tag: Some("red".into()), text: "hi".into() };
/// let item = n.to_item().unwrap();
/// assert_eq!(item["sk"].as_s().unwrap(), "NOTE#000007");
/// assert_eq!(item["gsi1pk"].as_s().unwrap(), "TAG#red");
/// assert_eq!(Note::from_item(&item).unwrap(), n);
/// assert_eq!(n.item_key().unwrap(), Note::key("ann", 7).unwrap());
/// ```
pub trait Entity: Sized + Send + Sync + 'static {
    /// What the derive knows about the entity.
    const META: &'static EntityMeta;

    /// The item: attributes, the discriminator, and every key attribute
    /// (table and indexes; none of a sparse index while an input is absent).
    fn to_item(&self) -> Result<Item, EncodeError>;

    /// Reads an item back. Fails with the attribute path at fault, or when
    /// the item's discriminator names another entity.
    fn from_item(item: &Item) -> Result<Self, DecodeError>;

    /// The table key of this item.
    fn item_key(&self) -> Result<Key<Self>, KeyFormatError>;

    /// Runs the `#[dynamo(validate = ..)]` functions of the fields and of
    /// the entity: [`Error::Invalid`](crate::Error::Invalid) names the
    /// first that refuses. Every put runs it before anything is sent (a
    /// put, a batch, a transaction, a move); nothing to check by default.
    fn validate(&self) -> Result<(), crate::Error> {
        Ok(())
    }
}

/// Static description of an entity, from the derive: what a tool (or
/// `create_table`) reads about its keys, indexes and fields.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::{Entity, IndexKind};
/// let m = Note::META;
/// assert_eq!((m.type_name, m.discriminator, m.discriminator_attr), ("Note", "NOTE", "entity"));
/// assert_eq!(m.pk.attr, "pk");
/// assert_eq!(m.sk.as_ref().unwrap().template, "NOTE#<id:d6>");
/// let ix = m.index("GSI1").unwrap();
/// let (pk, sk) = ix.template().unwrap();
/// assert_eq!((ix.kind, ix.sparse, pk.attr), (IndexKind::Global, true, "gsi1pk"));
/// assert_eq!(pk.prefix, "TAG#");
/// assert_eq!(pk.fields, ["tag"]);
/// assert_eq!(sk.unwrap().attr, "gsi1sk");
/// assert!(m.fields.iter().any(|f| f.name == "tag" && f.optional));
/// assert_eq!((m.ttl_attr, m.version_attr), (None, None));
/// assert_eq!((m.created_at, m.updated_at, m.unique.len()), (None, None, 0));
/// ```
#[derive(Debug)]
#[must_use]
pub struct EntityMeta {
    /// The Rust type's name.
    pub type_name: &'static str,
    /// The discriminator value, e.g. `MEMBER`.
    pub discriminator: &'static str,
    /// The attribute holding the discriminator.
    pub discriminator_attr: &'static str,
    /// The table's partition key.
    pub pk: KeyMeta,
    /// The table's sort key, if the table has one.
    pub sk: Option<KeyMeta>,
    /// Every global and local index the entity writes.
    pub indexes: &'static [IndexMeta],
    /// The stored fields.
    pub fields: &'static [FieldMeta],
    /// The TTL attribute (epoch seconds), if any.
    pub ttl_attr: Option<&'static str>,
    /// The optimistic-lock version attribute (`#[dynamo(version)]`), if any:
    /// a put writes the next version on condition that the stored one is
    /// the item's, and a typed update bumps it.
    pub version_attr: Option<&'static str>,
    /// The `#[dynamo(created_at)]` attribute, if any: written once, when the
    /// item is created (see [`crate::rules`]).
    pub created_at: Option<&'static str>,
    /// The `#[dynamo(updated_at)]` attribute, if any: written by every put
    /// and typed update.
    pub updated_at: Option<&'static str>,
    /// The `#[dynamo(unique)]` fields' attributes: each value is held by a
    /// guard item (see [`crate::rules`]).
    pub unique: &'static [&'static str],
    /// The scoped ones among them (`#[dynamo(unique(scope = field))]`),
    /// each with its scope's attribute: a value is held once per value of
    /// the scope (one email per tenant), by a guard keyed by both.
    pub unique_scopes: &'static [(&'static str, &'static str)],
    /// The vector indexes (`#[vector_index(..)]`), searched with
    /// [`Db::search`](crate::Db::search): see [`crate::vector`].
    pub vectors: &'static [VectorIndexMeta],
}

impl EntityMeta {
    /// What the derive writes: the entity's type, discriminator (and its
    /// attribute), keys, indexes and fields; the rest is set by the
    /// `__with_*` calls that follow when the entity has them.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        type_name: &'static str,
        discriminator: &'static str,
        discriminator_attr: &'static str,
        pk: KeyMeta,
        sk: Option<KeyMeta>,
        indexes: &'static [IndexMeta],
        fields: &'static [FieldMeta],
    ) -> Self {
        EntityMeta {
            type_name,
            discriminator,
            discriminator_attr,
            pk,
            sk,
            indexes,
            fields,
            ttl_attr: None,
            version_attr: None,
            created_at: None,
            updated_at: None,
            unique: &[],
            unique_scopes: &[],
            vectors: &[],
        }
    }

    /// The metadata of a failed derive (the crate does not compile).
    #[doc(hidden)]
    pub const fn __stub(type_name: &'static str) -> Self {
        const EMPTY: crate::key::KeyTemplate = crate::key::KeyTemplate::new("", "", &[]);
        Self::__new(
            type_name,
            "",
            "",
            KeyMeta::__of(&EMPTY, &[]),
            None,
            &[],
            &[],
        )
    }

    /// The TTL attribute.
    #[doc(hidden)]
    pub const fn __with_ttl(mut self, attr: &'static str) -> Self {
        self.ttl_attr = Some(attr);
        self
    }

    /// The version attribute.
    #[doc(hidden)]
    pub const fn __with_version(mut self, attr: &'static str) -> Self {
        self.version_attr = Some(attr);
        self
    }

    /// The `created_at` attribute.
    #[doc(hidden)]
    pub const fn __with_created_at(mut self, attr: &'static str) -> Self {
        self.created_at = Some(attr);
        self
    }

    /// The `updated_at` attribute.
    #[doc(hidden)]
    pub const fn __with_updated_at(mut self, attr: &'static str) -> Self {
        self.updated_at = Some(attr);
        self
    }

    /// The unique attributes.
    #[doc(hidden)]
    pub const fn __with_unique(mut self, attrs: &'static [&'static str]) -> Self {
        self.unique = attrs;
        self
    }

    /// The scoped unique attributes, each with its scope's attribute.
    #[doc(hidden)]
    pub const fn __with_unique_scopes(
        mut self,
        scopes: &'static [(&'static str, &'static str)],
    ) -> Self {
        self.unique_scopes = scopes;
        self
    }

    /// The vector indexes.
    #[doc(hidden)]
    pub const fn __with_vectors(mut self, vectors: &'static [VectorIndexMeta]) -> Self {
        self.vectors = vectors;
        self
    }

    /// The vector index named `name`.
    pub fn vector(&self, name: &str) -> Option<&VectorIndexMeta> {
        self.vectors.iter().find(|v| v.name == name)
    }

    /// The attribute whose value scopes unique attribute `attr` (`None`:
    /// one value per table).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// #[derive(DynamoEntity)]
    /// #[dynamo(crate = "dynakey_runtime", entity = "USER")]
    /// #[pk("TENANT#<tenant>#USER#<id>")]
    /// struct User {
    ///     tenant: String,
    ///     id: String,
    ///     #[dynamo(unique(scope = tenant))]
    ///     email: String,
    ///     #[dynamo(unique)]
    ///     handle: String,
    /// }
    /// use dynakey_runtime::Entity;
    /// assert_eq!(User::META.unique_scope("email"), Some("tenant"));
    /// assert_eq!(User::META.unique_scope("handle"), None);
    /// ```
    pub fn unique_scope(&self, attr: &str) -> Option<&'static str> {
        self.unique_scopes
            .iter()
            .find(|(a, _)| *a == attr)
            .map(|(_, s)| *s)
    }

    /// The index named `name`.
    pub fn index(&self, name: &str) -> Option<&IndexMeta> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// Every template key attribute the entity writes, with its role (for
    /// its size limit): the table's keys, then each template index's (a
    /// native index's attributes are the fields' own: [`IndexMeta::native`]).
    /// A local index's partition key is the table's, listed once.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String> }
    /// use dynakey_runtime::{key::KeyRole, Entity};
    /// let keys: Vec<_> = Note::META.keys().map(|(k, role)| (k.attr, role)).collect();
    /// assert_eq!(keys, [("pk", KeyRole::Partition), ("sk", KeyRole::Sort),
    ///                   ("gsi1pk", KeyRole::Partition), ("gsi1sk", KeyRole::Sort)]);
    /// assert_eq!(Note::META.key_role("gsi1sk"), Some(KeyRole::Sort));
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = (&KeyMeta, KeyRole)> + '_ {
        let table = std::iter::once((&self.pk, KeyRole::Partition))
            .chain(self.sk.iter().map(|k| (k, KeyRole::Sort)));
        let indexes = self.indexes.iter().flat_map(move |ix| {
            let (pk, sk) = ix.template().unzip();
            let pk = pk.filter(|k| k.attr != self.pk.attr);
            let pk = pk.map(|k| (k, KeyRole::Partition));
            pk.into_iter()
                .chain(sk.flatten().map(|k| (k, KeyRole::Sort)))
        });
        table.chain(indexes)
    }

    /// The role of key attribute `attr` (see [`keys`](Self::keys)), `None`
    /// when it is no key attribute of the entity.
    pub fn key_role(&self, attr: &str) -> Option<KeyRole> {
        self.keys().find(|(k, _)| k.attr == attr).map(|(_, r)| r)
    }
}

/// One key attribute and the template that fills it (see the example on [`EntityMeta`]).
#[derive(Debug)]
pub struct KeyMeta {
    /// The attribute name, e.g. `pk`, `gsi1sk`.
    pub attr: &'static str,
    /// The template, e.g. `SITE#<country>#<city>#EMP#<number:d6>`.
    pub template: &'static str,
    /// The literal text before the first placeholder (`SITE#`).
    pub prefix: &'static str,
    /// The fields the template reads, in order.
    pub fields: &'static [&'static str],
    /// The template's parts and formats, as the runtime writes and reads it.
    pub key: &'static crate::key::KeyTemplate,
}

impl KeyMeta {
    /// The metadata of the key `key` fills (its attribute, text and prefix
    /// come from the template), reading `fields`: what the derive writes.
    #[doc(hidden)]
    pub const fn __of(
        key: &'static crate::key::KeyTemplate,
        fields: &'static [&'static str],
    ) -> Self {
        Self::__new(key.attr(), fields, key)
    }

    /// The metadata of attribute `attr` filled by `key`, reading `fields`
    /// (what the derive writes; the template text and prefix come from
    /// `key`).
    #[doc(hidden)]
    pub const fn __new(
        attr: &'static str,
        fields: &'static [&'static str],
        key: &'static crate::key::KeyTemplate,
    ) -> Self {
        KeyMeta {
            attr,
            template: key.text(),
            prefix: key.prefix(),
            fields,
            key,
        }
    }
}

/// Global or local (see the example on [`EntityMeta`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    /// A global secondary index.
    Global,
    /// A local secondary index (the table's partition key).
    Local,
}

/// A secondary index (see the example on [`EntityMeta`]): its name, kind,
/// key and projection.
///
/// Its key has one of two forms ([`IndexKey`]): synthetic key attributes
/// filled from templates, or a native key over the items' own attributes.
/// Code that needs the key attributes whatever the form reads
/// [`IndexMeta::pk_attrs`], [`IndexMeta::sk_attrs`] and
/// [`IndexMeta::key_attrs`]; code that needs the templates matches on
/// [`IndexMeta::key`] (or calls [`IndexMeta::template`]), so a native index
/// cannot be mistaken for a template one.
///
/// ```
/// use dynakey_runtime::entity::{IndexMeta, IndexProjection};
/// use dynakey_runtime::{KeyAttrType::*, NativeAttr};
/// static PK: [NativeAttr; 2] = [NativeAttr::__new("tenant", "tenant", S), NativeAttr::__new("region", "region", S)];
/// static SK: [NativeAttr; 1] = [NativeAttr::__new("score", "score", N)];
/// static IX: IndexMeta = IndexMeta::__native("ByRegion", &PK, &SK, false, IndexProjection::All);
/// assert!(IX.template().is_none());
/// assert_eq!(IX.pk_attrs().collect::<Vec<_>>(), [("tenant", S), ("region", S)]);
/// assert_eq!(IX.sk_attrs().collect::<Vec<_>>(), [("score", N)]);
/// assert_eq!(IX.fields(), ["tenant", "region", "score"]);
/// ```
#[derive(Debug)]
pub struct IndexMeta {
    /// The index name, e.g. `GSI1`.
    pub name: &'static str,
    /// Global or local.
    pub kind: IndexKind,
    /// The key: templates or native attributes.
    pub key: IndexKey,
    /// Whether an item with an absent input stays out of the index.
    pub sparse: bool,
    /// What the index holds of each item (`projection = ".."` on the index).
    pub projection: IndexProjection,
}

/// The key of an index (see [`IndexMeta`]).
#[derive(Debug)]
pub enum IndexKey {
    /// Key attributes of their own (`gsi1pk`, `gsi1sk`), each filled from
    /// a template; always strings.
    Template {
        /// The partition key (for a local index, the table's).
        pk: KeyMeta,
        /// The sort key.
        sk: Option<KeyMeta>,
    },
    /// A native key: the items' own attributes, which DynamoDB keeps the
    /// index key of by itself (global indexes only).
    Native(NativeKey),
}

impl IndexMeta {
    /// What the derive writes for a template index: the index's name comes
    /// from its partition key's template.
    #[doc(hidden)]
    pub const fn __new(
        kind: IndexKind,
        pk: KeyMeta,
        sk: Option<KeyMeta>,
        sparse: bool,
        projection: IndexProjection,
    ) -> Self {
        let name = match pk.key.index() {
            Some(n) => n,
            None => "",
        };
        IndexMeta {
            name,
            kind,
            key: IndexKey::Template { pk, sk },
            sparse,
            projection,
        }
    }

    /// What the derive writes for a native index (always global).
    #[doc(hidden)]
    pub const fn __native(
        name: &'static str,
        pk: &'static [NativeAttr],
        sk: &'static [NativeAttr],
        sparse: bool,
        projection: IndexProjection,
    ) -> Self {
        IndexMeta {
            name,
            kind: IndexKind::Global,
            key: IndexKey::Native(NativeKey { pk, sk }),
            sparse,
            projection,
        }
    }

    /// The templates of a template index (partition, sort); `None` for a
    /// native one.
    pub fn template(&self) -> Option<(&KeyMeta, Option<&KeyMeta>)> {
        match &self.key {
            IndexKey::Template { pk, sk } => Some((pk, sk.as_ref())),
            IndexKey::Native(_) => None,
        }
    }

    /// The native key of a native index; `None` for a template one.
    pub fn native(&self) -> Option<&NativeKey> {
        match &self.key {
            IndexKey::Native(n) => Some(n),
            IndexKey::Template { .. } => None,
        }
    }

    /// Whether the index has a native key.
    pub fn is_native(&self) -> bool {
        matches!(self.key, IndexKey::Native(_))
    }

    /// The partition key attributes and their types, in key-schema order
    /// (a template index: its one string attribute).
    pub fn pk_attrs(&self) -> KeyAttrs {
        match &self.key {
            IndexKey::Template { pk, .. } => KeyAttrs::one(Some(pk.attr)),
            IndexKey::Native(n) => KeyAttrs::native(n.pk),
        }
    }

    /// The sort key attributes and their types, in key-schema order
    /// (a template index: its string attribute, if it has a sort key).
    pub fn sk_attrs(&self) -> KeyAttrs {
        match &self.key {
            IndexKey::Template { sk, .. } => KeyAttrs::one(sk.as_ref().map(|k| k.attr)),
            IndexKey::Native(n) => KeyAttrs::native(n.sk),
        }
    }

    /// Every key attribute's name: partition attributes, then sort ones.
    pub fn key_attrs(&self) -> impl Iterator<Item = &'static str> {
        self.pk_attrs().chain(self.sk_attrs()).map(|(a, _)| a)
    }

    /// The fields the index key reads, each once, in key order.
    pub fn fields(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        let mut add = |f: &'static str| {
            if !out.contains(&f) {
                out.push(f);
            }
        };
        match &self.key {
            IndexKey::Template { pk, sk } => {
                for f in pk.fields.iter().chain(sk.iter().flat_map(|k| k.fields)) {
                    add(f);
                }
            }
            IndexKey::Native(n) => {
                for a in n.attrs() {
                    add(a.field);
                }
            }
        }
        out
    }
}

/// The key attributes of one part of an index key, with their types (see
/// [`IndexMeta::pk_attrs`]).
#[derive(Debug, Clone)]
pub struct KeyAttrs {
    one: Option<&'static str>,
    many: std::slice::Iter<'static, NativeAttr>,
}

impl KeyAttrs {
    fn one(attr: Option<&'static str>) -> Self {
        KeyAttrs {
            one: attr,
            many: [].iter(),
        }
    }

    fn native(attrs: &'static [NativeAttr]) -> Self {
        KeyAttrs {
            one: None,
            many: attrs.iter(),
        }
    }
}

impl Iterator for KeyAttrs {
    type Item = (&'static str, KeyAttrType);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(a) = self.one.take() {
            return Some((a, KeyAttrType::S));
        }
        self.many.next().map(|a| (a.attr, a.ty))
    }
}

/// What an index holds of each item: `#[gsi(.., projection = "KEYS_ONLY")]`,
/// `projection = "INCLUDE(title, status)"`, or every attribute (`ALL`, the
/// default). `create_table` creates the index so; with several entities on
/// one index, `ALL` wins, else the included attributes add up. A
/// `KEYS_ONLY` or `INCLUDE` index also holds the discriminator, so a read
/// of it knows each item's type.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
/// # #[pk("TASK#<id>")]
/// # #[gsi("GSI1", pk = "OWNER#<owner>", sk = "TASK#<id>", projection = "INCLUDE(title)")]
/// # #[gsi("GSI2", pk = "STATUS#<status>", sk = "TASK#<id>", projection = "KEYS_ONLY")]
/// # struct Task { id: String, owner: String, status: String, title: String, body: String }
/// use dynakey_runtime::{entity::IndexProjection, Entity};
/// let m = Task::META;
/// assert_eq!(m.index("GSI1").unwrap().projection, IndexProjection::Include(&["title"]));
/// assert_eq!(m.index("GSI2").unwrap().projection, IndexProjection::KeysOnly);
/// assert!(!m.index("GSI2").unwrap().projection.holds_all());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexProjection {
    /// Every attribute.
    All,
    /// The table and index key attributes (and the discriminator).
    KeysOnly,
    /// The keys, the discriminator and these attributes.
    Include(&'static [&'static str]),
}

impl IndexProjection {
    /// Whether the index holds whole items.
    pub fn holds_all(self) -> bool {
        self == IndexProjection::All
    }
}
