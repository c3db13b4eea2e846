// clippy reads two `#[gsi(..)]` helper attributes with equal arguments as
// one attribute written twice (rust-clippy duplicated_attributes); they are
// two indexes.
#![allow(clippy::duplicated_attributes)]

//! Model-based test of the write paths: random sequences of put, typed
//! update (patch), upsert, delete, batch write, transaction and move, over
//! four entity shapes (see `entities.rs`), compared after every step with a
//! model that holds the value of every stored item.
//!
//! The invariant: every stored item is exactly `to_item()` of its model
//! value (or absent), every index holds exactly the items whose key
//! attributes `to_item()` writes, a typed query of an index partition reads
//! exactly the model's values there, and every refusal (a value no key can
//! hold, a patch of a missing item, a stale version, a taken move target)
//! comes back typed and changes nothing.
//!
//! Seeded and shrinking: a failure prints the shortest sequence of
//! operations that still fails. 10,000 operations on the embedded engine;
//! fewer against `DYNAKEY_ENDPOINT` (moto is slower).

mod entities;
mod native;
mod ops;
mod run;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::{Db, Entity, Item, PartitionKey};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use rust_decimal::Decimal;

use entities::{Account, Profile, Reading, Shipment, Task, INDEXES, NATIVE};
use ops::{op, KeyText, Op, Value};
use run::Model;

/// A number's canonical text (DynamoDB and emulators may normalize).
fn canon_n(n: &str) -> String {
    Decimal::from_scientific(n)
        .or_else(|_| n.parse::<Decimal>())
        .map(|d| d.normalize().to_string())
        .unwrap_or_else(|_| n.to_owned())
}

/// An attribute value in a canonical form: numbers normalized, sets sorted.
fn canon(v: &AttributeValue) -> AttributeValue {
    match v {
        AttributeValue::N(n) => AttributeValue::N(canon_n(n)),
        AttributeValue::Ns(ns) => {
            let mut v: Vec<String> = ns.iter().map(|n| canon_n(n)).collect();
            v.sort();
            AttributeValue::Ns(v)
        }
        AttributeValue::Ss(ss) => {
            let mut v = ss.clone();
            v.sort();
            AttributeValue::Ss(v)
        }
        AttributeValue::L(l) => AttributeValue::L(l.iter().map(canon).collect()),
        AttributeValue::M(m) => {
            AttributeValue::M(m.iter().map(|(k, v)| (k.clone(), canon(v))).collect())
        }
        other => other.clone(),
    }
}

fn canon_item(i: &Item) -> BTreeMap<String, AttributeValue> {
    i.iter().map(|(k, v)| (k.clone(), canon(v))).collect()
}

fn s(i: &Item, a: &str) -> Option<String> {
    i.get(a).and_then(|v| v.as_s().ok()).cloned()
}

/// Every raw item of the table (or of one index), by table key.
async fn scan(db: &Db, index: Option<&str>) -> BTreeMap<KeyText, Item> {
    let mut out = BTreeMap::new();
    let mut start = None;
    loop {
        let r = db
            .client()
            .scan()
            .table_name(db.table_name())
            .set_index_name(index.map(str::to_owned))
            .set_consistent_read(index.is_none().then_some(true))
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan");
        for i in r.items() {
            out.insert((s(i, "pk").unwrap(), s(i, "sk").unwrap()), i.clone());
        }
        match r.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return out,
        }
    }
}

/// A typed query of one index partition, as `(index sk, table key)` of each
/// value read, in the order read.
async fn typed(
    db: &Db,
    index: &'static str,
    attr: &'static str,
    pk: &str,
) -> Vec<(String, KeyText)> {
    async fn q<E: Entity>(db: &Db, index: &'static str, attr: &'static str, pk: &str) -> Vec<Item> {
        let key: PartitionKey<E, dynakey::Global> =
            PartitionKey::__new(Some(index), attr, pk.to_owned());
        db.query(key)
            .all()
            .await
            .expect("typed query")
            .iter()
            .map(|e| e.to_item().expect("a read value encodes"))
            .collect()
    }
    let items = match index {
        "GSI1" | "GSI2" => q::<Task>(db, index, attr, pk).await,
        "GSI3" | "GSI4" => q::<Profile>(db, index, attr, pk).await,
        "GSI5" => q::<Reading>(db, index, attr, pk).await,
        _ => q::<Account>(db, index, attr, pk).await,
    };
    let sk = INDEXES.iter().find(|(n, _, _)| *n == index).unwrap().2;
    items
        .iter()
        .map(|i| {
            (
                s(i, sk).unwrap(),
                (s(i, "pk").unwrap(), s(i, "sk").unwrap()),
            )
        })
        .collect()
}

/// The backend against the model after a step that touched the items at
/// `touched` and the indexes `indexes` (all of them at the end of a run).
async fn check(
    db: &Db,
    model: &Model,
    touched: &[KeyText],
    indexes: &[&str],
    step: usize,
) -> Result<(), TestCaseError> {
    if indexes.iter().any(|i| NATIVE.contains(i)) {
        native::check(db, &model.items, touched, step).await?;
    }
    let expected: BTreeMap<KeyText, Item> = model
        .items
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.item().expect("the model holds only valid values"),
            )
        })
        .collect();
    let stored = scan(db, None).await;
    prop_assert_eq!(
        stored.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "step {}: the table's keys",
        step
    );
    for (k, item) in &stored {
        prop_assert_eq!(
            canon_item(item),
            canon_item(&expected[k]),
            "step {}: item {:?} is not to_item() of {:?}",
            step,
            k,
            model.items[k]
        );
    }
    // The indexes hold exactly the items with both key attributes, and a
    // typed query of each partition the step touched reads them in order.
    for (index, pk, sk) in INDEXES.iter().filter(|(i, _, _)| indexes.contains(i)) {
        let want: BTreeMap<&KeyText, (String, String)> = expected
            .iter()
            .filter_map(|(k, i)| Some((k, (s(i, pk)?, s(i, sk)?))))
            .collect();
        let got = scan(db, Some(index)).await;
        prop_assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().copied().collect::<Vec<_>>(),
            "step {}: index {}",
            step,
            index
        );
        let partitions: std::collections::BTreeSet<&String> = touched
            .iter()
            .filter_map(|k| want.get(k))
            .map(|(p, _)| p)
            .collect();
        for p in partitions {
            let read = typed(db, index, pk, p).await;
            let mut model_view: Vec<(String, KeyText)> = want
                .iter()
                .filter(|(_, (q, _))| q == p)
                .map(|(k, (_, s))| (s.clone(), (*k).clone()))
                .collect();
            model_view.sort();
            let mut sorted = read.clone();
            sorted.sort();
            prop_assert_eq!(
                &sorted,
                &model_view,
                "step {}: query {} {:?}",
                step,
                index,
                p
            );
            prop_assert!(
                read.windows(2).all(|w| w[0].0 <= w[1].0),
                "step {}: {} out of order: {:?}",
                step,
                index,
                read
            );
        }
    }
    Ok(())
}

async fn fresh_table(local: &dynakey::local::Backend) -> Db {
    let db = local.db(format!("model_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[
        Task::META,
        Profile::META,
        Reading::META,
        Account::META,
        Shipment::META,
    ])
    .await
    .expect("create table");
    db
}

#[test]
fn every_write_leaves_what_to_item_would_store() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let local = dynakey::local::from_env().unwrap();
    let embedded = local.is_embedded();
    // 10,000 operations on the embedded engine: 120 runs of 100 on average
    // (a run shrinks to its shortest failing prefix, so runs start at one).
    let (cases, len, floor) = if embedded {
        (120, 1..200, 10_000)
    } else {
        (4, 1..40, 40)
    };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x00d1_7a4e),
        failure_persistence: None,
        max_shrink_iters: 300,
        ..Config::default()
    });
    let ran = AtomicUsize::new(0);
    let result = runner.run(&prop::collection::vec(op(), len), |ops: Vec<Op>| {
        rt.block_on(async {
            let db = fresh_table(&local).await;
            let mut model = Model::default();
            for (i, op) in ops.iter().enumerate() {
                let touched = run::step(&db, &mut model, op).await;
                check(&db, &model, &touched, &op.indexes(), i).await?;
                ran.fetch_add(1, Ordering::Relaxed);
            }
            let mut every: Vec<&str> = INDEXES.iter().map(|(i, _, _)| *i).collect();
            every.extend(NATIVE);
            let all: Vec<KeyText> = model.items.keys().cloned().collect();
            check(&db, &model, &all, &every, ops.len()).await
        })
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, ops)) => panic!(
            "{why}\nshortest failing sequence ({} ops):\n{ops:#?}",
            ops.len()
        ),
        Err(e) => panic!("{e}"),
    }
    let ran = ran.into_inner();
    assert!(ran >= floor, "only {ran} operations ran");
    eprintln!("model test: {ran} operations, every one checked");
}

/// The values the model test stores all encode; a sanity check of the
/// model itself.
#[test]
fn the_model_blank_values_encode() {
    for t in [
        ops::Target::Task("a".into(), "b".into()),
        ops::Target::Profile("a".into(), "b".into()),
        ops::Target::Reading(
            "s".into(),
            time::macros::date!(2024 - 01 - 01),
            1,
            uuid::Uuid::nil(),
        ),
        ops::Target::Account("a".into()),
        ops::Target::Shipment("a".into()),
    ] {
        let v: Value = t.blank();
        assert_eq!(v.key().unwrap(), t.key().unwrap());
        v.item().unwrap();
    }
}
