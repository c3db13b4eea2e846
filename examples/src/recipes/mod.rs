//! Every seed pattern as a recipe: `setup` creates the table it needs,
//! `run` writes the seed's items, reads them the way the seed describes and
//! returns a report of what it read (the tests assert on it; `Display`
//! prints it). The example programs under `examples/examples/` and the tour
//! run these.

use dynakey::BoxFuture;
use dynakey::{Db, Error};

pub mod adjacency;
pub mod composite_sort_keys;
pub mod export_to_laptop;
pub mod index_overloading;
pub mod large_objects;
pub mod multi_tenant;
pub mod native_keys;
pub mod queue;
pub mod reverse_timestamp;
pub mod schema_evolution;
pub mod sharded_time_series;
pub mod similar_tickets;
pub mod soft_delete;
pub mod sparse_by_absence;
pub mod sparse_index;
pub mod status_timestamp;
pub mod time_buckets;
pub mod users_orders_products;
pub mod uuid7_newest_first;
pub mod write_sharding;
pub mod zero_padded;

/// A recipe, for running it without naming its report type (the tour).
#[derive(Clone, Copy)]
pub struct Recipe {
    /// The name of its example program (`cargo run --example <name>`).
    pub name: &'static str,
    /// The seed document and section it comes from.
    pub seed: &'static str,
    /// One line on what it shows.
    pub about: &'static str,
    /// Creates the table(s) on `db`, runs the recipe and renders its report.
    pub run: fn(Db) -> BoxFuture<'static, Result<String, Error>>,
    /// Every table the recipe uses on `db` (`db` itself, and any other it
    /// creates next to it), for deleting them afterwards.
    pub tables: fn(&Db) -> Vec<Db>,
}

impl std::fmt::Debug for Recipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recipe").field("name", &self.name).finish()
    }
}

/// Declares a module's `RECIPE` from its `setup`, `run` and `Report`.
macro_rules! recipe {
    ($name:literal, $seed:literal, $about:literal) => {
        $crate::recipes::recipe!($name, $seed, $about, |db| vec![db.clone()]);
    };
    ($name:literal, $seed:literal, $about:literal, $tables:expr) => {
        /// This recipe, for the tour.
        pub const RECIPE: $crate::recipes::Recipe = $crate::recipes::Recipe {
            name: $name,
            seed: $seed,
            about: $about,
            run: |db| {
                Box::pin(async move {
                    setup(&db).await?;
                    Ok(run(&db).await?.to_string())
                })
            },
            tables: $tables,
        };
    };
}
pub(crate) use recipe;

/// Every recipe, in the order of the seeds.
pub const ALL: &[Recipe] = &[
    adjacency::RECIPE,
    index_overloading::RECIPE,
    sparse_index::RECIPE,
    queue::RECIPE,
    soft_delete::RECIPE,
    composite_sort_keys::RECIPE,
    uuid7_newest_first::RECIPE,
    write_sharding::RECIPE,
    time_buckets::RECIPE,
    large_objects::RECIPE,
    sparse_by_absence::RECIPE,
    status_timestamp::RECIPE,
    native_keys::RECIPE,
    reverse_timestamp::RECIPE,
    multi_tenant::RECIPE,
    sharded_time_series::RECIPE,
    zero_padded::RECIPE,
    users_orders_products::RECIPE,
    schema_evolution::RECIPE,
    export_to_laptop::RECIPE,
    similar_tickets::RECIPE,
];
