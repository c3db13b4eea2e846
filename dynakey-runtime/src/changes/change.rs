//! A typed change: what happened to one item, as values of its entity
//! type, which fields differ and which indexes it entered or left.

use std::fmt;
use std::time::SystemTime;

use super::record::Operation;
use crate::codec::Item;
pub use crate::error::change::Image;

/// One change of one item, decoded as `T` (a `#[derive(DynamoUnion)]` enum
/// or a single entity), from any source (see [`ChangeDecoder`](super::ChangeDecoder)).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind, ChangeRecord, Operation};
/// use dynakey_runtime::Entity;
/// let old = Note { user: "ann".into(), id: 1, tag: None, text: "hi".into() };
/// let new = Note { tag: Some("red".into()), ..old.clone() };
/// let keys = old.item_key().unwrap().to_attributes();
/// let record = ChangeRecord::new(Operation::Modify, keys)
///     .with_old(old.to_item().unwrap())
///     .with_new(new.to_item().unwrap());
/// let change = ChangeDecoder::<Note>::entity().decode(&record).unwrap();
/// assert!(change.entered("GSI1"));                       // tagged: now in the sparse index
/// assert!(change.changed("tag") && !change.changed("text"));
/// assert_eq!(change.new_item(), Some(&new));
/// assert!(matches!(change.kind, ChangeKind::Modified { .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Change<T> {
    /// What happened, with the typed images.
    pub kind: ChangeKind<T>,
    /// The indexes the item entered, left or moved in; indexes it stayed
    /// out of, or stayed in at the same key, are not listed.
    pub indexes: Vec<IndexChange>,
    /// The item's key attributes.
    pub keys: Item,
    /// The record's sequence number (order within a shard).
    pub sequence_number: Option<String>,
    /// The shard it was read from (set by the consumer).
    pub shard_id: Option<String>,
    /// The record's event id.
    pub event_id: Option<String>,
    /// The table, when the record names it (Kinesis records do: one
    /// Kinesis stream can carry several tables' changes; so does a Lambda
    /// event record, by its `eventSourceARN`).
    pub table: Option<String>,
    /// When the change was made, approximately (see
    /// [`ChangeRecord::created_at`](super::ChangeRecord::created_at)).
    pub created_at: Option<SystemTime>,
}

/// What happened to the item (see the example on [`Change`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ChangeKind<T> {
    /// A new item.
    Inserted(T),
    /// An item written over; `changed` names the fields whose stored
    /// value differs (Rust field names, in declaration order).
    Modified {
        /// Before.
        old: T,
        /// After.
        new: T,
        /// The fields that differ.
        changed: Vec<&'static str>,
    },
    /// An item deleted by a request.
    Removed(T),
    /// An item deleted by TTL.
    Expired(T),
    /// An item of no type the decoder knows (its discriminator names none),
    /// kept as raw images. A strict decoder reports an error instead.
    Unknown {
        /// What happened.
        op: Operation,
        /// The discriminator found (empty when absent).
        discriminator: String,
        /// The raw item before, if the record has it.
        old: Option<Item>,
        /// The raw item after, if the record has it.
        new: Option<Item>,
    },
    /// A change whose record lacks an image it needs (the stream's view
    /// type leaves it out), when the decoder allows partial changes;
    /// otherwise that is an error. Holds the images the record has.
    Partial {
        /// What happened.
        op: Operation,
        /// Before, if the record has it.
        old: Option<T>,
        /// After, if the record has it.
        new: Option<T>,
        /// The images the record lacks.
        lacks: Lacks,
    },
}

/// The images a record lacks for its change.
///
/// ```
/// use dynakey_runtime::changes::{Image, Lacks};
/// assert!(Lacks::Both.includes(Image::Old) && !Lacks::New.includes(Image::Old));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lacks {
    /// The old image.
    Old,
    /// The new image.
    New,
    /// Both.
    Both,
}

impl Lacks {
    /// Whether `image` is among them.
    pub fn includes(self, image: Image) -> bool {
        matches!(
            (self, image),
            (Self::Both, _) | (Self::Old, Image::Old) | (Self::New, Image::New)
        )
    }

    pub(crate) fn of(old: bool, new: bool) -> Option<Self> {
        match (old, new) {
            (true, true) => Some(Self::Both),
            (true, false) => Some(Self::Old),
            (false, true) => Some(Self::New),
            (false, false) => None,
        }
    }
}

/// How a change moved the item with respect to one index.
///
/// ```
/// use dynakey_runtime::changes::{IndexChange, IndexTransition};
/// let c = IndexChange { index: "GSI1", transition: IndexTransition::Left };
/// assert_eq!(c.to_string(), "left GSI1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexChange {
    /// The index name.
    pub index: &'static str,
    /// Entered, left or moved.
    pub transition: IndexTransition,
}

impl fmt::Display for IndexChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = match self.transition {
            IndexTransition::Entered => "entered",
            IndexTransition::Left => "left",
            IndexTransition::Moved => "moved in",
        };
        write!(f, "{t} {}", self.index)
    }
}

/// An item is in an index while all of the index's key attributes exist
/// (the guide's Guarantees page); a change can bring it in, take it out, or change
/// its index key (see the example on [`IndexChange`]). An item is in a vector
/// index while it holds a vector of the index's dimensions and its scope;
/// it moves there when its vector or its scope's value changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexTransition {
    /// Not in the index before, in it after.
    Entered,
    /// In the index before, not after.
    Left,
    /// In it before and after, under another index key (in a vector
    /// index: another vector or scope).
    Moved,
}

impl<T> Change<T> {
    /// What happened.
    ///
    /// ```
    /// # use dynakey_runtime::changes::{Change, Operation};
    /// fn is_delete<T>(c: &Change<T>) -> bool {
    ///     matches!(c.op(), Operation::Remove | Operation::Expire)
    /// }
    /// # let _ = is_delete::<()>;
    /// ```
    pub fn op(&self) -> Operation {
        match &self.kind {
            ChangeKind::Inserted(_) => Operation::Insert,
            ChangeKind::Modified { .. } => Operation::Modify,
            ChangeKind::Removed(_) => Operation::Remove,
            ChangeKind::Expired(_) => Operation::Expire,
            ChangeKind::Unknown { op, .. } | ChangeKind::Partial { op, .. } => *op,
        }
    }

    /// The item after the change, when there is one and the record has it
    /// (see the example on [`Change`]).
    pub fn new_item(&self) -> Option<&T> {
        match &self.kind {
            ChangeKind::Inserted(n) | ChangeKind::Modified { new: n, .. } => Some(n),
            ChangeKind::Partial { new, .. } => new.as_ref(),
            _ => None,
        }
    }

    /// The item before the change, when there was one and the record has it.
    ///
    /// ```
    /// # use dynakey_runtime::changes::Change;
    /// fn before<T: Clone>(c: &Change<T>) -> Option<T> { c.old_item().cloned() }
    /// # let _ = before::<()>;
    /// ```
    pub fn old_item(&self) -> Option<&T> {
        match &self.kind {
            ChangeKind::Removed(o)
            | ChangeKind::Expired(o)
            | ChangeKind::Modified { old: o, .. } => Some(o),
            ChangeKind::Partial { old, .. } => old.as_ref(),
            _ => None,
        }
    }

    /// Whether field `name` (the Rust name) differs: true for a
    /// [`ChangeKind::Modified`] that lists it, false otherwise (see the
    /// example on [`Change`]).
    pub fn changed(&self, name: &str) -> bool {
        matches!(&self.kind, ChangeKind::Modified { changed, .. } if changed.contains(&name))
    }

    /// What happened with respect to index `name`, if anything.
    ///
    /// ```
    /// # use dynakey_runtime::changes::{Change, IndexTransition};
    /// fn flagged<T>(c: &Change<T>) -> bool {
    ///     c.index("GSI1") == Some(IndexTransition::Entered)
    /// }
    /// # let _ = flagged::<()>;
    /// ```
    pub fn index(&self, name: &str) -> Option<IndexTransition> {
        self.indexes
            .iter()
            .find(|c| c.index == name)
            .map(|c| c.transition)
    }

    /// Whether the item entered index `name` (see the example on [`Change`]).
    pub fn entered(&self, name: &str) -> bool {
        self.index(name) == Some(IndexTransition::Entered)
    }

    /// Whether the item left index `name`.
    ///
    /// ```
    /// # use dynakey_runtime::changes::Change;
    /// fn unflagged<T>(c: &Change<T>) -> bool { c.left("GSI1") }
    /// # let _ = unflagged::<()>;
    /// ```
    pub fn left(&self, name: &str) -> bool {
        self.index(name) == Some(IndexTransition::Left)
    }
}
