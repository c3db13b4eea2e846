//! Every request the runtime sends goes through its one send path: each
//! is inside a `dynakey.request` span of its operation, and each that reads
//! or writes items asks for consumed capacity (`TOTAL`, the `Db`'s
//! default). One workload covers every kind of operation: the single-item
//! ones and a patch, query, scan, batches, transactions, a move, a put of
//! a `#[dynamo(unique)]` entity, a migration run and the table admin ones.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use dynakey::expr::Update;
use dynakey::schema::Migration;
use dynakey::spy::Recorder;
use dynakey::{DynamoEntity, Entity};
use dynakey_tests::notes::{Note, Profile};

use super::capture::capture;
use super::{fixture, note};

/// A member: its email unique across the table, its tier filled in by a
/// migration.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MEMBER")]
#[pk("MEMBER#<id>")]
#[sk("MEMBER")]
struct Member {
    id: String,
    #[dynamo(unique)]
    email: String,
    #[dynamo(default = "free")]
    tier: String,
}

fn free() -> String {
    "free".into()
}

static STEPS: [Migration; 1] = [Migration::fill_default::<Member>("tier", "tier")];

/// The operations that read or write items (all but table admin).
const DATA: [&str; 10] = [
    "PutItem",
    "GetItem",
    "UpdateItem",
    "DeleteItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactGetItems",
    "TransactWriteItems",
];

#[tokio::test]
async fn every_request_is_traced_and_asks_for_capacity() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db);
    let metas = [Note::META, Profile::META, Member::META];
    let (cap, _guard) = capture();

    // Table admin: a sync adds what the fixture's table lacks, then a
    // verify reads it back.
    db.sync_table(&metas).await.unwrap();
    db.verify_table(&metas).await.unwrap();
    // Single items, and a patch (a read and an update).
    db.put(&note("ann", 1, Some("red"))).await.unwrap();
    db.get(Note::key("ann", 1).unwrap()).await.unwrap();
    db.update_raw(
        Note::key("ann", 1).unwrap(),
        Update::new().set("text", "v2"),
    )
    .await
    .unwrap();
    db.patch(Note::key("ann", 1).unwrap(), |n| n.text = "v3".into())
        .await
        .unwrap();
    // Reads of many items.
    db.query(Note::gsi1_pk("red").unwrap()).all().await.unwrap();
    db.scan::<Note>().all().await.unwrap();
    let batch = (2..5).fold(db.batch_write(), |b, id| b.put(&note("ann", id, None)));
    batch.await.unwrap();
    db.batch_get((2..5).map(|id| Note::key("ann", id).unwrap()))
        .await
        .unwrap();
    // Transactions and a move (a transaction too).
    db.transact_write()
        .put(&note("ann", 10, None))
        .await
        .unwrap();
    db.transact_get()
        .get(Note::key("ann", 10).unwrap())
        .await
        .unwrap();
    let moved = note("ann", 11, None);
    db.move_item(Note::key("ann", 10).unwrap(), &moved)
        .await
        .unwrap();
    db.delete(Note::key("ann", 11).unwrap()).await.unwrap();
    // A unique field: its guard read, then the transaction with the guard.
    let m = Member {
        id: "m1".into(),
        email: "m1@example.com".into(),
        tier: "gold".into(),
    };
    db.put(&m).await.unwrap();
    // A migration run: describe, scans, its marks, its writes.
    db.migrate(&STEPS).await.unwrap();

    let sent = spy.requests();
    let ops: Vec<&str> = sent.iter().map(|r| r.operation.as_str()).collect();
    for op in DATA {
        assert!(ops.contains(&op), "no {op} in the workload: {ops:?}");
    }
    assert!(ops.contains(&"DescribeTable"), "{ops:?}");

    // Every data request asked for the capacity.
    for r in &sent {
        if DATA.contains(&r.operation.as_str()) {
            assert_eq!(
                r.capacity,
                Some(ReturnConsumedCapacity::Total),
                "{} asked for no capacity: {:?}",
                r.operation,
                r.explain
            );
        }
    }

    // Every request is in a span of its operation: as many calls in the
    // spans of each operation as requests of it were sent.
    let mut requests: BTreeMap<&str, u64> = BTreeMap::new();
    for op in &ops {
        *requests.entry(op).or_default() += 1;
    }
    let mut traced: BTreeMap<String, u64> = BTreeMap::new();
    for s in cap.requests() {
        let op = s.get("db.operation.name").unwrap().to_owned();
        // A batch chunk's span counts its calls; every other span is one.
        let calls = s.num("dynakey.calls").map_or(1, |c| c as u64);
        *traced.entry(op).or_default() += calls;
    }
    let traced: BTreeMap<&str, u64> = traced.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(traced, requests);
}

#[tokio::test]
async fn table_creation_is_traced_and_asks_nothing() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.local.db(format!("t_{}", uuid::Uuid::new_v4().simple())));
    let (cap, _guard) = capture();
    db.create_table(&[Note::META]).await.unwrap();
    let sent = spy.requests();
    assert_eq!(sent[0].operation, "CreateTable");
    // Table admin reports no capacity, so it asks for none.
    assert!(sent.iter().all(|r| r.capacity.is_none()), "{sent:?}");
    assert_eq!(cap.of("CreateTable").len(), 1);
    assert_eq!(cap.of("DescribeTable").len(), spy.of("DescribeTable").len());
    let span = &cap.of("CreateTable")[0];
    assert_eq!(span.get("aws.dynamodb.consumed_capacity"), None);
    drop(f);
}
