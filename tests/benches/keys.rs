//! Generated key building against hand-written `format!`.
//! Run: `cargo bench -p dynakey-tests --bench keys`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use dynakey_tests::seeds::Employee;

fn keys(c: &mut Criterion) {
    let mut g = c.benchmark_group("employee key");
    g.bench_function("dynakey Employee::key", |b| {
        b.iter(|| {
            Employee::key(
                black_box("acme"),
                black_box("CH"),
                black_box("Zurich"),
                black_box(42),
            )
            .unwrap()
        })
    });
    g.bench_function("format!", |b| {
        b.iter(|| {
            let (org, country, city, number) = (
                black_box("acme"),
                black_box("CH"),
                black_box("Zurich"),
                black_box(42),
            );
            (
                format!("ORG#{org}"),
                format!("SITE#{country}#{city}#EMP#{number:06}"),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, keys);
criterion_main!(benches);
