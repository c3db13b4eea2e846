//! Time-bucketed partitions (seed 003).
//!
//! `cargo run --example time_buckets` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::time_buckets;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(time_buckets::RECIPE.name));
    time_buckets::setup(&db).await?;
    let report = time_buckets::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        time_buckets::RECIPE.name,
        time_buckets::RECIPE.seed
    );
    let tables = (time_buckets::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
