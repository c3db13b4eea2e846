//! Write sharding, random and hashed (seed 003).
//!
//! `cargo run --example write_sharding` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::write_sharding;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(write_sharding::RECIPE.name));
    write_sharding::setup(&db).await?;
    let report = write_sharding::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        write_sharding::RECIPE.name,
        write_sharding::RECIPE.seed
    );
    let tables = (write_sharding::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
