//! Change data against what a user would write instead, in one run:
//! comparing numbers exactly against `rust_decimal` (parse both, compare;
//! it holds 28 digits, so 38-digit numbers fall back to text), reading a
//! full export line against `serde_json` + `serde_dynamo::Item` (the types
//! `aws_lambda_events` reads DynamoDB JSON with), and `dedupe_and_order` of
//! a 10,000-record Kinesis batch against a sort by time with a `HashSet`
//! of event ids (which neither catches a duplicate under another id nor
//! orders changes stamped alike).
//! Run: `cargo bench -p dynakey-tests --bench changes`.

use std::collections::HashSet;
use std::hint::black_box;
use std::time::{Duration, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use dynakey::changes::{
    compare_numbers, dedupe_and_order, item_to_json, ChangeRecord, ExportReader, Operation,
};
use dynakey::Item;
use rust_decimal::Decimal;
use serde::Deserialize;

fn decimal(text: &str) -> Option<Decimal> {
    text.parse::<Decimal>()
        .ok()
        .or_else(|| Decimal::from_scientific(text).ok())
}

fn numbers(c: &mut Criterion) {
    let pairs = [
        ("12345678901234.5678", "1.23456789012345678E13"),
        ("1000000000000000000000", "1E+21"),
        ("-0.000123", "-1.23E-4"),
    ];
    for (a, b) in pairs {
        assert_eq!(compare_numbers(a, b), Some(std::cmp::Ordering::Equal));
        assert_eq!(decimal(a), decimal(b));
    }
    let mut g = c.benchmark_group("numbers: 3 pairs within 28 digits, two forms each");
    g.bench_function("dynakey compare_numbers (exact, 38 digits)", |b| {
        b.iter(|| {
            for (x, y) in black_box(&pairs) {
                black_box(compare_numbers(x, y));
            }
        })
    });
    g.bench_function("rust_decimal parse + compare (28 digits)", |b| {
        b.iter(|| {
            for (x, y) in black_box(&pairs) {
                black_box(decimal(x) == decimal(y));
            }
        })
    });
    g.finish();
}

fn item(i: usize) -> Item {
    [
        ("pk", AttributeValue::S(format!("USER#u{i}"))),
        ("sk", AttributeValue::S("#PROFILE".into())),
        ("_type", AttributeValue::S("USER".into())),
        ("name", AttributeValue::S(format!("User {i}"))),
        ("email", AttributeValue::S(format!("u{i}@example.com"))),
        ("visits", AttributeValue::N((i * 7).to_string())),
        ("tags", AttributeValue::Ss(vec!["a".into(), "b".into()])),
        ("active", AttributeValue::Bool(i.is_multiple_of(2))),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "Item")]
    item: serde_dynamo::Item,
}

fn exports(c: &mut Criterion) {
    let text: String = (0..1000)
        .map(|i| serde_json::json!({ "Item": item_to_json(&item(i)) }).to_string() + "\n")
        .collect();
    let ours: Vec<Item> = ExportReader::new(text.as_bytes())
        .items()
        .collect::<Result<_, _>>()
        .unwrap();
    let theirs: Vec<Item> = text
        .lines()
        .map(|l| serde_json::from_str::<Line>(l).unwrap().item.into())
        .collect();
    assert_eq!(ours, theirs);
    let mut g = c.benchmark_group("a full export of 1,000 items, line by line");
    g.bench_function("dynakey ExportReader::items", |b| {
        b.iter(|| {
            ExportReader::new(black_box(text.as_bytes()))
                .items()
                .for_each(|i| drop(black_box(i.unwrap())))
        })
    });
    g.bench_function("serde_json + serde_dynamo::Item", |b| {
        b.iter(|| {
            for l in black_box(&text).lines() {
                let item: Item = serde_json::from_str::<Line>(l).unwrap().item.into();
                black_box(item);
            }
        })
    });
    g.finish();
}

/// A Kinesis batch: 1,000 items with 10 changes each, in millisecond
/// times, shuffled by a fixed stride, every 20th record delivered twice.
fn batch() -> Vec<ChangeRecord> {
    let mut records = Vec::new();
    for i in 0..1000 {
        let keys: Item = [("pk".to_owned(), AttributeValue::S(format!("ITEM#{i}")))].into();
        for v in 0..10u64 {
            let image = |v: u64| {
                let mut it = keys.clone();
                it.insert("v".into(), AttributeValue::N(v.to_string()));
                it
            };
            let op = if v == 0 {
                Operation::Insert
            } else {
                Operation::Modify
            };
            let mut r = ChangeRecord::new(op, keys.clone())
                .with_new(image(v))
                .with_created_at(UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + v * 3))
                .with_event_id(format!("e{i}-{v}"));
            if v > 0 {
                r = r.with_old(image(v - 1));
            }
            records.push(r);
        }
    }
    let n = records.len();
    let mut shuffled: Vec<ChangeRecord> = (0..n).map(|k| records[(k * 7919) % n].clone()).collect();
    shuffled.extend((0..n).step_by(20).map(|k| records[k].clone()));
    shuffled
}

fn naive(records: Vec<ChangeRecord>) -> Vec<ChangeRecord> {
    let mut seen = HashSet::new();
    let mut out: Vec<ChangeRecord> = records
        .into_iter()
        .filter(|r| seen.insert(r.event_id.clone()))
        .collect();
    out.sort_by_key(|r| r.created_at);
    out
}

fn ordering(c: &mut Criterion) {
    let records = batch();
    assert_eq!(dedupe_and_order(records.clone()).len(), 10_000);
    assert_eq!(naive(records.clone()).len(), 10_000);
    let mut g = c.benchmark_group("a Kinesis batch of 10,500 records (500 duplicates)");
    g.bench_function("dynakey dedupe_and_order", |b| {
        b.iter_batched(|| records.clone(), dedupe_and_order, BatchSize::LargeInput)
    });
    g.bench_function("HashSet of event ids + sort by time", |b| {
        b.iter_batched(|| records.clone(), naive, BatchSize::LargeInput)
    });
    g.finish();
}

criterion_group!(benches, numbers, exports, ordering);
criterion_main!(benches);
