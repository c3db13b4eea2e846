//! Write-sharded time series (seed 001).
//!
//! `cargo run --example sharded_time_series` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::sharded_time_series;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(
        sharded_time_series::RECIPE.name,
    ));
    sharded_time_series::setup(&db).await?;
    let report = sharded_time_series::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        sharded_time_series::RECIPE.name,
        sharded_time_series::RECIPE.seed
    );
    let tables = (sharded_time_series::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
