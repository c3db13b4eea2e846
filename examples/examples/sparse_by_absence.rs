//! Sparse index by absence (seed 001).
//!
//! `cargo run --example sparse_by_absence` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::sparse_by_absence;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(sparse_by_absence::RECIPE.name));
    sparse_by_absence::setup(&db).await?;
    let report = sparse_by_absence::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        sparse_by_absence::RECIPE.name,
        sparse_by_absence::RECIPE.seed
    );
    let tables = (sparse_by_absence::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
