//! Changing a schema: v1 → v2 of a shop table while writers write, killed
//! and resumed (see `src/recipes/schema_evolution.rs`).
//!
//! `cargo run --example schema_evolution` runs it on the embedded engine;
//! with `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that
//! server (and deletes its tables afterwards).

use dynakey_examples::recipes::schema_evolution;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let recipe = &schema_evolution::RECIPE;
    let report = dynakey_examples::run_recipe(&local, recipe).await?;
    println!("== {} ({})\n{report}", recipe.name, recipe.seed);
    Ok(())
}
