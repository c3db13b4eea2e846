//! A design view of a table, drawn from the code that runs it: every
//! entity, key and index as Markdown (for READMEs), as one self-contained
//! HTML page (no network, printable), and as a NoSQL Workbench data model
//! that opens in AWS's own tool with every entity as a facet; and a live
//! view of a table's items ([`TableDesign::live`]): grouped by partition,
//! each with its entity and index keys, with the items that match no entity
//! and the items whose stored keys drifted from what `to_item()` writes.
//!
//! A design lists the table's entities once. With their types
//! ([`TableDesign::entity`], [`TableDesign::example`]) the live view also
//! decodes each item and checks its keys; with metadata alone
//! ([`TableDesign::from_metas`], e.g. a `#[derive(DynamoTable)]`'s
//! `ENTITIES`) it draws the design and names each item's entity.
//!
//! ```
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "USER")]
//! # #[pk("USER#<user_id>")]
//! # #[sk("#PROFILE")]
//! # struct UserProfile { user_id: String, name: String }
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "USER_ORDER")]
//! # #[pk("USER#<user_id>")]
//! # #[sk("ORDER#<order_id>")]
//! # struct UserOrder { user_id: String, order_id: String }
//! use dynakey_runtime::design::TableDesign;
//! let design = TableDesign::new("shop")
//!     .example(&UserProfile { user_id: "u1".into(), name: "Alice".into() })?
//!     .example(&UserOrder { user_id: "u1".into(), order_id: "o1".into() })?;
//! let md = design.markdown();
//! assert!(md.contains("| `#PROFILE` | UserProfile |"), "{md}");
//! assert!(design.html().starts_with("<!DOCTYPE html>"));
//! assert!(design.workbench().contains(r#""FacetName": "UserOrder""#));
//! # Ok::<(), dynakey_runtime::EncodeError>(())
//! ```

mod analysis;
mod html;
mod json;
mod live;
mod live_render;
mod markdown;
mod text;
mod vectors;
mod workbench;

pub use live::{ItemStatus, KeyDrift, LiveItem, LiveView};

use time::OffsetDateTime;

use crate::codec::Item;
use crate::entity::{Entity, EntityMeta};
use crate::error::EncodeError;

/// Decodes an item as its entity and encodes it again: what `to_item()`
/// of the decoded value stores.
type Reencode = fn(&Item) -> Result<Item, Reencoded>;

/// Why re-encoding failed.
#[derive(Debug, Clone)]
pub(crate) enum Reencoded {
    /// `from_item` failed.
    Decode(String),
    /// `to_item` of the decoded value failed.
    Encode(String),
}

/// Whether two metas describe one entity. (A `const` reached through two
/// paths, `E::META` and a table's `ENTITIES`, need not have one address.)
fn same_entity(a: &EntityMeta, b: &EntityMeta) -> bool {
    std::ptr::eq(a, b)
        || (a.type_name == b.type_name
            && a.discriminator == b.discriminator
            && a.pk.template == b.pk.template)
}

fn reencode<E: Entity>(item: &Item) -> Result<Item, Reencoded> {
    let value = E::from_item(item).map_err(|e| Reencoded::Decode(e.to_string()))?;
    value
        .to_item()
        .map_err(|e| Reencoded::Encode(e.to_string()))
}

/// One entity of a design: its metadata, its decoder when its type is
/// known, and example items.
#[derive(Debug, Clone)]
pub(crate) struct EntityDesign {
    pub(crate) meta: &'static EntityMeta,
    pub(crate) reencode: Option<Reencode>,
    pub(crate) examples: Vec<Item>,
}

/// The design of one table: its entities, from which every view is drawn
/// (see the [module documentation](self) for an example).
#[derive(Debug, Clone)]
#[must_use]
pub struct TableDesign {
    name: String,
    description: Option<String>,
    date: Option<OffsetDateTime>,
    pub(crate) entities: Vec<EntityDesign>,
}

impl TableDesign {
    /// An empty design of table `name`; add entities with
    /// [`entity`](Self::entity) or [`example`](Self::example).
    ///
    /// ```
    /// let d = dynakey_runtime::design::TableDesign::new("shop");
    /// assert_eq!((d.name(), d.metas().len()), ("shop", 0));
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        TableDesign {
            name: name.into(),
            description: None,
            date: None,
            entities: Vec::new(),
        }
    }

    /// A design from entity metadata alone, such as the `ENTITIES` of a
    /// `#[derive(DynamoTable)]`: every view is drawn, and the live view
    /// names each item's entity by its discriminator but cannot decode it
    /// to check its keys (add the types with [`entity`](Self::entity)).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32 }
    /// use dynakey_runtime::{design::TableDesign, Entity};
    /// let d = TableDesign::from_metas("notes", &[Note::META]);
    /// assert!(d.markdown().contains("`NOTE#<id:d6>`"));
    /// assert!(d.markdown().contains("`NOTE#000007`"), "an illustrative key");
    /// ```
    pub fn from_metas(name: impl Into<String>, metas: &[&'static EntityMeta]) -> Self {
        let mut d = TableDesign::new(name);
        for m in metas {
            d.slot(m);
        }
        d
    }

    fn slot(&mut self, meta: &'static EntityMeta) -> &mut EntityDesign {
        let at = match self.entities.iter().position(|e| same_entity(e.meta, meta)) {
            Some(i) => i,
            None => {
                self.entities.push(EntityDesign {
                    meta,
                    reencode: None,
                    examples: Vec::new(),
                });
                self.entities.len() - 1
            }
        };
        &mut self.entities[at]
    }

    /// Adds entity `E` with its type, so the live view decodes its items
    /// and checks their keys (adding it twice, or after
    /// [`from_metas`](Self::from_metas), keeps one entry).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32 }
    /// use dynakey_runtime::{design::TableDesign, Entity};
    /// let d = TableDesign::from_metas("notes", &[Note::META]).entity::<Note>();
    /// assert_eq!(d.metas().len(), 1);
    /// ```
    pub fn entity<E: Entity>(mut self) -> Self {
        self.slot(E::META).reencode = Some(reencode::<E>);
        self
    }

    /// Adds `value` as an example item of its entity (adding the entity
    /// with its type when missing): its keys become the design's example
    /// keys, and the item goes into the Workbench model's sample data.
    ///
    /// Fails when `value` cannot be stored (a key format refuses it).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32 }
    /// use dynakey_runtime::design::TableDesign;
    /// let d = TableDesign::new("notes").example(&Note { user: "ann".into(), id: 42 }).unwrap();
    /// assert!(d.markdown().contains("`NOTE#000042`"));
    /// ```
    pub fn example<E: Entity>(mut self, value: &E) -> Result<Self, EncodeError> {
        let item = value.to_item()?;
        let slot = self.slot(E::META);
        slot.reencode = Some(reencode::<E>);
        slot.examples.push(item);
        Ok(self)
    }

    /// A sentence or two on what the table is for, shown under its title.
    ///
    /// ```
    /// let d = dynakey_runtime::design::TableDesign::new("shop").describe("Users and orders.");
    /// assert!(d.markdown().contains("Users and orders."));
    /// ```
    pub fn describe(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// The date the Workbench model says it was created and modified (the
    /// time of the call by default); fix it for output that must not change.
    ///
    /// ```
    /// let d = dynakey_runtime::design::TableDesign::new("shop")
    ///     .dated(time::macros::datetime!(2026-07-16 09:00 UTC));
    /// assert!(d.workbench().contains("Jul 16, 2026, 09:00 AM"));
    /// ```
    pub fn dated(mut self, at: OffsetDateTime) -> Self {
        self.date = Some(at);
        self
    }

    /// The table's name (see the example on [`new`](Self::new)).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description, if any (see [`describe`](Self::describe)).
    ///
    /// ```
    /// let d = dynakey_runtime::design::TableDesign::new("t").describe("x");
    /// assert_eq!(d.description(), Some("x"));
    /// ```
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The entities' metadata, in the order they were added (see the
    /// example on [`new`](Self::new)).
    pub fn metas(&self) -> Vec<&'static EntityMeta> {
        self.entities.iter().map(|e| e.meta).collect()
    }

    /// The design as Markdown: entities, keys with formats and example
    /// keys, item collections in sort-key order, which fields feed which
    /// key, sparse indexes, and sort-key overlaps (DYNA305) with their cost.
    /// See the [module documentation](self) for an example.
    pub fn markdown(&self) -> String {
        markdown::design(self)
    }

    /// The design as one self-contained HTML page (inline style, no script,
    /// no network), readable in any browser and printable. See the
    /// [module documentation](self) for an example.
    pub fn html(&self) -> String {
        html::design(self)
    }

    /// The design as a NoSQL Workbench data model (its JSON import format,
    /// version 3.0): the table with its key attributes, attributes and
    /// global indexes, one facet per entity keyed by its templates, and the
    /// example items as sample data. See the [module documentation](self)
    /// for an example.
    pub fn workbench(&self) -> String {
        workbench::model(self)
    }

    pub(crate) fn created(&self) -> OffsetDateTime {
        self.date.unwrap_or_else(OffsetDateTime::now_utc)
    }
}
