//! Large objects: chunks + manifest, versioned (seed 003).
//!
//! `cargo run --example large_objects` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::large_objects;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(large_objects::RECIPE.name));
    large_objects::setup(&db).await?;
    let report = large_objects::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        large_objects::RECIPE.name,
        large_objects::RECIPE.seed
    );
    let tables = (large_objects::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
