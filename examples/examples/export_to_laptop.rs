//! A production table on a laptop: a table export loaded into a table and
//! checked by the live view, an incremental export applied on top.
//!
//! `cargo run --example export_to_laptop` runs it on the embedded engine;
//! with `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` it runs against that
//! server (and deletes its tables afterwards). For a real export, see
//! `cargo run --example design -- load`.

use dynakey_examples::recipes::export_to_laptop;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let recipe = &export_to_laptop::RECIPE;
    let report = dynakey_examples::run_recipe(&local, recipe).await?;
    println!("== {} ({})\n{report}", recipe.name, recipe.seed);
    Ok(())
}
