//! Migrations: typed, named, ordered steps that move stored items to the
//! code's current shape. Each is built by a `const fn`, so a table's list
//! is a `const` the `DynamoTable` derive can read at compile time (a
//! migration covers the drift it names: DYNA501–DYNA505).

#[cfg(feature = "migrate")]
use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::entity::{Entity, EntityMeta};
use crate::error::Error;

/// What a rekey found in one stored item.
#[derive(Debug)]
// Read by the runner (feature `migrate`); a migration is declared without it.
#[cfg_attr(not(feature = "migrate"), allow(dead_code))]
pub(crate) enum Rekeyed {
    /// An item of the old shape, and the new item it becomes.
    Old(Item),
    /// Anything else (the new shape, another entity): left alone.
    Skip,
}

pub(crate) type Convert = fn(&Item) -> Result<Rekeyed, Error>;
pub(crate) type Reencode = fn(&Item) -> Result<Option<Item>, Error>;

/// One step of a migration.
#[derive(Debug, Clone, Copy)]
// Read by the runner (feature `migrate`); a migration is declared without it.
#[cfg_attr(not(feature = "migrate"), allow(dead_code))]
pub(crate) enum Kind {
    Rekey {
        from: &'static EntityMeta,
        to: &'static EntityMeta,
        convert: Convert,
    },
    Backfill {
        entity: &'static EntityMeta,
        reencode: Reencode,
    },
    Rename {
        entity: &'static EntityMeta,
        from: &'static str,
        to: &'static str,
    },
    FillDefault {
        entity: &'static EntityMeta,
        attr: &'static str,
        reencode: Reencode,
    },
    Drop {
        discriminator: &'static str,
        attr: &'static str,
    },
    DropIndex {
        entity: &'static EntityMeta,
        index: &'static str,
    },
}

/// A named migration step. Build them with the `const fn`s below and list
/// them, in order, in a `const` the table names with
/// `#[dynamo(migrations = PATH)]`; run them with `db.migrate(PATH)`.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "ORDER")]
/// # #[pk("C#<customer>")] #[sk("ORDER#<n:d4>")]
/// # struct OrderV1 { customer: String, n: u32 }
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "ORDER")]
/// # #[pk("C#<customer>")] #[sk("ORDER#<n:d6>")]
/// # struct Order { customer: String, n: u32 }
/// # impl From<OrderV1> for Order { fn from(o: OrderV1) -> Self { Order { customer: o.customer, n: o.n } } }
/// use dynakey_runtime::schema::Migration;
/// const MIGRATIONS: &[Migration] = &[
///     Migration::rekey::<OrderV1, Order>("orders-d6"),
///     Migration::rename_attribute::<Order>("order-mail", "mail", "email"),
///     Migration::drop_entity("old-sessions", "SESSION", "_type"),
/// ];
/// assert_eq!(MIGRATIONS[0].name(), "orders-d6");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    name: &'static str,
    pub(crate) kind: Kind,
}

fn key_of(meta: &EntityMeta, item: &Item) -> (Option<String>, Option<String>) {
    let s = |a: &str| item.get(a).and_then(|v| v.as_s().ok()).cloned();
    (s(meta.pk.attr), meta.sk.as_ref().and_then(|k| s(k.attr)))
}

fn convert<O: Entity, N: Entity + From<O>>(item: &Item) -> Result<Rekeyed, Error> {
    let Ok(old) = O::from_item(item) else {
        return Ok(Rekeyed::Skip);
    };
    // A value the old key cannot hold is not an old item (a new one whose
    // number needs the wider format, say).
    let Ok(key) = old.item_key() else {
        return Ok(Rekeyed::Skip);
    };
    let stored = key_of(O::META, item);
    if stored != (Some(key.pk().to_owned()), key.sk().map(str::to_owned)) {
        return Ok(Rekeyed::Skip);
    }
    Ok(Rekeyed::Old(N::from(old).to_item()?))
}

fn reencode<E: Entity>(item: &Item) -> Result<Option<Item>, Error> {
    match E::from_item(item) {
        Ok(e) => Ok(Some(e.to_item()?)),
        Err(_) => Ok(None),
    }
}

impl Migration {
    /// Re-keys entity `N`'s items from the old shape `O` (the previous
    /// struct, kept in the code under another name) to the new one: each
    /// old item is moved (a transaction deleting it and putting
    /// `N::from(old)` where no item is). Covers every drift of `N`'s keys,
    /// discriminator and fields (DYNA501–DYNA503).
    pub const fn rekey<O: Entity, N: Entity + From<O>>(name: &'static str) -> Self {
        Migration {
            name,
            kind: Kind::Rekey {
                from: O::META,
                to: N::META,
                convert: convert::<O, N>,
            },
        }
    }

    /// Writes the index keys of every item of `E` as `to_item()` would:
    /// backfills an index added to an existing table, or rewrites one whose
    /// template changed (DYNA504). It also removes the key attributes of the
    /// live table's indexes that `to_item()` no longer writes and that are
    /// none of `E`'s fields: the synthetic `gsi1pk`/`gsi1sk` of an index
    /// moved to a native key (DynamoDB fills the native index from the
    /// attributes items already hold), or of one dropped from `E`. A native
    /// key attribute stored in another form than `to_item()`'s (an instant
    /// another client wrote with an offset) is rewritten, so the index
    /// orders it by its value. Each write is conditioned on what it was made
    /// from being unchanged, so a concurrent writer wins (counted as raced).
    pub const fn backfill<E: Entity>(name: &'static str) -> Self {
        Migration {
            name,
            kind: Kind::Backfill {
                entity: E::META,
                reencode: reencode::<E>,
            },
        }
    }

    /// Renames attribute `from` to `to` on every item of `E` (DYNA503).
    pub const fn rename_attribute<E: Entity>(
        name: &'static str,
        from: &'static str,
        to: &'static str,
    ) -> Self {
        Migration {
            name,
            kind: Kind::Rename {
                entity: E::META,
                from,
                to,
            },
        }
    }

    /// Writes attribute `attr` of every item of `E` that lacks it, with the
    /// value the item reads as (its field's `#[dynamo(default)]`).
    pub const fn fill_default<E: Entity>(name: &'static str, attr: &'static str) -> Self {
        Migration {
            name,
            kind: Kind::FillDefault {
                entity: E::META,
                attr,
                reencode: reencode::<E>,
            },
        }
    }

    /// Deletes every item whose attribute `attr` holds `discriminator`: an
    /// entity removed from the code (DYNA505).
    pub const fn drop_entity(
        name: &'static str,
        discriminator: &'static str,
        attr: &'static str,
    ) -> Self {
        Migration {
            name,
            kind: Kind::Drop {
                discriminator,
                attr,
            },
        }
    }

    /// Removes the synthetic key attributes of template index `index` of
    /// `E` (the old struct, which still declares the index) from every item
    /// of `E`: the last step of moving an index onto native keys, after
    /// `db.sync_table(..)` has added the native one. Items that hold none
    /// are left alone; the removal is idempotent, so a writer racing it
    /// loses nothing. An index that is not a template index of `E` removes
    /// nothing.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
    /// # #[pk("T#<id>")] #[sk("TASK")]
    /// # #[gsi("GSI1", pk = "OWNER#<owner>", sk = "T#<id>")]
    /// # struct TaskV1 { id: String, owner: String }
    /// use dynakey_runtime::schema::Migration;
    /// const MIGRATIONS: &[Migration] = &[Migration::drop_index::<TaskV1>("tasks-native", "GSI1")];
    /// assert_eq!(MIGRATIONS[0].name(), "tasks-native");
    /// ```
    pub const fn drop_index<E: Entity>(name: &'static str, index: &'static str) -> Self {
        Migration {
            name,
            kind: Kind::DropIndex {
                entity: E::META,
                index,
            },
        }
    }

    /// The migration's name (its checkpoints are stored under it).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The discriminator attribute and value of the items it reads.
    #[cfg(feature = "migrate")]
    pub(crate) fn target(&self) -> (&'static str, &'static str) {
        match self.kind {
            Kind::Rekey { from, .. } => (from.discriminator_attr, from.discriminator),
            Kind::Backfill { entity, .. }
            | Kind::Rename { entity, .. }
            | Kind::FillDefault { entity, .. }
            | Kind::DropIndex { entity, .. } => (entity.discriminator_attr, entity.discriminator),
            Kind::Drop {
                discriminator,
                attr,
            } => (attr, discriminator),
        }
    }

    /// Whether `item` is one this step reads.
    #[cfg(feature = "migrate")]
    pub(crate) fn reads(&self, item: &Item) -> bool {
        let (attr, value) = self.target();
        matches!(item.get(attr), Some(AttributeValue::S(s)) if s == value)
    }
}
