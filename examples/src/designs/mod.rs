//! The design of every recipe's table, drawn from its `DynamoTable` and a
//! few example values: what `cargo run --example design` writes as
//! Markdown, HTML and NoSQL Workbench models, and what its live view
//! checks a table against.
//!
//! ```
//! let shop = dynakey_examples::designs::find("shop").unwrap();
//! let design = (shop.build)().unwrap();
//! assert!(design.markdown().contains("| `#PROFILE` | UserProfile |"));
//! assert_eq!(dynakey_examples::designs::find("users_orders_products").unwrap().name, "shop");
//! ```

pub mod native_keys;
pub mod tables;
pub mod values;

use dynakey::design::TableDesign;
use dynakey::EncodeError;
use time::macros::datetime;

use tables::*;
use values::*;

/// One table of the catalogue.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The table's name in the documents (and in `seed`'s file database).
    pub name: &'static str,
    /// The recipe that writes it (`cargo run --example <recipe>`), if any.
    pub recipe: Option<&'static str>,
    /// Builds the design.
    pub build: fn() -> Result<TableDesign, EncodeError>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry").field("name", &self.name).finish()
    }
}

fn base(name: &str, entities: &[&'static dynakey::EntityMeta], about: &str) -> TableDesign {
    TableDesign::from_metas(name, entities)
        .describe(about)
        .dated(datetime!(2026-07-16 09:00 UTC))
}

macro_rules! entry {
    ($name:literal, $recipe:expr, $table:ty, $about:literal, [$($ex:expr),* $(,)?]) => {
        Entry {
            name: $name,
            recipe: $recipe,
            build: || {
                let d = base($name, <$table>::ENTITIES, $about);
                $(let d = d.example(&$ex)?;)*
                Ok(d)
            },
        }
    };
}

/// Every table: each recipe's (named after it, but the shop), the
/// design-patterns table of seeds 000 and 003, and the task tracker.
pub const ALL: &[Entry] = &[
    entry!(
        "shop",
        Some("users_orders_products"),
        Shop,
        "Seed 002: users, their orders, order details and products, with enriched keys.",
        [user_profile(), user_order(), order_info(), product()]
    ),
    entry!(
        "adjacency",
        Some("adjacency"),
        Adjacency,
        "Seed 000: a graph of users and teams; GSI1 reverses the membership edge.",
        [member(), membership(), team()]
    ),
    entry!(
        "index_overloading",
        Some("index_overloading"),
        IndexOverloading,
        "Seed 000: one GSI, a meaning per type.",
        [staffer(), expense(), warehouse()]
    ),
    entry!(
        "sparse_index",
        Some("sparse_index"),
        SparseIndex,
        "Seed 000: GSI2 holds only items with every input.",
        [
            subscribers()[0].clone(),
            subscribers()[1].clone(),
            article()
        ]
    ),
    entry!(
        "sparse_index-legacy",
        Some("sparse_index"),
        SparseIndexLegacy,
        "Seed 000: the omit_empty variant, an empty plan left out with its index key.",
        [
            legacy_subscribers()[0].clone(),
            legacy_subscribers()[1].clone()
        ]
    ),
    entry!(
        "queue",
        Some("queue"),
        Queue,
        "Seed 000: a queue over two sparse indexes, pending and claimed.",
        [
            queued_jobs()[0].clone(),
            queued_jobs()[1].clone(),
            user_order()
        ]
    ),
    entry!(
        "queue-priority",
        Some("queue"),
        QueuePriority,
        "Seed 000: the priority queue, most urgent first.",
        [priority_job()]
    ),
    entry!(
        "soft_delete",
        Some("soft_delete"),
        SoftDelete,
        "Seed 000: soft delete by leaving the sparse live index.",
        [notes()[0].clone(), notes()[1].clone(), owned_note()]
    ),
    entry!(
        "composite_sort_keys",
        Some("composite_sort_keys"),
        CompositeSortKeys,
        "Seed 003: composite sort keys with fixed-width numbers.",
        [employee(), adjustment()]
    ),
    entry!(
        "uuid7_newest_first",
        Some("uuid7_newest_first"),
        Uuid7NewestFirst,
        "Seed 003: v7 uuid sort keys, newest first by a backward read.",
        [chat_message()]
    ),
    entry!(
        "write_sharding",
        Some("write_sharding"),
        WriteSharding,
        "Seed 003: random and hashed write shards.",
        [vote(), user_session()]
    ),
    entry!(
        "time_buckets",
        Some("time_buckets"),
        TimeBuckets,
        "Seed 003: time-bucketed partitions.",
        [metric_sample()]
    ),
    entry!(
        "large_objects",
        Some("large_objects"),
        LargeObjects,
        "Seed 003: large objects in chunks with a manifest, plain and versioned.",
        [
            file_chunk(),
            file_manifest(),
            version_chunk(),
            current_version()
        ]
    ),
    entry!(
        "sparse_by_absence",
        Some("sparse_by_absence"),
        SparseByAbsence,
        "Seed 001: only flagged documents carry GSI1 keys.",
        [documents()[0].clone(), documents()[1].clone()]
    ),
    entry!(
        "status_timestamp",
        Some("status_timestamp"),
        StatusTimestamp,
        "Seed 001: status + timestamp compound keys.",
        [customer_order(), work_item()]
    ),
    entry!(
        "reverse_timestamp",
        Some("reverse_timestamp"),
        ReverseTimestamp,
        "Seed 001: customers ascending, each one's orders newest first.",
        [store_order()]
    ),
    entry!(
        "multi_tenant",
        Some("multi_tenant"),
        MultiTenant,
        "Seed 001: the tenant is the partition.",
        [tenant_doc()]
    ),
    entry!(
        "sharded_time_series",
        Some("sharded_time_series"),
        ShardedTimeSeries,
        "Seed 001: a device's month is a partition.",
        [device_event()]
    ),
    entry!(
        "zero_padded",
        Some("zero_padded"),
        ZeroPadded,
        "Seed 001: zero-padded numbers sort as numbers; a hand-made key does not.",
        [ticket(), hand_keyed()]
    ),
    entry!(
        "patterns",
        None,
        Patterns,
        "Seeds 000 and 003: every entity of the design-patterns table, sharing GSI1 and GSI2.",
        [
            member(),
            membership(),
            team(),
            staffer(),
            expense(),
            warehouse(),
            subscribers()[0].clone(),
            article(),
            queued_jobs()[0].clone(),
            queued_jobs()[1].clone(),
            work_item(),
            notes()[0].clone(),
            owned_note(),
            employee(),
            adjustment(),
            chat_message(),
            vote(),
            user_session(),
            metric_sample(),
            file_chunk(),
            file_manifest()
        ]
    ),
    entry!(
        "tracker",
        None,
        Tracker,
        "A task tracker: each task's comments sit under its prefix, an overlap the table allows.",
        [task(), comment()]
    ),
    entry!(
        "native_keys",
        Some("native_keys"),
        NativeKeys,
        "Seed 000: the status-keyed index on a native key, ByOwner pk(owner) sk(status, id).",
        [native_work_item()]
    ),
    entry!(
        "native_orders",
        None,
        NativeOrders,
        "Orders on native index keys: two partition attributes, a sparse index sorted by a number.",
        [native_orders()[0].clone(), native_orders()[1].clone()]
    ),
];

/// The entry named `name`, or the first one its recipe writes (so a
/// recipe's name finds its table; see the module's example).
pub fn find(name: &str) -> Option<&'static Entry> {
    ALL.iter()
        .find(|e| e.name == name)
        .or_else(|| ALL.iter().find(|e| e.recipe == Some(name)))
}
