//! Random rows and random native-key queries against an in-memory model.
//!
//! The model is independent of the runtime: it filters the rows by the
//! typed values (strings and bytes bytewise, numbers by value, instants by
//! time, `begins_with` on the stored text or bytes) and sorts them by the
//! tuple of sort attributes. The engine must return exactly those rows in
//! that order (rows whose whole sort key is equal may come in any order,
//! so the order is compared by sort key and the rows as a set), through
//! every way of reading: all at once, page by page through cursors,
//! descending, counted, keys only, and merged across two partitions.

use std::collections::BTreeSet;

use aws_sdk_dynamodb::primitives::Blob;
use dynakey_runtime::key::{CondResult, NativePrefix, NativeSortNext};
use dynakey_runtime::{Db, Global, KeyText};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use time::macros::datetime;
use time::OffsetDateTime;

use super::entity::Row;

const STATUSES: [&str; 9] = [
    "open", "opener", "op", "Z", "z", "é", "😀", "\u{ffff}", " x#y",
];
const SCORES: [i64; 11] = [i64::MIN, -1000, -10, -2, -1, 0, 1, 2, 10, 1000, i64::MAX];
const BINS: [&[u8]; 7] = [&[0], &[0, 0], &[1], &[1, 2], &[0x7f], &[0x80], &[0xff]];

fn instants() -> [OffsetDateTime; 6] {
    [
        datetime!(0000-01-01 0:00 UTC),
        datetime!(2026-07-16 09:00 UTC),
        // The same day, later in UTC though earlier on the clock.
        datetime!(2026-07-16 10:30:00.000000001 +02:00),
        datetime!(2026-07-16 08:30:00.5 UTC),
        datetime!(2026-07-17 00:00 -05:00),
        datetime!(9999-12-31 23:59:59.999999999 UTC),
    ]
}

/// One sort attribute's range, or none (equality of the leading run only).
#[derive(Debug, Clone)]
enum Op {
    None,
    Lt(usize),
    Le(usize),
    Gt(usize),
    Ge(usize),
    Between(usize, usize),
    /// A prefix of the `usize`-th value, this many characters (or bytes) long.
    BeginsWith(usize, usize),
}

#[derive(Debug, Clone)]
struct Query {
    /// `Some(shard)`, or `None` for a fan-out over both shards.
    shard: Option<i32>,
    /// The row whose leading values are fixed.
    fixed: usize,
    depth: usize,
    op: Op,
    descending: bool,
    page: Option<u32>,
}

/// Value `i` of sort attribute `depth`, as the row field it is.
fn status(i: usize) -> String {
    STATUSES[i % STATUSES.len()].to_owned()
}
fn score(i: usize) -> i64 {
    SCORES[i % SCORES.len()]
}
fn bin(i: usize) -> Blob {
    Blob::new(BINS[i % BINS.len()].to_vec())
}
fn at(i: usize) -> OffsetDateTime {
    instants()[i % 6]
}

fn rows(case: usize) -> impl Strategy<Value = Vec<Row>> {
    // Rows draw from part of each domain (so leading values repeat and
    // ranges find several rows); conditions draw from all of it.
    let one = (any::<bool>(), 0..4usize, 0..11usize, 0..3usize, 0..4usize);
    proptest::collection::vec(one, 10..24).prop_map(move |v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (s, a, b, c, d))| Row {
                id: (case * 100 + i) as u32,
                tenant: format!("case{case}"),
                shard: if s { 1 } else { -1 },
                status: status(a),
                score: score(b),
                bin: bin(c),
                at: at(d),
                tag: None,
            })
            .collect()
    })
}

fn query(n: usize) -> impl Strategy<Value = Query> {
    let op = (0..7u8, 0..11usize, 0..11usize, 0..4usize).prop_map(|(k, a, b, len)| match k {
        0 => Op::None,
        1 => Op::Lt(a),
        2 => Op::Le(a),
        3 => Op::Gt(a),
        4 => Op::Ge(a),
        5 => Op::Between(a, b),
        _ => Op::BeginsWith(a, len),
    });
    let shard = prop_oneof![Just(Some(1)), Just(Some(-1)), Just(None)];
    let page = prop_oneof![Just(None), (1..4u32).prop_map(Some)];
    (shard, 0..n, 0..5usize, op, any::<bool>(), page).prop_map(
        |(shard, fixed, depth, op, descending, page)| {
            // `begins_with` exists on the string and binary attributes only.
            let op = match (op, depth) {
                (Op::BeginsWith(..), 1) | (_, 4) => Op::None,
                (op, _) => op,
            };
            Query {
                shard,
                fixed,
                depth,
                op,
                descending,
                page,
            }
        },
    )
}

/// Whether `v` passes `op`, `value(i)` being the op's values.
fn passes<T: PartialOrd>(
    v: &T,
    op: &Op,
    value: impl Fn(usize) -> T,
    prefix: impl Fn(usize, usize) -> bool,
) -> bool {
    match op {
        Op::None => true,
        Op::Lt(a) => *v < value(*a),
        Op::Le(a) => *v <= value(*a),
        Op::Gt(a) => *v > value(*a),
        Op::Ge(a) => *v >= value(*a),
        Op::Between(a, b) => value(*a) <= *v && *v <= value(*b),
        Op::BeginsWith(a, len) => prefix(*a, *len),
    }
}

fn prefix_of(s: &str, len: usize) -> String {
    s.chars().take(len).collect()
}

fn instant_text(t: OffsetDateTime) -> String {
    let mut s = String::new();
    t.write_text(&mut s).unwrap();
    s
}

/// The rows `q` selects, in the index's order.
fn model(rows: &[Row], q: &Query) -> Vec<Row> {
    let f = &rows[q.fixed];
    let mut out: Vec<Row> = rows
        .iter()
        .filter(|r| q.shard.is_none_or(|s| r.shard == s))
        .filter(|r| {
            let eq = [
                r.status == f.status,
                r.score == f.score,
                r.bin.as_ref() == f.bin.as_ref(),
                r.at == f.at,
            ];
            eq[..q.depth].iter().all(|e| *e)
        })
        .filter(|r| match q.depth {
            0 => passes(
                &r.status.as_bytes().to_vec(),
                &q.op,
                |i| status(i).into_bytes(),
                |i, n| r.status.starts_with(&prefix_of(&status(i), n)),
            ),
            1 => passes(&r.score, &q.op, score, |_, _| true),
            2 => passes(
                &r.bin.as_ref().to_vec(),
                &q.op,
                |i| bin(i).into_inner(),
                |i, n| {
                    let p = bin(i).into_inner();
                    r.bin.as_ref().starts_with(&p[..n.min(p.len())])
                },
            ),
            3 => passes(&r.at, &q.op, at, |i, n| {
                instant_text(r.at).starts_with(&prefix_of(&instant_text(at(i)), n * 4))
            }),
            _ => true,
        })
        .cloned()
        .collect();
    out.sort_by_key(Row::sort_key);
    if q.descending {
        out.reverse();
    }
    out
}

/// The comparison `op` on a step whose next attribute has type `T`.
fn range<T, P>(
    step: &NativeSortNext<Row, Global, T>,
    op: &Op,
    value: impl Fn(usize) -> T,
    prefix: P,
) -> CondResult<Row, Global>
where
    T: dynakey_runtime::NativeKeyAttr,
    P: FnOnce(&NativeSortNext<Row, Global, T>, usize, usize) -> Option<CondResult<Row, Global>>,
{
    match op {
        Op::None => step.eq(),
        Op::Lt(a) => step.lt(value(*a)),
        Op::Le(a) => step.le(value(*a)),
        Op::Gt(a) => step.gt(value(*a)),
        Op::Ge(a) => step.ge(value(*a)),
        Op::Between(a, b) => step.between(value(*a), value(*b)),
        Op::BeginsWith(a, n) => prefix(step, *a, *n).unwrap_or_else(|| step.eq()),
    }
}

fn begins<T: NativePrefix<Prefix = str>>(
    step: &NativeSortNext<Row, Global, T>,
    text: String,
) -> Option<CondResult<Row, Global>> {
    Some(step.begins_with(text))
}

/// The typed condition of `q`, through the chain a derive generates.
fn condition(rows: &[Row], q: &Query) -> CondResult<Row, Global> {
    let f = &rows[q.fixed];
    let s0 = Row::by_status_sk();
    if q.depth == 0 {
        return range(&s0, &q.op, status, |s, i, n| {
            begins(s, prefix_of(&status(i), n))
        });
    }
    let s1 = s0.__then::<i64, _>(f.status.as_str());
    if q.depth == 1 {
        return range(&s1, &q.op, score, |_, _, _| None);
    }
    let s2 = s1.__then::<Blob, _>(&f.score);
    if q.depth == 2 {
        return range(&s2, &q.op, bin, |s, i, n| {
            let p = bin(i).into_inner();
            Some(s.begins_with(&p[..n.min(p.len())]))
        });
    }
    let s3 = s2.__then::<OffsetDateTime, _>(&f.bin);
    if q.depth == 3 {
        return range(&s3, &q.op, at, |s, i, n| {
            begins(s, prefix_of(&instant_text(at(i)), n * 4))
        });
    }
    s3.__end(&f.at).eq()
}

fn ids(rows: &[Row]) -> BTreeSet<u32> {
    rows.iter().map(|r| r.id).collect()
}

fn order(rows: &[Row]) -> Vec<(Vec<u8>, i64, Vec<u8>, OffsetDateTime)> {
    rows.iter().map(Row::sort_key).collect()
}

/// Every read of `q` against the model; returns how many rows it read.
async fn check(db: &Db, rows: &[Row], q: &Query) -> usize {
    let want = model(rows, q);
    let what = format!("{q:?} over {rows:#?}");
    let cond = condition(rows, q).unwrap();
    let tenant = rows[0].tenant.as_str();
    let pk = |s: i32| Row::by_status_pk(tenant, s).unwrap();
    let got: Vec<Row> = match q.shard {
        Some(s) => {
            let mut r = db.query(pk(s)).sk(cond.clone());
            if q.descending {
                r = r.descending();
            }
            if let Some(n) = q.page {
                // Page by page through the cursors.
                let r = r.clone().page_size(n);
                let mut out = Vec::new();
                let mut cursor: Option<String> = None;
                loop {
                    let page = r.page(cursor.as_deref()).await.unwrap();
                    assert!(page.items.len() <= n as usize, "{what}");
                    out.extend(page.items);
                    match page.cursor {
                        Some(c) => cursor = Some(c),
                        None => break,
                    }
                }
                out
            } else {
                assert_eq!(r.count().await.unwrap(), want.len() as u64, "count {what}");
                let keys = r.clone().keys_only().all().await.unwrap();
                let want_keys: Vec<_> = want.iter().map(|w| Row::key(w.id).unwrap()).collect();
                assert_eq!(keys.len(), want_keys.len(), "keys {what}");
                r.all().await.unwrap()
            }
        }
        None => {
            let mut r = db.query_many([pk(1), pk(-1)]).sk(cond.clone());
            if q.descending {
                r = r.descending();
            }
            if let Some(n) = q.page {
                r = r.page_size(n);
            }
            r.all().await.unwrap()
        }
    };
    assert_eq!(order(&got), order(&want), "order {what}");
    assert_eq!(ids(&got), ids(&want), "rows {what}");
    got.len()
}

/// Seeded cases: rows stored, then queries each compared with the model.
pub async fn run(db: &Db) {
    let mut runner = TestRunner::new(Config {
        rng_seed: RngSeed::Fixed(0x0a71_7e5e),
        ..Config::default()
    });
    // Fewer on a server (moto answers a few dozen queries a second).
    let cases = if std::env::var_os("DYNAKEY_ENDPOINT").is_some() {
        8
    } else {
        30
    };
    let (mut checked, mut several, mut by_depth) = (0, 0, [0; 5]);
    for case in 0..cases {
        let rows = rows(case).new_tree(&mut runner).unwrap().current();
        for r in &rows {
            db.put(r).await.unwrap();
        }
        for _ in 0..10 {
            let q = query(rows.len()).new_tree(&mut runner).unwrap().current();
            let n = check(db, &rows, &q).await;
            checked += 1;
            if n > 1 {
                several += 1;
                by_depth[q.depth] += 1;
            }
        }
    }
    assert_eq!(checked, cases * 10);
    // The sample is not vacuous: many queries read several rows, at every
    // depth but the last (a full key is rarely shared).
    assert!(several * 4 > checked, "{several} of {checked}");
    assert!(by_depth[..3].iter().all(|n| *n > 0), "{by_depth:?}");
}
