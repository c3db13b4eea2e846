//! Version-7 uuid sort keys, newest first and time ranges (seed 003).
//!
//! `cargo run --example uuid7_newest_first` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::uuid7_newest_first;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(
        uuid7_newest_first::RECIPE.name,
    ));
    uuid7_newest_first::setup(&db).await?;
    let report = uuid7_newest_first::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        uuid7_newest_first::RECIPE.name,
        uuid7_newest_first::RECIPE.seed
    );
    let tables = (uuid7_newest_first::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
