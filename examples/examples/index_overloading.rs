//! Index overloading (seed 000).
//!
//! `cargo run --example index_overloading` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::index_overloading;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(index_overloading::RECIPE.name));
    index_overloading::setup(&db).await?;
    let report = index_overloading::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        index_overloading::RECIPE.name,
        index_overloading::RECIPE.seed
    );
    let tables = (index_overloading::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
