//! Users, orders and products with the three example queries (seed 002).
//!
//! `cargo run --example users_orders_products` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey::local;
use dynakey_examples::recipes::users_orders_products;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let db = local.db(dynakey_examples::table_name(
        users_orders_products::RECIPE.name,
    ));
    users_orders_products::setup(&db).await?;
    let report = users_orders_products::run(&db).await?;
    println!(
        "== {} ({})\n{report}",
        users_orders_products::RECIPE.name,
        users_orders_products::RECIPE.seed
    );
    let tables = (users_orders_products::RECIPE.tables)(&db);
    dynakey_examples::finish(&local, &tables.iter().collect::<Vec<_>>()).await?;
    Ok(())
}
