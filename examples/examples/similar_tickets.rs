//! Similar support tickets of one tenant (vector indexes).
//!
//! `cargo run --example similar_tickets` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that server
//! (and deletes its tables afterwards).

use dynakey_examples::recipes::similar_tickets;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let recipe = &similar_tickets::RECIPE;
    let report = dynakey_examples::run_recipe(&local, recipe).await?;
    println!("== {} ({})\n{report}", recipe.name, recipe.seed);
    Ok(())
}
