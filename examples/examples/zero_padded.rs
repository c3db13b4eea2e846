//! Zero-padded numbers in composites (seed 001).
//!
//! `cargo run --example zero_padded` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::zero_padded;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(zero_padded::RECIPE.name));
    zero_padded::setup(&db).await?;
    let report = zero_padded::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        zero_padded::RECIPE.name,
        zero_padded::RECIPE.seed
    );
    let tables = (zero_padded::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
