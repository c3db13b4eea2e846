//! Estimated write units against the `ConsumedCapacity` the backend
//! reports (asked with `ReturnConsumedCapacity = INDEXES`).
//!
//! What each backend reports (measured here):
//! - the embedded engine (dynoxide 3.2) reports DynamoDB's figures, which
//!   it captured against DynamoDB: the table write (1 unit per KB of the
//!   larger of the old and new item) and, under `INDEXES`, each global
//!   index's writes (an entry entering or leaving costs its size, a moved
//!   key a delete plus a put, a rewrite in place the larger size, an
//!   untouched index nothing). A transaction doubles the table's units and
//!   not the index writes.
//! - moto 5.2 reports fixed figures, whatever the size and the indexes:
//!   1.0 for a put (no index arms under `INDEXES`), 0.5 for an update, 1.0
//!   for a batch call; there only a small put's table units are compared.

use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use dynakey::explain::IndexChange;
use dynakey::expr::Update;
use dynakey::spy::Recorder;
use dynakey::WriteCost;
use dynakey_tests::notes::Note;

use super::{fixture, note, on_server};

/// Table and per-index units of the last recorded request.
fn last(spy: &Recorder) -> (f64, f64, Option<f64>) {
    let reqs = spy.requests();
    let c: &ConsumedCapacity = reqs
        .last()
        .and_then(|r| r.consumed.first())
        .expect("capacity reported");
    let table = c
        .table()
        .and_then(|t| t.capacity_units())
        .unwrap_or_default();
    let gsi = c
        .global_secondary_indexes()
        .and_then(|m| m.get("GSI1"))
        .and_then(|d| d.capacity_units());
    (c.capacity_units().unwrap_or_default(), table, gsi)
}

/// Asserts the estimate against what the backend reported.
fn check(what: &str, est: &WriteCost, spy: &Recorder) {
    let (total, table, gsi) = last(spy);
    println!("{what}: estimate {est} / consumed total {total}, table {table}, GSI1 {gsi:?}");
    if on_server() {
        // moto: a fixed 1.0 per put, no index arms.
        if what.starts_with("put") && est.item_bytes.is_some_and(|b| b <= 1024) {
            assert_eq!(total, est.table_units, "{what}");
        }
        return;
    }
    assert_eq!(table, est.table_units, "{what}: table");
    assert_eq!(gsi.unwrap_or(0.0), est.index_units(), "{what}: GSI1");
    assert_eq!(total, est.total(), "{what}: total");
}

#[tokio::test]
async fn estimates_match_consumed_capacity() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db).with_capacity(ReturnConsumedCapacity::Indexes);
    let key = || Note::key("ann", 1).unwrap();

    // A new item in GSI1: the table write plus one index write.
    let n = note("ann", 1, Some("red"));
    let est = db.put(&n).explain().unwrap().cost.unwrap();
    assert_eq!((est.total(), est.amplification()), (2.0, 1));
    db.put(&n).await.unwrap();
    check("put, in GSI1", &est, &spy);

    // Not in the sparse index: the table alone.
    let plain = note("ann", 2, None);
    let est = db.put(&plain).explain().unwrap().cost.unwrap();
    assert_eq!(est.indexes[0].change, IndexChange::Untouched);
    db.put(&plain).await.unwrap();
    check("put, not in GSI1", &est, &spy);

    // A 3,000-byte text makes a 3,084-byte item: 4 units in the table and
    // 4 in the index (a unit per KB, rounded up).
    let big = Note {
        text: "x".repeat(3000),
        ..note("ann", 3, Some("red"))
    };
    let est = db.put(&big).explain().unwrap().cost.unwrap();
    assert_eq!((est.item_bytes, est.total()), (Some(3084), 8.0));
    db.put(&big).await.unwrap();
    check("put, 3 KB in GSI1", &est, &spy);

    // An update of a non-key attribute rewrites the index entry in place.
    let u = || db.update_raw(key(), Update::new().set("text", "v2"));
    let est = u().explain().unwrap().cost.unwrap();
    assert_eq!(est.indexes[0].change, IndexChange::Rewrite);
    u().await.unwrap();
    check("update text", &est, &spy);

    // Changing the index key: a delete plus a put in GSI1.
    let retag = || {
        db.update_raw(
            key(),
            Update::new().set("tag", "blue").set("gsi1pk", "TAG#blue"),
        )
    };
    let est = retag().explain().unwrap().cost.unwrap();
    assert_eq!(
        (est.indexes[0].change, est.total(), est.amplification()),
        (IndexChange::Move, 3.0, 2)
    );
    retag().await.unwrap();
    check("update moving the GSI1 key", &est, &spy);

    // Removing the index key: the item leaves GSI1.
    let untag = || {
        db.update_raw(
            key(),
            Update::new()
                .remove("tag")
                .remove("gsi1pk")
                .remove("gsi1sk"),
        )
    };
    let est = untag().explain().unwrap().cost.unwrap();
    assert_eq!(est.indexes[0].change, IndexChange::Leave);
    untag().await.unwrap();
    check("update leaving GSI1", &est, &spy);

    // A delete of the 3 KB item in GSI1: the builder holds only the key, so
    // the estimate is sized with the stored item's size.
    let est = db
        .delete(Note::key("ann", 3).unwrap())
        .explain()
        .unwrap()
        .cost
        .unwrap();
    assert!(est.upper_bound);
    assert_eq!(est.total(), 2.0); // taken as up to 1 KB
    let est = est.sized(3084);
    db.delete(Note::key("ann", 3).unwrap()).await.unwrap();
    check("delete, 3 KB in GSI1", &est, &spy);

    // A transaction: the table write counts double, the index write once.
    let t = note("ann", 4, Some("red"));
    let est = db.transact_write().put(&t).explain().unwrap().cost.unwrap();
    assert_eq!((est.table_units, est.index_units()), (2.0, 1.0));
    db.transact_write().put(&t).await.unwrap();
    if !on_server() {
        check("transaction put, in GSI1", &est, &spy);
    }
}

#[tokio::test]
async fn a_batch_costs_its_writes_one_by_one() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db).with_capacity(ReturnConsumedCapacity::Indexes);
    let batch = || {
        (0..10).fold(db.batch_write(), |b, id| {
            b.put(&note("bo", id, (id % 2 == 0).then_some("red")))
        })
    };
    let est = batch().explain().unwrap().cost.unwrap();
    assert_eq!(est.total(), 15.0); // 10 table writes, 5 index writes
    batch().await.unwrap();
    let consumed: f64 = spy
        .of("BatchWriteItem")
        .iter()
        .flat_map(|r| &r.consumed)
        .filter_map(|c| c.capacity_units())
        .sum();
    println!("batch of 10: estimate {est} / consumed {consumed}");
    if !on_server() {
        assert_eq!(consumed, est.total());
    }
}
