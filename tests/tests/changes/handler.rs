//! The example's Lambda handler (`task_counts::handle`), fed Lambda events
//! built from records the backend's stream captured: counts by org, the
//! flagged index, expiries, other types ignored, and a record that does
//! not decode reported as the batch's failure with nothing after it
//! applied.

use std::collections::BTreeMap;

use aws_lambda_events::event::dynamodb::Event;
use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::changes::StreamView;
use dynakey::local::{self, ManualClock};
use dynakey_examples::stream_capture::Captured;
use dynakey_examples::task_counts::{handle, Org, Task, TaskCounts};
use time::OffsetDateTime;

use super::{backend, backend_name, capture, done, table, task};

fn counts(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

fn event(captured: &Captured, arn: &str) -> Event {
    serde_json::from_value(captured.lambda_event_json(arn)).unwrap()
}

#[tokio::test]
async fn the_handler_counts_tasks_flags_and_expiries_by_org() {
    let b = backend();
    let start = 1_700_000_000;
    let clock = ManualClock::new(start);
    let engine = if b.is_embedded() {
        local::memory_with_clock(&clock).unwrap()
    } else {
        b
    };
    let db = table(&engine, StreamView::NewAndOldImages).await;
    let mut cap = capture(&engine, &db).await;
    let mut c = TaskCounts::default();

    db.put(&Org {
        org: "acme".into(),
        name: "Acme".into(),
    })
    .await
    .unwrap();
    for (org, id) in [("acme", "a"), ("acme", "b"), ("globex", "g")] {
        db.put(&task(org, id)).await.unwrap();
    }
    db.update(Task::update("acme", "a").set_flagged_by(Some("ann".to_owned())))
        .await
        .unwrap();
    let batch = cap.next_batch().await.unwrap();
    assert!(handle(&event(&batch, &cap.stream_arn), &mut c)
        .batch_item_failures
        .is_empty());
    assert_eq!(c.tasks, counts(&[("acme", 2), ("globex", 1)]));
    assert_eq!(c.flagged, counts(&[("acme", 1)]));
    assert_eq!(c.ignored, 1, "the profile");

    // Unflag and re-flag by another user (a move in the index: no count
    // change), delete one, and (on the embedded engine) let one expire.
    db.update(Task::update("acme", "a").set_flagged_by(Some("bob".to_owned())))
        .await
        .unwrap();
    db.delete(Task::key("acme", "b").unwrap()).await.unwrap();
    if engine.is_embedded() {
        let at = OffsetDateTime::from_unix_timestamp(start as i64 + 10).unwrap();
        db.update(Task::update("globex", "g").set_expires_at(Some(at)))
            .await
            .unwrap();
        clock.tick(std::time::Duration::from_secs(60));
        assert_eq!(engine.sweep_ttl().await.unwrap(), 1);
    } else {
        println!(
            "{}: no TTL sweep on demand; no expiry here",
            backend_name(&engine)
        );
    }
    let batch = cap.next_batch().await.unwrap();
    assert!(handle(&event(&batch, &cap.stream_arn), &mut c)
        .batch_item_failures
        .is_empty());
    assert_eq!(c.flagged, counts(&[("acme", 1)]));
    if engine.is_embedded() {
        assert_eq!(c.tasks, counts(&[("acme", 1)]));
        assert_eq!(c.expired, counts(&[("globex", 1)]));
    } else {
        assert_eq!(c.tasks, counts(&[("acme", 1), ("globex", 1)]));
    }
    let scanned: Vec<Task> = db.scan::<Task>().all().await.unwrap();
    let truth = TaskCounts::of_tasks(&scanned);
    assert_eq!((&c.tasks, &c.flagged), (&truth.tasks, &truth.flagged));
    done(&engine, &db).await;
}

#[tokio::test]
async fn a_record_that_does_not_decode_is_the_batch_failure() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    let mut cap = capture(&b, &db).await;
    db.put(&task("acme", "ok")).await.unwrap();
    // A TASK without its title: a known type that does not decode.
    let broken = [
        ("pk", "ORG#acme"),
        ("sk", "TASK#bad"),
        ("_type", "TASK"),
        ("org", "acme"),
        ("id", "bad"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), AttributeValue::S(v.into())))
    .collect();
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(broken))
        .send()
        .await
        .unwrap();
    db.put(&task("acme", "after")).await.unwrap();
    let batch = cap.next_batch().await.unwrap();
    let seq = batch.json[1]["dynamodb"]["SequenceNumber"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut c = TaskCounts::default();
    let response = handle(&event(&batch, &cap.stream_arn), &mut c);
    let failed: Vec<_> = response
        .batch_item_failures
        .iter()
        .map(|f| f.item_identifier.clone())
        .collect();
    assert_eq!(failed, [Some(seq)]);
    // Only the record before the failure was applied.
    assert_eq!(c.tasks, counts(&[("acme", 1)]));
    done(&b, &db).await;
}
