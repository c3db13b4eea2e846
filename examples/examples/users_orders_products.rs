//! Users, orders and products with the three example queries (seed 002).
//!
//! `cargo run --example users_orders_products` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey_examples::recipes::users_orders_products;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let recipe = &users_orders_products::RECIPE;
    let report = dynakey_examples::run_recipe(&local, recipe).await?;
    println!("== {} ({})\n{report}", recipe.name, recipe.seed);
    Ok(())
}
