//! `db.changes(..)` on a backend: each change once, resuming from a
//! checkpoint, starting at the latest record, waiting for the next one, a
//! table without a stream, and a record that does not decode.

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::changes::{ChangeDecoder, ChangeError, ChangeKind, Checkpoint, StreamView};
use dynakey::{Entity, Error};
use dynakey_examples::task_counts::{Org, OrgItem, Task};

use super::{backend, done, table, task};

fn ids(changes: &[dynakey::changes::Change<OrgItem>]) -> Vec<String> {
    changes
        .iter()
        .map(|c| match c.new_item().or(c.old_item()) {
            Some(OrgItem::Task(t)) => format!("{:?} {}", c.op(), t.id),
            Some(OrgItem::Org(o)) => format!("{:?} {}", c.op(), o.org),
            None => format!("{:?} ?", c.op()),
        })
        .collect()
}

#[tokio::test]
async fn each_change_once_and_a_checkpoint_resumes() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    let mut feed = db.changes(ChangeDecoder::<OrgItem>::union()).page_size(3);
    for i in 0..7 {
        db.put(&task("acme", &format!("t{i}"))).await.unwrap();
    }
    let first = feed.catch_up().await.unwrap();
    assert_eq!(
        ids(&first),
        (0..7).map(|i| format!("Insert t{i}")).collect::<Vec<_>>()
    );
    assert!(feed.catch_up().await.unwrap().is_empty());
    // Each change names the table whose stream the feed reads.
    assert!(first
        .iter()
        .all(|c| c.table.as_deref() == Some(db.table_name())));
    let saved = feed.checkpoint().to_json();
    assert_eq!(feed.checkpoint().shards.len(), 1);

    db.delete(Task::key("acme", "t3").unwrap()).await.unwrap();
    db.put(&Org {
        org: "acme".into(),
        name: "Acme".into(),
    })
    .await
    .unwrap();
    let mut resumed = db
        .changes(ChangeDecoder::<OrgItem>::union())
        .resume(Checkpoint::from_json(&saved).unwrap());
    let later = resumed.catch_up().await.unwrap();
    assert_eq!(ids(&later), ["Remove t3", "Insert acme"]);
    // The first feed goes on from where it was, independently.
    assert_eq!(ids(&feed.catch_up().await.unwrap()), ids(&later));
    assert_eq!(resumed.checkpoint(), feed.checkpoint());
    done(&b, &db).await;
}

#[tokio::test]
async fn from_latest_skips_what_came_before_and_next_waits() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    db.put(&task("acme", "old")).await.unwrap();
    let mut feed = db
        .changes(ChangeDecoder::<OrgItem>::union())
        .from_latest()
        .poll_interval(Duration::from_millis(20));
    assert!(feed.catch_up().await.unwrap().is_empty());
    let writer = db.clone();
    let put = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        writer.put(&task("acme", "new")).await.unwrap();
    });
    let c = tokio::time::timeout(Duration::from_secs(20), feed.next())
        .await
        .expect("a change within 20 s")
        .unwrap();
    put.await.unwrap();
    assert_eq!(
        c.kind,
        ChangeKind::Inserted(OrgItem::Task(task("acme", "new")))
    );
    done(&b, &db).await;
}

#[tokio::test]
async fn a_table_without_a_stream_is_refused() {
    let b = backend();
    let db = b.db(dynakey_examples::table_name("changes"));
    db.create_table(&[Task::META]).await.unwrap();
    let err = db
        .changes(ChangeDecoder::<Task>::entity())
        .catch_up()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Refused { reason: dynakey::RefusedReason::TableDefinition, message } if message.contains("has no stream")),
        "{err}"
    );
    done(&b, &db).await;
}

/// A strict feed stops at an item of an unknown type: the changes before
/// it come first, then the error, again on every read until the caller
/// acts; the checkpoint is the last good change, so a lenient feed resumed
/// from it hands out the unknown item and what follows.
#[tokio::test]
async fn a_record_that_does_not_decode_stops_a_strict_feed_at_it() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    db.put(&task("acme", "a")).await.unwrap();
    let stray = [("pk", "ORG#acme"), ("sk", "STRAY#1"), ("_type", "STRAY")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), AttributeValue::S(v.into())))
        .collect();
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(stray))
        .send()
        .await
        .unwrap();
    db.put(&task("acme", "b")).await.unwrap();

    let mut strict = db.changes(ChangeDecoder::<OrgItem>::union().strict());
    assert_eq!(ids(&strict.catch_up().await.unwrap()), ["Insert a"]);
    for _ in 0..2 {
        match strict.catch_up().await {
            Err(Error::Change(ChangeError::UnknownDiscriminator { value, .. })) => {
                assert_eq!(value, "STRAY")
            }
            other => panic!("{other:?}"),
        }
    }
    let mut lenient = db
        .changes(ChangeDecoder::<OrgItem>::union())
        .resume(strict.checkpoint().clone());
    let rest = lenient.catch_up().await.unwrap();
    assert!(
        matches!(&rest[0].kind, ChangeKind::Unknown { discriminator, .. } if discriminator == "STRAY")
    );
    assert_eq!(ids(&rest[1..]), ["Insert b"]);
    done(&b, &db).await;
}
