//! Multi-tenant prefix (seed 001).
//!
//! `cargo run --example multi_tenant` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::multi_tenant;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(multi_tenant::RECIPE.name));
    multi_tenant::setup(&db).await?;
    let report = multi_tenant::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        multi_tenant::RECIPE.name,
        multi_tenant::RECIPE.seed
    );
    let tables = (multi_tenant::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
