//! Fan-out over 8 write shards with 5 ms added to every request (the
//! latency of a real network, injected at the SDK's HTTP layer): the
//! partitions queried concurrently vs one after another.
//!
//! `cargo bench -p dynakey-tests --bench fanout`

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use criterion::{criterion_group, criterion_main, Criterion};
use dynakey::fault::{FaultConfig, FaultInjector};
use dynakey::{Db, Entity};
use dynakey_tests::interleaved::{ratios, timed};
use dynakey_tests::notes::Note;

const SHARDS: u32 = 8;
const LATENCY: Duration = Duration::from_millis(5);

fn fanout(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let local = dynakey::local::memory().unwrap();
    let plain = local.db("bench");
    rt.block_on(async {
        plain.create_table(&[Note::META]).await.unwrap();
        let mut b = plain.batch_write();
        for id in 0..SHARDS * 20 {
            b = b.put(&Note {
                user: format!("s{}", id % SHARDS),
                id,
                tag: None,
                text: "x".repeat(100),
            });
        }
        assert!(b.send().await.unwrap().unprocessed.is_empty());
    });
    let slow = FaultInjector::new(FaultConfig {
        latency: LATENCY,
        ..FaultConfig::default()
    });
    let conf = local
        .config_builder()
        .http_client(slow.wrap(local.http_client()))
        .build();
    let db = Db::new(Client::from_conf(conf), "bench");
    let shards = || {
        (0..SHARDS)
            .map(|s| Note::pk(format!("s{s}")).unwrap())
            .collect::<Vec<_>>()
    };

    let mut g = c.benchmark_group("fanout_8_shards_5ms");
    g.sample_size(20);
    g.bench_function("concurrent", |b| {
        b.iter(|| {
            let items = rt
                .block_on(db.query_many(shards()).descending().all())
                .unwrap();
            assert_eq!(items.len(), (SHARDS * 20) as usize);
        })
    });
    g.bench_function("sequential", |b| {
        b.iter(|| {
            let items = rt
                .block_on(db.query_many(shards()).descending().sequential().all())
                .unwrap();
            assert_eq!(items.len(), (SHARDS * 20) as usize);
        })
    });
    g.bench_function("count_concurrent", |b| {
        b.iter(|| {
            assert_eq!(
                rt.block_on(db.query_many(shards()).count()).unwrap(),
                u64::from(SHARDS) * 20
            )
        })
    });
    g.finish();

    // The ratio in one run, the cases interleaved.
    println!("\nfanout: median of 9 interleaved rounds, ratio to concurrent");
    let cases = [
        timed("concurrent", || {
            rt.block_on(db.query_many(shards()).descending().all())
                .unwrap();
        }),
        timed("sequential", || {
            rt.block_on(db.query_many(shards()).descending().sequential().all())
                .unwrap();
        }),
    ];
    ratios("8 shards, 5 ms", &cases, 9, Duration::from_millis(300));
}

criterion_group!(benches, fanout);
criterion_main!(benches);
