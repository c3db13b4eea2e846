//! Write-sharded time series (seed 001).
//!
//! `cargo run --example sharded_time_series` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey_examples::recipes::sharded_time_series;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let recipe = &sharded_time_series::RECIPE;
    let report = dynakey_examples::run_recipe(&local, recipe).await?;
    println!("== {} ({})\n{report}", recipe.name, recipe.seed);
    Ok(())
}
