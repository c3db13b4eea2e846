//! Every request the runtime sends goes through its one send path: each
//! is inside a `dynakey.request` span of its operation, and each that reads
//! or writes items asks for consumed capacity (`TOTAL`, the `Db`'s
//! default). One workload covers every kind of operation: the single-item
//! ones and a patch, query, scan, batches, transactions, a move, a put of
//! a `#[dynamo(unique)]` entity, a migration run, a hydrate, an export
//! load and the table admin ones. The table settings (tags, resource
//! policy, class) and vector indexes, read and changed by
//! `verify_table_with`, `sync_table_with` and `sync_table`, are traced too.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::{ReturnConsumedCapacity, Tag};
use dynakey::changes::ExportReader;
use dynakey::expr::Update;
use dynakey::local::{memory_with_clock, ManualClock};
use dynakey::schema::Migration;
use dynakey::spy::Recorder;
use dynakey::table::verify::Difference;
use dynakey::table::{TableClass, TableOptions};
use dynakey::{DynamoEntity, Entity};
use dynakey_tests::notes::{Note, Profile};

use super::capture::{capture, Capture};
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

    // Reads and writes of the tools: a hydrate (a query, then batch
    // gets) and an export's items loaded (batch writes).
    db.query(Note::gsi1_pk("red").unwrap())
        .hydrate()
        .await
        .unwrap();
    let line = r#"{"Item":{"pk":{"S":"USER#ann"},"sk":{"S":"NOTE#000020"},"entity":{"S":"NOTE"},"user":{"S":"ann"},"id":{"N":"20"},"text":{"S":"loaded"}}}"#;
    let load = ExportReader::new(line.as_bytes())
        .load_into(&db)
        .await
        .unwrap();
    assert_eq!(load.puts, 1);

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

    assert_each_traced(&spy, &cap);
}

/// Every request `spy` recorded is in a span of its operation: as many
/// calls in the spans of each operation as requests of it were sent.
fn assert_each_traced(spy: &Recorder, cap: &Capture) {
    let mut requests: BTreeMap<String, u64> = BTreeMap::new();
    for r in spy.requests() {
        *requests.entry(r.operation).or_default() += 1;
    }
    let mut traced: BTreeMap<String, u64> = BTreeMap::new();
    for s in cap.requests() {
        let op = s.get("db.operation.name").unwrap().to_owned();
        // A batch chunk's span counts its calls; every other span is one.
        let calls = s.num("dynakey.calls").map_or(1, |c| c as u64);
        *traced.entry(op).or_default() += calls;
    }
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

/// The options of the settings test: a tag, a resource policy and a table
/// class, each of which the table made without them lacks.
fn settings() -> TableOptions {
    TableOptions::default()
        .tag("team", "notes")
        .resource_policy(POLICY)
        .table_class(TableClass::StandardInfrequentAccess)
}

const POLICY: &str = r#"{"Version":"2012-10-17","Statement":[{"Sid":"DenyOutsideTls","Effect":"Deny","Principal":"*","Action":"dynamodb:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}"#;

#[tokio::test]
async fn table_settings_read_and_changed_are_traced() {
    let f = fixture().await;
    let raw = f.local.db(format!("t_{}", uuid::Uuid::new_v4().simple()));
    raw.create_table(&[Note::META]).await.unwrap();
    // A tag the options do not name, for sync_table_with to remove
    // (ignored where the backend has no TagResource).
    let arn = raw
        .client()
        .describe_table()
        .table_name(raw.table_name())
        .send()
        .await
        .unwrap()
        .table
        .and_then(|t| t.table_arn)
        .unwrap();
    let extra = Tag::builder().key("owner").value("ann").build().unwrap();
    let _ = raw
        .client()
        .tag_resource()
        .resource_arn(arn)
        .tags(extra)
        .send()
        .await;
    let spy = Recorder::new();
    let db = spy.db(&raw);
    let (cap, _guard) = capture();
    let options = settings();

    let before = db.verify_table_with(&[Note::META], &options).await.unwrap();
    db.sync_table_with(&[Note::META], &options).await.unwrap();

    // The settings are read whether or not the backend holds them.
    let ops = spy.operations();
    for op in ["DescribeTable", "ListTagsOfResource", "GetResourcePolicy"] {
        assert!(ops.iter().any(|o| o == op), "no {op}: {ops:?}");
    }
    // Each difference found is changed by its own call.
    let sent = |op: &str| ops.iter().any(|o| o == op);
    for d in &before.differences {
        let op = match d {
            Difference::Tag {
                expected: Some(_), ..
            } => "TagResource",
            Difference::Tag { .. } => "UntagResource",
            Difference::ResourcePolicy { .. } => "PutResourcePolicy",
            Difference::TableClass { .. } => "UpdateTable",
            _ => continue,
        };
        assert!(sent(op), "{d} found, yet no {op}: {ops:?}");
    }
    assert!(
        spy.requests().iter().all(|r| r.capacity.is_none()),
        "table admin asks for no capacity"
    );
    assert_each_traced(&spy, &cap);
}

/// An article without a vector index, and the same with one: what
/// `sync_table` adds and removes.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
struct Plain {
    id: String,
    shelf: String,
    embedding: Option<[f32; 2]>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("Like", vector = embedding, dimensions = 2, distance = "COSINE", scope(shelf))]
struct Article {
    id: String,
    shelf: String,
    embedding: Option<[f32; 2]>,
}

/// On the embedded engine always (moto has no vector indexes), with a
/// manual clock moved on while `sync_table` waits through the lifecycle.
#[tokio::test]
async fn vector_indexes_added_and_removed_are_traced() {
    let clock = ManualClock::new(1_700_000_000);
    let backend = memory_with_clock(&clock).unwrap();
    let spy = Recorder::new();
    let db = spy.db(&backend.db("articles"));
    db.create_table(&[Plain::META]).await.unwrap();
    let ticking = dynakey_tests::fixture::keep_ticking(&clock);
    spy.clear();
    let (cap, _guard) = capture();
    assert_eq!(db.sync_table(&[Article::META]).await.unwrap(), ["Like"]);
    let added = spy.operations();
    assert!(db.sync_table(&[Plain::META]).await.unwrap().is_empty());
    ticking.abort();
    assert!(db.verify_table(&[Plain::META]).await.unwrap().matches());

    // Added by an UpdateTable, waited for by searches; removed by an
    // UpdateTable, waited for by DescribeTable.
    for op in ["UpdateTable", "SearchVectors"] {
        assert!(added.iter().any(|o| o == op), "no {op}: {added:?}");
    }
    let all = spy.operations();
    let updates = all.iter().filter(|o| *o == "UpdateTable").count();
    assert_eq!(updates, 2, "{all:?}");
    // The readiness searches read the index: they ask for capacity.
    for r in spy.of("SearchVectors") {
        assert_eq!(r.capacity, Some(ReturnConsumedCapacity::Total), "{r:?}");
    }
    assert_each_traced(&spy, &cap);
}
