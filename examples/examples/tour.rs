//! The recipes tour: every seed pattern, run in turn on one backend, with
//! what each read. Run: `cargo run --example tour` (the embedded engine,
//! no setup), or point it at a server:
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000 cargo run --example tour`.
//!
//! Each recipe gets its own table (`dynakey-<recipe>-<random>`); on an
//! external endpoint the tour deletes them afterwards.

use std::time::Instant;

use dynakey::local;
use dynakey_examples::recipes::ALL;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = local::from_env()?;
    let backend = if local.is_embedded() {
        "the embedded engine (dynoxide, in memory)".to_owned()
    } else {
        format!("the endpoint {}", local.endpoint())
    };
    println!("dynakey recipes tour: {} recipes on {backend}\n", ALL.len());
    let mut summary = Vec::new();
    let started = Instant::now();
    for recipe in ALL {
        println!("== {} — {}", recipe.name, recipe.about);
        println!("   seed {}", recipe.seed);
        let t = Instant::now();
        let report = dynakey_examples::run_recipe(&local, recipe).await?;
        let ms = t.elapsed().as_millis();
        println!("{report}");
        summary.push((recipe.name, ms));
    }
    println!("== summary");
    for (name, ms) in &summary {
        println!("   {name:<24} ok  {ms:>6} ms");
    }
    println!(
        "   {} recipes in {} ms (cargo run --example <name> runs one)",
        summary.len(),
        started.elapsed().as_millis()
    );
    Ok(())
}
