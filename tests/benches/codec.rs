//! The generated item codec against serde_dynamo on the same 10-field struct.
//! Run: `cargo bench -p dynakey-tests --bench codec`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use dynakey::{Entity, Item};
use dynakey_tests::codec_sample::{sample, Profile};
use dynakey_tests::interleaved::{batched, ratios, timed};

fn codec(c: &mut Criterion) {
    let p = sample();
    let ours = p.to_item().unwrap();
    let theirs: Item = serde_dynamo::to_item(&p).unwrap();
    assert_eq!(Profile::from_item(&ours).unwrap(), p);
    assert_eq!(
        serde_dynamo::from_item::<_, Profile>(theirs.clone()).unwrap(),
        p
    );

    let mut g = c.benchmark_group("encode");
    g.bench_function("dynakey to_item", |b| {
        b.iter(|| black_box(&p).to_item().unwrap())
    });
    g.bench_function("serde_dynamo to_item", |b| {
        b.iter(|| serde_dynamo::to_item::<_, Item>(black_box(&p)).unwrap())
    });
    g.bench_function("clone of the finished item", |b| {
        b.iter(|| black_box(&ours).clone())
    });
    g.finish();

    let mut g = c.benchmark_group("decode");
    // dynakey reads a borrowed item; serde_dynamo consumes an owned one (as
    // from `output.items`). The owned copy is made outside the timing
    // (`iter_batched`), so each side pays only for its own decoding.
    g.bench_function("dynakey from_item", |b| {
        b.iter(|| Profile::from_item(black_box(&ours)).unwrap())
    });
    g.bench_function("serde_dynamo from_item", |b| {
        b.iter_batched(
            || theirs.clone(),
            |item| serde_dynamo::from_item::<_, Profile>(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();

    // The ratios in one run, the cases interleaved.
    println!("\ncodec: median of 25 interleaved rounds, ratio to dynakey");
    let cases = [
        timed("dynakey to_item", || drop(black_box(&p).to_item().unwrap())),
        timed("serde_dynamo to_item", || {
            drop(serde_dynamo::to_item::<_, Item>(black_box(&p)).unwrap())
        }),
        // What no encoder of this item can beat: copying the finished
        // item (its 33 allocations and their bytes; nothing hashed or
        // formatted).
        timed("clone of the finished item", || {
            drop(black_box(&ours).clone())
        }),
    ];
    ratios("encode", &cases, 25, Duration::from_millis(20));
    let cases = [
        timed("dynakey from_item", || {
            drop(Profile::from_item(black_box(&ours)).unwrap())
        }),
        batched(
            "serde_dynamo from_item",
            || theirs.clone(),
            |item| drop(serde_dynamo::from_item::<_, Profile>(item).unwrap()),
        ),
    ];
    ratios("decode", &cases, 25, Duration::from_millis(20));
}

criterion_group!(benches, codec);
criterion_main!(benches);
