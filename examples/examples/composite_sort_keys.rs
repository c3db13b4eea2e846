//! Composite sort keys (seed 003).
//!
//! `cargo run --example composite_sort_keys` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::composite_sort_keys;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(
        composite_sort_keys::RECIPE.name,
    ));
    composite_sort_keys::setup(&db).await?;
    let report = composite_sort_keys::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        composite_sort_keys::RECIPE.name,
        composite_sort_keys::RECIPE.seed
    );
    let tables = (composite_sort_keys::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
