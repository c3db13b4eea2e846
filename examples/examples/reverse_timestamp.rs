//! Reverse timestamp (seed 001).
//!
//! `cargo run --example reverse_timestamp` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::reverse_timestamp;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(reverse_timestamp::RECIPE.name));
    reverse_timestamp::setup(&db).await?;
    let report = reverse_timestamp::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        reverse_timestamp::RECIPE.name,
        reverse_timestamp::RECIPE.seed
    );
    let tables = (reverse_timestamp::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
