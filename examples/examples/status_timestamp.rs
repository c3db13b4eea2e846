//! Status + timestamp compound sort key and `move`; status-keyed index (seed 001, 000).
//!
//! `cargo run --example status_timestamp` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::status_timestamp;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(status_timestamp::RECIPE.name));
    status_timestamp::setup(&db).await?;
    let report = status_timestamp::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        status_timestamp::RECIPE.name,
        status_timestamp::RECIPE.seed
    );
    let tables = (status_timestamp::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
