//! Adjacency list + inverted index (seed 000, 001).
//!
//! `cargo run --example adjacency` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::adjacency;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(adjacency::RECIPE.name));
    adjacency::setup(&db).await?;
    let report = adjacency::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        adjacency::RECIPE.name,
        adjacency::RECIPE.seed
    );
    let tables = (adjacency::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
