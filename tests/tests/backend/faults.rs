//! Retry paths under injected faults: throttling and partial batches.

use std::collections::HashSet;
use std::time::Duration;

use aws_sdk_dynamodb::types::{AttributeValue, WriteRequest};
use dynakey::fault::FaultConfig;
use dynakey::Error;
use dynakey_tests::notes::Note;

use dynakey_tests::fixture::faulty;

use super::{fixture, note};

fn id_of(w: &WriteRequest) -> u32 {
    match &w.put_request().unwrap().item()["id"] {
        AttributeValue::N(n) => n.parse().unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn two_thousand_items_at_30_percent_faults_none_lost_none_duplicated() {
    let f = fixture().await;
    let cfg = FaultConfig {
        throttle_rate: 0.3,
        partial_rate: 0.3,
        latency: Duration::ZERO,
        seed: 42,
    };
    let (db, inj) = faulty(&f, cfg, 3);
    let all: HashSet<u32> = (0..2000).collect();
    let mut b = db.batch_write();
    for id in 0..2000 {
        b = b.put(&note(&format!("u{}", id % 16), id));
    }
    // Whatever is left after the retries comes back inside the error.
    let out = match b.send().await {
        Ok(out) => out,
        Err(Error::BatchIncomplete(out)) => *out,
        Err(e) => panic!("{e}"),
    };
    assert!(out.failed.is_empty());
    assert_eq!(out.written + out.unprocessed.len(), 2000);
    let stats = inj.stats();
    assert!(
        stats.throttled > 0 && stats.partial > 0 && stats.held_back > 0,
        "{stats:?}"
    );

    // What is stored (read without faults) and what was handed back.
    let stored: Vec<u32> =
        f.db.scan::<Note>()
            .segments(4)
            .all()
            .await
            .unwrap()
            .iter()
            .map(|n| n.id)
            .collect();
    let stored_set: HashSet<u32> = stored.iter().copied().collect();
    assert_eq!(stored.len(), stored_set.len(), "an item stored twice");
    let back: Vec<u32> = out.unprocessed.iter().map(id_of).collect();
    let back_set: HashSet<u32> = back.iter().copied().collect();
    assert_eq!(back.len(), back_set.len(), "an item handed back twice");
    assert!(stored_set.is_disjoint(&back_set), "handed back but stored");
    assert_eq!(&stored_set | &back_set, all, "an item lost");
    eprintln!(
        "2000 items, 30% faults: {} stored, {} handed back, {} calls, {stats:?}",
        stored_set.len(),
        back_set.len(),
        out.calls
    );

    // Resubmitting what came back stores everything.
    let mut pending = out.unprocessed;
    for _ in 0..50 {
        if pending.is_empty() {
            break;
        }
        pending = match db.batch_write().requests(pending).send().await {
            Ok(_) => Vec::new(),
            Err(Error::BatchIncomplete(out)) => out.unprocessed,
            Err(e) => panic!("{e}"),
        };
    }
    assert!(pending.is_empty());
    assert_eq!(f.db.scan::<Note>().count().await.unwrap(), 2000);

    // Batch get through the same faults: every key read or handed back.
    let keys = (0..2000).map(|id| Note::key(format!("u{}", id % 16), id).unwrap());
    let got = db.batch_get(keys).send().await.unwrap();
    let read: Vec<u32> = got.items.iter().map(|n| n.id).collect();
    let read_set: HashSet<u32> = read.iter().copied().collect();
    assert_eq!(read.len(), read_set.len(), "an item read twice");
    let unread: HashSet<String> = got
        .unprocessed
        .iter()
        .map(|k| k.sk().unwrap().to_owned())
        .collect();
    assert_eq!(unread.len(), got.unprocessed.len());
    assert_eq!(read_set.len() + unread.len(), 2000);
    for id in &read_set {
        assert!(!unread.contains(&format!("NOTE#{id:06}")));
    }
}

#[tokio::test]
async fn throttling_that_never_ends_is_typed_and_hands_everything_back() {
    let f = fixture().await;
    let cfg = FaultConfig {
        throttle_rate: 1.0,
        ..FaultConfig::default()
    };
    let (db, inj) = faulty(&f, cfg, 3);
    let err = db.put(&note("ann", 1)).await.unwrap_err();
    assert!(
        matches!(err, Error::Throttled { attempts: 1, .. }),
        "{err:?}"
    );
    assert!(err.is_throttled());
    // The SDK's error of the last attempt is kept.
    let source = std::error::Error::source(&err).expect("the SDK error");
    assert!(
        format!("{source:?}").contains("ProvisionedThroughputExceeded"),
        "{source:?}"
    );
    let mut b = db.batch_write();
    for id in 0..30 {
        b = b.put(&note("ann", id));
    }
    let Err(Error::BatchIncomplete(out)) = b.send().await else {
        panic!("a batch that wrote nothing is incomplete")
    };
    assert_eq!((out.written, out.unprocessed.len()), (0, 30));
    assert_eq!(out.calls, 6); // two chunks, three attempts each
    let got = db
        .batch_get((0..30).map(|id| Note::key("ann", id).unwrap()))
        .send()
        .await
        .unwrap();
    assert!(got.items.is_empty());
    assert_eq!(got.unprocessed.len(), 30);
    assert!(inj.stats().throttled >= 1 + 6 + 3);
    assert_eq!(f.db.scan::<Note>().count().await.unwrap(), 0);
}
