//! Queue over a sparse index: enqueue, claim, complete, reaper, concurrent workers (seed 000).
//!
//! `cargo run --example queue` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::queue;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(queue::RECIPE.name));
    queue::setup(&db).await?;
    let report = queue::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        queue::RECIPE.name,
        queue::RECIPE.seed
    );
    let tables = (queue::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
