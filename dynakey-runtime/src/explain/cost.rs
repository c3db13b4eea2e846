//! The write units a write costs, estimated from the entity's metadata:
//! the table write and every index write, each rounded up to 1 KB a unit.
//!
//! The rules are DynamoDB's, as the embedded engine applies them (it
//! measured them against DynamoDB): an index the item enters or leaves
//! costs one write, an index whose key changes a delete plus a put (two
//! writes), an index whose key stays and whose stored attributes change one
//! write, and an index the item is not in (a sparse index without its
//! inputs) nothing. A transaction doubles the table's units; the index
//! writes it causes are ordinary writes. Indexes are taken to project all
//! attributes, so an index entry is as large as the item.
//!
//! Vector indexes are on their own axis, as DynamoDB reports them: a write
//! that changes an item's entry costs `VectorWriteRequestBytes` (the entry:
//! 4 bytes a dimension, the vector attribute's name, and the rest of what
//! the index holds, at least 1 KB), not write units. On a table with a
//! vector index the table's own units count a vector attribute at its name
//! plus 4 bytes a dimension, whatever numbers it holds. Both rules are the
//! ones the embedded engine captured from DynamoDB (dynoxide's
//! compatibility summary).

use std::fmt;

use crate::codec::Item;
use crate::entity::VectorIndexMeta;
use crate::entity::{EntityMeta, IndexMeta};
use crate::expr::Update;
use crate::size::{item_size, value_size};

/// The least `VectorWriteRequestBytes` a write of an entry reports.
const MIN_VECTOR_REQUEST_BYTES: usize = 1024;

/// What a write does to one index, and what that costs.
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
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// let n = Note { user: "ann".into(), id: 1, tag: Some("red".into()), text: String::new() };
/// let cost = db.put(&n).explain().unwrap().cost.unwrap();
/// assert_eq!((cost.indexes[0].index, cost.indexes[0].units), ("GSI1", 1.0));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct IndexWrite {
    /// The index.
    pub index: &'static str,
    /// What happens to the item's entry there.
    pub change: IndexChange,
    /// Write units (one per KB of the entry, per write).
    pub units: f64,
}

/// What a write does to an item's entry in one index.
///
/// ```
/// use dynakey_runtime::explain::IndexChange;
/// assert_eq!(IndexChange::Move.writes(), 2);
/// assert_eq!(IndexChange::Untouched.writes(), 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexChange {
    /// The item enters the index (or a put writes it): one write.
    Enter,
    /// The item leaves the index: one write.
    Leave,
    /// The index key changes: a delete plus a put, two writes.
    Move,
    /// The key stays and stored attributes change: one write.
    Rewrite,
    /// Nothing the index stores changes (or the item is not in it): free.
    Untouched,
}

impl IndexChange {
    /// Index writes this change takes.
    ///
    /// ```
    /// assert_eq!(dynakey_runtime::explain::IndexChange::Enter.writes(), 1);
    /// ```
    pub fn writes(self) -> u32 {
        match self {
            IndexChange::Move => 2,
            IndexChange::Untouched => 0,
            _ => 1,
        }
    }
}

/// What a write does to an item's entry in one vector index, and the bytes
/// DynamoDB reports for it (`VectorWriteRequestBytes`, on its own axis: not
/// write units).
///
/// An entry is addressed by the item's table key, so it never moves: a
/// write that changes what the index holds rewrites it in place.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "DOC", discriminator_attr = "entity")]
/// # #[pk("DOC#<id>")]
/// # #[vector_index("ByText", vector = v, dimensions = 3, distance = "COSINE")]
/// # struct Doc { id: String, v: Option<[f32; 3]> }
/// use dynakey_runtime::explain::IndexChange;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("docs");
/// let d = Doc { id: "d1".into(), v: Some([0.5, 0.25, 1.0]) };
/// let cost = db.put(&d).explain().unwrap().cost.unwrap();
/// assert_eq!((cost.vectors[0].index, cost.vectors[0].change), ("ByText", IndexChange::Enter));
/// assert_eq!(cost.vectors[0].request_bytes, Some(1024.0)); // a small entry: the floor
/// let sparse = Doc { id: "d2".into(), v: None };
/// let cost = db.put(&sparse).explain().unwrap().cost.unwrap();
/// assert_eq!(cost.vectors[0].change, IndexChange::Untouched);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct VectorWrite {
    /// The vector index.
    pub index: &'static str,
    /// What happens to the item's entry there (`Enter`, `Leave`,
    /// `Rewrite` or `Untouched`).
    pub change: IndexChange,
    /// `VectorWriteRequestBytes`, when the builder holds the item (a put);
    /// `None` when it depends on the stored item.
    pub request_bytes: Option<f64>,
}

/// The estimated cost of a write in write capacity units.
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
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// use dynakey_runtime::expr::Update;
/// let u = Update::new().set("tag", "blue").set("gsi1pk", "TAG#blue");
/// let cost = db.update_raw(Note::key("ann", 1).unwrap(), u).explain().unwrap().cost.unwrap();
/// assert_eq!((cost.table_units, cost.index_units(), cost.upper_bound), (1.0, 2.0, true));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[must_use]
pub struct WriteCost {
    /// The size of the item written (DynamoDB's count), when the builder
    /// holds it (a put); else each write is taken to be up to 1 KB.
    pub item_bytes: Option<usize>,
    /// The table's units (doubled in a transaction).
    pub table_units: f64,
    /// Every index of the entity and what the write does there.
    pub indexes: Vec<IndexWrite>,
    /// Every vector index of the entity and what the write does there.
    pub vectors: Vec<VectorWrite>,
    /// Whether the write is an action of a transaction.
    pub transactional: bool,
    /// Whether the estimate is an upper bound: the write's effect depends
    /// on the stored item (a delete, an update of a sparse index's input).
    pub upper_bound: bool,
}

/// Units of one write of `bytes` (1 KB a unit, at least one).
fn units(bytes: Option<usize>) -> f64 {
    bytes.map_or(1.0, |b| b.div_ceil(1024).max(1) as f64)
}

/// Whether `item` holds every key attribute of `ix` (a native index's
/// attributes are the item's own; an item lacking one is out of it).
fn in_index(ix: &IndexMeta, item: &Item) -> bool {
    ix.key_attrs().all(|a| item.contains_key(a))
}

/// The attributes whose change moves an item in `ix`: its key attributes
/// (for a native index, the fields themselves).
fn index_attrs(ix: &IndexMeta) -> impl Iterator<Item = &'static str> {
    ix.key_attrs()
}

/// The bytes DynamoDB bills a vector of `dimensions` at: 4 a dimension.
fn billed_vector(dimensions: u32) -> usize {
    4 * dimensions as usize
}

/// The size DynamoDB bills a write of `item` at: a vector attribute one of
/// the entity's vector indexes reads counts its name plus 4 bytes a
/// dimension; everything else as [`item_size`] counts it.
fn billed_size(meta: &EntityMeta, item: &Item) -> usize {
    if meta.vectors.is_empty() {
        return item_size(item);
    }
    item.iter()
        .map(|(name, value)| {
            let vector = meta
                .vectors
                .iter()
                .find(|v| v.vector_attr == name && v.reads(value));
            name.len() + vector.map_or_else(|| value_size(value), |v| billed_vector(v.dimensions))
        })
        .sum()
}

/// Whether `v` holds attribute `attr` of `meta`'s items besides the vector:
/// the table's keys, the search schema, and its non-key attributes.
fn vector_holds(v: &VectorIndexMeta, meta: &EntityMeta, attr: &str) -> bool {
    match v.non_key_attrs(meta.discriminator_attr) {
        None => true,
        Some(attrs) => {
            attr == meta.pk.attr
                || meta.sk.as_ref().is_some_and(|k| k.attr == attr)
                || v.schema_attrs().any(|(a, _, _)| a == attr)
                || attrs.contains(&attr)
        }
    }
}

/// `VectorWriteRequestBytes` of writing `item`'s entry in `v`: the vector
/// at 4 bytes a dimension, its name, and the rest of the entry, at least
/// 1 KB.
fn vector_request_bytes(v: &VectorIndexMeta, meta: &EntityMeta, item: &Item) -> f64 {
    let rest: usize = item
        .iter()
        .filter(|(name, _)| name.as_str() != v.vector_attr && vector_holds(v, meta, name))
        .map(|(name, value)| name.len() + value_size(value))
        .sum();
    let entry = billed_vector(v.dimensions) + v.vector_attr.len() + rest;
    entry.max(MIN_VECTOR_REQUEST_BYTES) as f64
}

impl WriteCost {
    fn new(item_bytes: Option<usize>, indexes: Vec<(&'static str, IndexChange)>) -> Self {
        let per = units(item_bytes);
        WriteCost {
            item_bytes,
            table_units: per,
            indexes: indexes
                .into_iter()
                .map(|(index, change)| IndexWrite {
                    index,
                    change,
                    units: per * f64::from(change.writes()),
                })
                .collect(),
            vectors: Vec::new(),
            transactional: false,
            upper_bound: false,
        }
    }

    /// The same cost with `change` on every vector index of `meta`, its
    /// bytes unknown (they depend on the stored item).
    fn vectors_unsized(
        mut self,
        meta: &EntityMeta,
        change: impl Fn(&VectorIndexMeta) -> IndexChange,
    ) -> Self {
        self.vectors = meta
            .vectors
            .iter()
            .map(|v| VectorWrite {
                index: v.name,
                change: change(v),
                request_bytes: None,
            })
            .collect();
        self
    }

    /// A put of `item` as a new item: the table write, and one write in
    /// each index the item is in.
    pub(crate) fn put(meta: &EntityMeta, item: &Item) -> Self {
        let ixs = meta
            .indexes
            .iter()
            .map(|ix| {
                let c = if in_index(ix, item) {
                    IndexChange::Enter
                } else {
                    IndexChange::Untouched
                };
                (ix.name, c)
            })
            .collect();
        let mut c = Self::new(Some(billed_size(meta, item)), ixs);
        c.vectors = meta
            .vectors
            .iter()
            .map(|v| {
                let enters = v.entry(item).is_some();
                VectorWrite {
                    index: v.name,
                    change: if enters {
                        IndexChange::Enter
                    } else {
                        IndexChange::Untouched
                    },
                    request_bytes: enters.then(|| vector_request_bytes(v, meta, item)),
                }
            })
            .collect();
        c
    }

    /// A delete: the item leaves every index it may be in.
    pub(crate) fn delete(meta: &EntityMeta) -> Self {
        let ixs = meta
            .indexes
            .iter()
            .map(|ix| (ix.name, IndexChange::Leave))
            .collect();
        let mut c = Self::new(None, ixs).vectors_unsized(meta, |_| IndexChange::Leave);
        // An item may lack a sparse index's inputs, or its vector.
        c.upper_bound = meta.indexes.iter().any(|ix| ix.sparse) || !meta.vectors.is_empty();
        c
    }

    /// An update: an index whose key attribute it sets moves, one whose key
    /// attribute it removes is left, any other is rewritten (all indexes
    /// project every attribute). A raw update is taken to move every index.
    pub(crate) fn update(meta: &EntityMeta, u: &Update) -> Self {
        let targets = u.targets();
        let ixs = meta
            .indexes
            .iter()
            .map(|ix| {
                let c = match &targets {
                    None => IndexChange::Move,
                    Some((set, removed)) => {
                        if index_attrs(ix).any(|a| removed.contains(&a)) {
                            IndexChange::Leave
                        } else if index_attrs(ix).any(|a| set.contains(&a)) {
                            IndexChange::Move
                        } else {
                            IndexChange::Rewrite
                        }
                    }
                };
                (ix.name, c)
            })
            .collect();
        // A vector entry is left when its vector or scope is removed, and
        // rewritten when anything it holds is set or removed (its vector
        // and scope included: whether that enters it depends on the stored
        // item, which costs the same bytes).
        let vector_change = |v: &VectorIndexMeta| match &targets {
            None => IndexChange::Rewrite,
            Some((set, removed)) => {
                let key = |a: &&str| *a == v.vector_attr || v.scope().is_some_and(|s| s.attr == *a);
                if removed.iter().any(key) {
                    IndexChange::Leave
                } else if set
                    .iter()
                    .chain(removed.iter())
                    .any(|a| *a == v.vector_attr || vector_holds(v, meta, a))
                {
                    IndexChange::Rewrite
                } else {
                    IndexChange::Untouched
                }
            }
        };
        let mut c = Self::new(None, ixs).vectors_unsized(meta, vector_change);
        c.upper_bound = targets.is_none()
            || meta.indexes.iter().any(|ix| ix.sparse)
            || c.vectors.iter().any(|v| v.change != IndexChange::Untouched);
        c
    }

    /// A write of an item in no index (a unique value's guard).
    pub(crate) fn plain() -> Self {
        Self::new(None, Vec::new())
    }

    /// A condition check in a transaction: a read, no write units.
    pub(crate) fn check() -> Self {
        let mut c = Self::new(None, Vec::new());
        c.table_units = 0.0;
        c.transactional = true;
        c
    }

    /// The same write as an action of a transaction (the table's units
    /// doubled).
    pub(crate) fn in_transaction(mut self) -> Self {
        if !self.transactional {
            self.transactional = true;
            self.table_units *= 2.0;
        }
        self
    }

    /// The same write, its units recomputed for an item of `bytes` (an
    /// update's or a delete's cost depends on the stored item, which the
    /// builder does not hold; for an update, the larger of the item before
    /// and after).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, tag: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let cost = backend.db("notes").delete(Note::key("ann", 1).unwrap()).explain().unwrap().cost.unwrap();
    /// assert_eq!(cost.total(), 2.0);
    /// assert_eq!(cost.sized(3000).total(), 6.0); // 3 units in the table, 3 in GSI1
    /// ```
    pub fn sized(mut self, bytes: usize) -> Self {
        let per = units(Some(bytes));
        let factor = if self.transactional { 2.0 } else { 1.0 };
        if self.table_units > 0.0 {
            self.table_units = per * factor;
        }
        for i in &mut self.indexes {
            i.units = per * f64::from(i.change.writes());
        }
        self.item_bytes = Some(bytes);
        self
    }

    /// `VectorWriteRequestBytes` summed over the vector indexes whose bytes
    /// are known (a put's), on their own axis: not in [`WriteCost::total`].
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "DOC", discriminator_attr = "entity")]
    /// # #[pk("DOC#<id>")]
    /// # #[vector_index("ByText", vector = v, dimensions = 512, distance = "COSINE")]
    /// # struct Doc { id: String, v: Vec<f32> }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let d = Doc { id: "d1".into(), v: vec![0.5; 512] };
    /// let cost = backend.db("docs").put(&d).explain().unwrap().cost.unwrap();
    /// // 4 bytes a dimension, the name "v", and the rest of the item (every
    /// // attribute, as the index projects ALL): pk, entity and id, each
    /// // its name and value.
    /// assert_eq!(cost.vector_bytes(), (512 * 4 + 1 + (2 + 6) + (6 + 3) + (2 + 2)) as f64);
    /// ```
    pub fn vector_bytes(&self) -> f64 {
        self.vectors.iter().filter_map(|v| v.request_bytes).sum()
    }

    /// Units spent on indexes.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, tag: String }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let n = Note { user: "ann".into(), id: 1, tag: "red".into() };
    /// let cost = backend.db("notes").put(&n).explain().unwrap().cost.unwrap();
    /// assert_eq!(cost.index_units(), 1.0);
    /// ```
    pub fn index_units(&self) -> f64 {
        self.indexes.iter().map(|i| i.units).sum()
    }

    /// Every unit: the table's and the indexes'.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, tag: String }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let n = Note { user: "ann".into(), id: 1, tag: "red".into() };
    /// let cost = backend.db("notes").put(&n).explain().unwrap().cost.unwrap();
    /// assert_eq!(cost.total(), 2.0);
    /// ```
    pub fn total(&self) -> f64 {
        self.table_units + self.index_units()
    }

    /// Index writes per table write: how much the indexes amplify the
    /// write (`0` without indexes).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, tag: String }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let n = Note { user: "ann".into(), id: 1, tag: "red".into() };
    /// let cost = backend.db("notes").put(&n).explain().unwrap().cost.unwrap();
    /// assert_eq!(cost.amplification(), 1);
    /// ```
    pub fn amplification(&self) -> u32 {
        self.indexes.iter().map(|i| i.change.writes()).sum()
    }

    /// The sum of several writes' costs (a batch, a transaction).
    pub(crate) fn sum(costs: impl IntoIterator<Item = WriteCost>) -> Option<Self> {
        let mut out: Option<WriteCost> = None;
        for c in costs {
            out = Some(match out {
                None => c,
                Some(mut acc) => {
                    acc.table_units += c.table_units;
                    acc.item_bytes = match (acc.item_bytes, c.item_bytes) {
                        (Some(a), Some(b)) => Some(a + b),
                        _ => None,
                    };
                    acc.indexes.extend(c.indexes);
                    acc.vectors.extend(c.vectors);
                    acc.transactional |= c.transactional;
                    acc.upper_bound |= c.upper_bound;
                    acc
                }
            });
        }
        out
    }
}

impl fmt::Display for WriteCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bound = if self.upper_bound { "at most " } else { "" };
        write!(f, "{bound}{} WCU: table {}", self.total(), self.table_units)?;
        if self.transactional {
            write!(f, " (transactional, doubled)")?;
        }
        // Per index: its units and what happens there (a sum of several
        // writes lists each change once).
        let mut seen: Vec<(&str, f64, Vec<IndexChange>)> = Vec::new();
        for i in self
            .indexes
            .iter()
            .filter(|i| i.change != IndexChange::Untouched)
        {
            match seen.iter_mut().find(|s| s.0 == i.index) {
                Some(s) => {
                    s.1 += i.units;
                    if !s.2.contains(&i.change) {
                        s.2.push(i.change);
                    }
                }
                None => seen.push((i.index, i.units, vec![i.change])),
            }
        }
        for (index, units, changes) in seen {
            write!(f, ", {index} {units} ({changes:?})")?;
        }
        // Vector indexes: bytes, not units (each write listed).
        for v in self
            .vectors
            .iter()
            .filter(|v| v.change != IndexChange::Untouched)
        {
            match v.request_bytes {
                Some(b) => write!(f, ", vector {} {b} bytes ({:?})", v.index, v.change)?,
                None => write!(f, ", vector {} ({:?})", v.index, v.change)?,
            }
        }
        match self.item_bytes {
            Some(b) => write!(f, "; item {b} bytes"),
            None => write!(f, "; each write taken as up to 1 KB"),
        }
    }
}
