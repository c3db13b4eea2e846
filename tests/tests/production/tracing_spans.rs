//! One `tracing` span per request, with OpenTelemetry's DynamoDB fields,
//! captured by a real subscriber.
//!
//! Capacity: the embedded engine reports what DynamoDB would (1 unit for a
//! small put, the index writes included); moto reports a fixed 1.0 for a
//! single-item write and its own figures for batches, so its values are
//! only checked to be there.

use dynakey::fault::FaultConfig;
use dynakey_tests::fixture::faulty;
use dynakey_tests::notes::Note;

use super::capture::capture;
use super::{fixture, note, on_server};

#[tokio::test]
async fn put_get_query_spans_carry_the_otel_fields() {
    let f = fixture().await;
    let (cap, _guard) = capture();
    let table = f.db.table_name().to_owned();

    f.db.put(&note("ann", 1, Some("red"))).await.unwrap();
    f.db.put(&note("ann", 2, Some("red"))).await.unwrap();
    let got = f.db.get(Note::key("ann", 1).unwrap()).await.unwrap();
    assert!(got.is_some());
    let by_tag =
        f.db.query(Note::gsi1_pk("red").unwrap())
            .all()
            .await
            .unwrap();
    assert_eq!(by_tag.len(), 2);

    let puts = cap.of("PutItem");
    assert_eq!(puts.len(), 2);
    let put = &puts[0];
    assert_eq!(put.get("db.system"), Some("dynamodb"));
    assert_eq!(put.get("db.operation"), Some("PutItem"));
    assert_eq!(put.get("aws.dynamodb.table_names"), Some(table.as_str()));
    assert_eq!(put.get("dynakey.entity"), Some("Note"));
    assert_eq!(
        put.get("otel.name"),
        Some(format!("PutItem {table}").as_str())
    );
    let units = put.num("aws.dynamodb.consumed_capacity").expect("capacity");
    if !on_server() {
        // The table write and the GSI1 write, one unit each.
        assert_eq!(units, 2.0);
    }

    let get = &cap.of("GetItem")[0];
    assert_eq!(get.num("aws.dynamodb.count"), Some(1.0));
    assert!(get.num("aws.dynamodb.consumed_capacity").is_some());

    let q = &cap.of("Query")[0];
    assert_eq!(q.get("aws.dynamodb.index_name"), Some("GSI1"));
    assert_eq!(q.num("aws.dynamodb.count"), Some(2.0));
    assert_eq!(q.num("aws.dynamodb.scanned_count"), Some(2.0));
    assert_eq!(q.get("dynakey.entity"), Some("Note"));
    assert!(q.num("aws.dynamodb.consumed_capacity").is_some());
}

#[tokio::test]
async fn batch_and_transaction_spans_count_actions_retries_and_unprocessed() {
    let f = fixture().await;
    let (cap, _guard) = capture();

    let batch = (0..30).fold(f.db.batch_write(), |b, id| b.put(&note("bob", id, None)));
    batch.await.unwrap();
    let mut chunks = cap.of("BatchWriteItem");
    chunks.sort_by_key(|s| s.get("dynakey.actions").map(str::to_owned));
    let actions: Vec<_> = chunks.iter().map(|s| s.num("dynakey.actions")).collect();
    assert_eq!(actions, [Some(25.0), Some(5.0)]);
    for c in &chunks {
        assert_eq!(c.num("dynakey.calls"), Some(1.0));
        assert_eq!(c.num("dynakey.retries"), Some(0.0));
        assert_eq!(c.num("dynakey.unprocessed"), Some(0.0));
    }
    if !on_server() {
        // 25 small puts, no index: 25 units.
        assert_eq!(chunks[0].num("aws.dynamodb.consumed_capacity"), Some(25.0));
    }

    let keys = (0..3).map(|id| Note::key("bob", id).unwrap());
    let got = f.db.batch_get(keys).await.unwrap();
    assert_eq!(got.items.len(), 3);
    let bg = &cap.of("BatchGetItem")[0];
    assert_eq!(bg.num("aws.dynamodb.count"), Some(3.0));
    assert_eq!(bg.num("dynakey.unprocessed"), Some(0.0));

    f.db.transact_write()
        .put(&note("bob", 100, Some("red")))
        .delete(Note::key("bob", 0).unwrap())
        .await
        .unwrap();
    let tx = &cap.of("TransactWriteItems")[0];
    assert_eq!(tx.num("dynakey.actions"), Some(2.0));
    if !on_server() {
        // Put: table 2 (transactional) + GSI1 1; delete: table 2.
        assert_eq!(tx.num("aws.dynamodb.consumed_capacity"), Some(5.0));
    }

    let err =
        f.db.transact_write()
            .put_with(&note("bob", 100, None), |p| p.if_not_exists())
            .await
            .unwrap_err();
    assert!(matches!(err, dynakey::Error::TransactionCanceled { .. }));
    let failed = &cap.of("TransactWriteItems")[1];
    assert_eq!(
        failed.get("error.type"),
        Some("TransactionCanceledException")
    );
}

#[tokio::test]
async fn batch_retries_show_in_the_span() {
    let f = fixture().await;
    let config = FaultConfig {
        partial_rate: 1.0,
        seed: 5,
        ..FaultConfig::default()
    };
    let (db, _inj) = faulty(&f, config, 20);
    let (cap, _guard) = capture();
    let batch = (0..10).fold(db.batch_write(), |b, id| b.put(&note("cy", id, None)));
    batch.await.unwrap();
    let span = &cap.of("BatchWriteItem")[0];
    let calls = span.num("dynakey.calls").unwrap();
    assert!(calls > 1.0, "{span:?}");
    assert_eq!(span.num("dynakey.retries"), Some(calls - 1.0));
    assert_eq!(span.num("dynakey.unprocessed"), Some(0.0));
}

#[tokio::test]
async fn without_a_subscriber_nothing_is_recorded_and_requests_work() {
    let f = fixture().await;
    f.db.put(&note("dee", 1, None)).await.unwrap();
    assert!(f
        .db
        .get(Note::key("dee", 1).unwrap())
        .await
        .unwrap()
        .is_some());
}

/// The guide's Observability example (a query of one item through GSI1
/// under a subscriber set as the default): its span's fields. Moved here
/// from the README's mirror, since the guide's doctest cannot capture.
#[tokio::test]
async fn the_guides_query_span_names_its_index_count_and_capacity() -> dynakey::Result<()> {
    let f = fixture().await;
    let db = f.db.clone();
    db.put(&note("ann", 1, Some("red"))).await?;
    let (cap, _outer) = capture();
    let _guard = tracing::subscriber::set_default(cap.clone());
    db.query(Note::gsi1_pk("red")?).all().await?;
    let span = &cap.of("Query")[0];
    assert_eq!(span.get("aws.dynamodb.index_name"), Some("GSI1"));
    assert_eq!(span.get("aws.dynamodb.count"), Some("1"));
    if !on_server() {
        // An eventually consistent read of one small item: half a unit.
        assert_eq!(span.num("aws.dynamodb.consumed_capacity"), Some(0.5));
    }
    Ok(())
}

#[tokio::test]
async fn a_throttled_request_records_its_reason_and_resource() {
    use dynakey::fault::{resource_arn, FaultInjector, ThrottleFault};
    use dynakey::ThrottleReason;
    use dynakey_tests::fixture::faulty_with;
    let f = fixture().await;
    let table = resource_arn(f.db.table_name(), None);
    let gsi = resource_arn(f.db.table_name(), Some("GSI1"));
    let fault = ThrottleFault::new(
        ThrottleReason::parse("TableWriteProvisionedThroughputExceeded"),
        &table,
    )
    .and(
        ThrottleReason::parse("IndexWriteProvisionedThroughputExceeded"),
        &gsi,
    );
    let inj = FaultInjector::new(FaultConfig {
        throttle_rate: 1.0,
        ..FaultConfig::default()
    })
    .throttle_with(fault);
    let db = faulty_with(&f, &inj, 1);
    let (cap, _guard) = capture();
    assert!(db.put(&note("eve", 1, Some("red"))).await.is_err());
    let put = &cap.of("PutItem")[0];
    // DynamoDB's code for a table or index over its provisioned throughput.
    assert_eq!(
        put.get("error.type"),
        Some("ProvisionedThroughputExceededException")
    );
    assert_eq!(
        put.get("dynakey.throttle.reason"),
        Some("TableWriteProvisionedThroughputExceeded,IndexWriteProvisionedThroughputExceeded")
    );
    assert_eq!(
        put.get("dynakey.throttle.resource"),
        Some(format!("{table},{gsi}").as_str())
    );
    // A batch chunk whose retries ran out while throttled says why too.
    let _ = db.batch_write().put(&note("eve", 2, None)).await;
    let chunk = &cap.of("BatchWriteItem")[0];
    assert_eq!(chunk.num("dynakey.unprocessed"), Some(1.0));
    assert!(chunk
        .get("dynakey.throttle.reason")
        .is_some_and(|r| r.starts_with("TableWriteProvisionedThroughputExceeded")));
}

#[tokio::test]
async fn error_type_is_dynamodbs_code_when_it_answered_with_one() {
    let f = fixture().await;
    let missing = f.local.db(format!("{}_missing", f.db.table_name()));
    let (cap, _guard) = capture();
    let err = missing
        .get(Note::key("ann", 1).unwrap())
        .await
        .expect_err("no such table");
    // Kept as the SDK's error, yet the span names DynamoDB's code.
    assert!(matches!(err, dynakey::Error::Sdk(_)), "{err:?}");
    assert_eq!(
        cap.of("GetItem")[0].get("error.type"),
        Some("ResourceNotFoundException")
    );
    // A call that succeeds after a failed one leaves no stale code: the
    // same span type on the real table ends without an error.
    f.db.get(Note::key("ann", 1).unwrap()).await.unwrap();
    assert_eq!(cap.of("GetItem")[1].get("error.type"), None);
}
