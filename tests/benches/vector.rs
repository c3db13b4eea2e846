//! Vector search on the embedded engine: the typed search
//! (`db.search(Doc::similar(tenant)?, &v).top_k(10).filter(..)`) against
//! the hand-written `search_vectors` call of the same request on the same
//! client, in the same run; and a search's time against the number of
//! vectors in its scope (the engine searches exactly, so in proportion to
//! them; DynamoDB's approximate index does not).
//!
//! Criterion times each case; then typed and hand-written are timed again,
//! interleaved round by round, and their median ratio printed.
//!
//! `cargo bench -p dynakey-tests --bench vector`

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dynakey::{Db, DynamoEntity, Entity};
use dynakey_tests::interleaved::{ratios, timed};

const DIMS: usize = 64;

/// A document with a 64-dimension embedding, scoped by tenant.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC")]
#[pk("TENANT#<tenant>")]
#[sk("DOC#<id:d6>")]
#[vector_index("Similar", vector = embedding, dimensions = 64, distance = "COSINE", scope(tenant), filter(status))]
pub struct Doc {
    pub tenant: String,
    pub id: u32,
    pub status: String,
    pub embedding: [f32; DIMS],
}

/// A deterministic pseudo-random vector.
fn vector(seed: u32) -> [f32; DIMS] {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    std::array::from_fn(|_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x % 1000) as f32 / 1000.0 - 0.5
    })
}

/// Puts `n` documents in the scope `tenant`.
async fn fill(db: &Db, tenant: &str, n: u32) {
    for id in 0..n {
        let status = if id % 2 == 0 { "open" } else { "closed" };
        db.put(&Doc {
            tenant: tenant.into(),
            id,
            status: status.into(),
            embedding: vector(id),
        })
        .await
        .unwrap();
    }
}

/// The hand-written call: the same request, decoded with `from_item`.
async fn hand(db: &Db, tenant: &str, v: &[f32; DIMS]) -> Vec<(Doc, f64)> {
    let mut names = HashMap::new();
    names.insert("#s0".to_owned(), "tenant".to_owned());
    names.insert("#s1".to_owned(), "status".to_owned());
    let out = db
        .client()
        .search_vectors()
        .table_name(db.table_name())
        .index_name("Similar")
        .set_search_vector(Some(
            v.iter().map(|x| AttributeValue::N(x.to_string())).collect(),
        ))
        .top_k(10)
        .search_condition_expression("#s0 = :s0 AND #s1 = :s1")
        .set_expression_attribute_names(Some(names))
        .expression_attribute_values(":s0", AttributeValue::S(tenant.into()))
        .expression_attribute_values(":s1", AttributeValue::S("open".into()))
        .projection_expression("#p0, #p1, #p2, #p3, #s1, #p4, #s0")
        .expression_attribute_names("#p0", "pk")
        .expression_attribute_names("#p1", "sk")
        .expression_attribute_names("#p2", "_type")
        .expression_attribute_names("#p3", "id")
        .expression_attribute_names("#p4", "embedding")
        .send()
        .await
        .unwrap();
    out.search_results()
        .iter()
        .map(|r| (Doc::from_item(r.item().unwrap()).unwrap(), r.score()))
        .collect()
}

async fn typed(db: &Db, tenant: &str, v: &[f32; DIMS]) -> usize {
    db.search(Doc::similar(tenant).unwrap(), v)
        .top_k(10)
        .filter(|f| f.status.eq("open"))
        .await
        .unwrap()
        .len()
}

fn vector_search(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let local = dynakey::local::memory().unwrap();
    let db = local.db("bench");
    let sizes = [100u32, 400, 1600];
    rt.block_on(async {
        db.create_table(&[Doc::META]).await.unwrap();
        for n in sizes {
            fill(&db, &format!("t{n}"), n).await;
        }
    });
    let q = vector(7);
    // Both read the same results.
    rt.block_on(async {
        assert_eq!(
            typed(&db, "t400", &q).await,
            hand(&db, "t400", &q).await.len()
        );
    });

    let mut g = c.benchmark_group("vector_search");
    g.bench_function("typed", |b| {
        b.iter(|| rt.block_on(typed(&db, "t400", black_box(&q))))
    });
    g.bench_function("hand-written", |b| {
        b.iter(|| rt.block_on(hand(&db, "t400", black_box(&q))))
    });
    for n in sizes {
        let tenant = format!("t{n}");
        g.bench_with_input(BenchmarkId::new("scope_size", n), &tenant, |b, t| {
            b.iter(|| rt.block_on(typed(&db, t, black_box(&q))))
        });
    }
    g.finish();

    let cases = [
        timed("hand-written", || {
            rt.block_on(hand(&db, "t400", &q));
        }),
        timed("typed", || {
            rt.block_on(typed(&db, "t400", &q));
        }),
    ];
    println!("vector search, 400 vectors in scope, interleaved medians:");
    ratios("search", &cases, 15, Duration::from_millis(60));
}

criterion_group!(benches, vector_search);
criterion_main!(benches);
