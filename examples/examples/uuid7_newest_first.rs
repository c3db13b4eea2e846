//! Version-7 uuid sort keys, newest first and time ranges (seed 003).
//!
//! `cargo run --example uuid7_newest_first` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey_examples::recipes::uuid7_newest_first;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let recipe = &uuid7_newest_first::RECIPE;
    let report = dynakey_examples::run_recipe(&local, recipe).await?;
    println!("== {} ({})\n{report}", recipe.name, recipe.seed);
    Ok(())
}
