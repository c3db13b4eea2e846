//! The generated item codec against serde_dynamo on the same 10-field struct.
//! Run: `cargo bench -p dynakey-tests --bench codec`.

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use dynakey::{DynamoEntity, Entity, Item};
use serde::{Deserialize, Serialize};

#[derive(DynamoEntity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamo(entity = "PROFILE")]
#[pk("USER#<id>")]
#[sk("PROFILE")]
struct Profile {
    id: String,
    name: String,
    email: String,
    age: u32,
    score: f64,
    active: bool,
    nickname: Option<String>,
    tags: Vec<String>,
    counts: HashMap<String, i64>,
    created: i64,
}

fn sample() -> Profile {
    Profile {
        id: "u-123456".into(),
        name: "Alice Example".into(),
        email: "alice@example.com".into(),
        age: 37,
        score: 98.25,
        active: true,
        nickname: Some("ally".into()),
        tags: vec!["admin".into(), "beta".into(), "eu".into()],
        counts: HashMap::from([("logins".into(), 1234), ("posts".into(), 56)]),
        created: 1_752_657_120,
    }
}

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
}

criterion_group!(benches, codec);
criterion_main!(benches);
