// clippy reads two `#[gsi(.., sparse)]` helper attributes as one attribute
// written twice (rust-clippy duplicated_attributes); they are two indexes.
#![allow(clippy::duplicated_attributes)]

//! The entities of the seed documents (the recipes), shared by the example
//! programs, the integration tests and the benchmarks, and the recipes
//! themselves: each seed pattern as a function that writes its items, reads
//! them the way the seed describes and returns what it read.

pub mod demo;
pub mod designs;
pub mod documented;
pub mod infra;
pub mod meter;
pub mod recipes;
pub mod report;
pub mod seeds;
pub mod stream_capture;
pub mod task_counts;

use dynakey::codec::Item;
use dynakey::local::Backend;
use dynakey::{Db, Error, Key};

/// A table name for one run of a recipe, unique so that runs and tests can
/// share one server: `dynakey-<recipe>-<12 hex digits>`.
///
/// ```
/// let a = dynakey_examples::table_name("adjacency");
/// assert!(a.starts_with("dynakey-adjacency-"));
/// assert_ne!(a, dynakey_examples::table_name("adjacency"));
/// ```
pub fn table_name(recipe: &str) -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("dynakey-{recipe}-{}", &id[..12])
}

/// Deletes the tables of a run on an external endpoint (`DYNAKEY_ENDPOINT`
/// or real DynamoDB); the embedded engine forgets them when dropped.
pub async fn finish(local: &Backend, tables: &[&Db]) -> Result<(), Error> {
    if local.is_embedded() {
        return Ok(());
    }
    for db in tables {
        dynakey::table::delete_table(db.client(), db.table_name()).await?;
    }
    Ok(())
}

/// Runs one recipe on `local`: a fresh table, the recipe, its tables
/// deleted afterwards on an external endpoint; returns the rendered report.
/// What each example program and the tour do.
pub async fn run_recipe(local: &Backend, recipe: &recipes::Recipe) -> Result<String, Error> {
    let db = local.db(table_name(recipe.name));
    let report = (recipe.run)(db.clone()).await?;
    let tables = (recipe.tables)(&db);
    finish(local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(report)
}

/// The item stored at `key` exactly as DynamoDB holds it (every attribute,
/// the key attributes included), read consistently; for checking stored
/// shapes.
pub async fn raw_item<E>(db: &Db, key: &Key<E>) -> Result<Option<Item>, Error> {
    let out = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| Error::Sdk(Box::new(e)))?;
    Ok(out.item().filter(|i| !i.is_empty()).cloned())
}

/// A string attribute of a raw item, `None` when absent or not a string.
///
/// ```
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let mut item = dynakey::codec::Item::new();
/// item.insert("pk".into(), AttributeValue::S("USER#alice".into()));
/// assert_eq!(dynakey_examples::attr_s(&item, "pk"), Some("USER#alice"));
/// assert_eq!(dynakey_examples::attr_s(&item, "gsi1pk"), None);
/// ```
pub fn attr_s<'a>(item: &'a Item, name: &str) -> Option<&'a str> {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
}
