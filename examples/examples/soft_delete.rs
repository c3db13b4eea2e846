//! Soft delete and restore by update (seed 000).
//!
//! `cargo run --example soft_delete` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::soft_delete;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(soft_delete::RECIPE.name));
    soft_delete::setup(&db).await?;
    let report = soft_delete::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        soft_delete::RECIPE.name,
        soft_delete::RECIPE.seed
    );
    let tables = (soft_delete::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
