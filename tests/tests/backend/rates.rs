//! Request rates of the backends, measured in one run (ignored by default):
//!
//! ```text
//! DYNAKEY_ENDPOINT=http://127.0.0.1:PORT \
//!   cargo test --release -p dynakey-tests --test backend rates -- --ignored --nocapture
//! ```
//!
//! Backends: the embedded engine as `local::memory()` gives it (the
//! in-process transport), the same engine through the SDK's HTTP client
//! and dynoxide's loopback server (the embedded path before it), and
//! `DYNAKEY_ENDPOINT` if set. `cargo bench --bench engine` measures the
//! per-request costs behind these.

use std::time::{Duration, Instant};

use dynakey::{Db, Entity};
use dynakey_tests::notes::Note;

use super::note;

struct Rates {
    puts: f64,
    queries: f64,
}

async fn measure(db: &Db, puts: u32, queries: u32) -> Rates {
    db.create_table(&[Note::META]).await.unwrap();
    let t = Instant::now();
    for id in 0..puts {
        db.put(&note(&format!("u{}", id % 50), id)).await.unwrap();
    }
    let put_s = t.elapsed();
    let t = Instant::now();
    let mut read = 0;
    for i in 0..queries {
        read += db
            .query(Note::pk(format!("u{}", i % 50)).unwrap())
            .all()
            .await
            .unwrap()
            .len();
    }
    let query_s = t.elapsed();
    assert!(read > 0);
    let per_s = |n: u32, d: Duration| f64::from(n) / d.as_secs_f64();
    Rates {
        puts: per_s(puts, put_s),
        queries: per_s(queries, query_s),
    }
}

#[tokio::test]
#[ignore = "measurement; run with --ignored --nocapture"]
async fn rates() {
    let (puts, queries) = (500, 300);
    let table = format!("rates_{}", uuid::Uuid::new_v4().simple());
    let mut rows = Vec::new();

    let local = dynakey::local::memory().unwrap();
    rows.push((
        "embedded (in-process transport)",
        measure(&local.db(&table), puts, queries).await,
    ));

    let other = dynakey::local::memory().unwrap();
    let db = Db::new(
        dynakey::local::client_for_endpoint(other.endpoint()),
        &table,
    );
    rows.push((
        "embedded over loopback HTTP",
        measure(&db, puts, queries).await,
    ));

    if let Ok(url) = std::env::var(dynakey::local::ENDPOINT_VAR) {
        let db = Db::new(dynakey::local::client_for_endpoint(&url), &table);
        rows.push((
            "DYNAKEY_ENDPOINT",
            measure(&db, puts / 5, queries / 5).await,
        ));
    }
    println!("{puts} sequential puts, {queries} sequential queries (10 items each)");
    for (name, r) in rows {
        println!(
            "{name:32} {:8.0} puts/s {:8.0} queries/s",
            r.puts, r.queries
        );
    }
}
