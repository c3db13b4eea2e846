//! Sparse index: entering and leaving it by update (seed 000).
//!
//! `cargo run --example sparse_index` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::sparse_index;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(sparse_index::RECIPE.name));
    sparse_index::setup(&db).await?;
    let report = sparse_index::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        sparse_index::RECIPE.name,
        sparse_index::RECIPE.seed
    );
    let tables = (sparse_index::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
