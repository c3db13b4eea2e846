//! The README's change-stream consumer, fed by writes made before it runs.

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;

use dynakey::{Db, Entity};
use dynakey_examples::task_counts::{Org, OrgItem, Task};

// What the README's handler calls, counted here.
static INDEXED: AtomicUsize = AtomicUsize::new(0);
static REINDEXED: AtomicUsize = AtomicUsize::new(0);
static UNINDEXED: AtomicUsize = AtomicUsize::new(0);
static UNKNOWN: AtomicUsize = AtomicUsize::new(0);
static FLAGGED: AtomicUsize = AtomicUsize::new(0);
static SAVED: Mutex<Option<String>> = Mutex::new(None);

fn index_for_search(_: &Task) {
    INDEXED.fetch_add(1, SeqCst);
}
fn reindex(_: &Task) {
    REINDEXED.fetch_add(1, SeqCst);
}
fn unindex(_: &Task) {
    UNINDEXED.fetch_add(1, SeqCst);
}
fn log_unknown(_: &str) {
    UNKNOWN.fetch_add(1, SeqCst);
}
fn notify_flagged<T>(_: &T) {
    FLAGGED.fetch_add(1, SeqCst);
}
fn save(checkpoint: String) {
    *SAVED.lock().unwrap() = Some(checkpoint);
}

#[rustfmt::skip]
async fn follow(db: &Db) -> Result<(), Box<dyn std::error::Error>> {
// README: "Change streams".
use dynakey::changes::{ChangeDecoder, ChangeKind, StreamView};
use dynakey::table::TableOptions;

db.create_table_with(&[Task::META, Org::META], TableOptions::default().stream(StreamView::NewAndOldImages)).await?;

let mut feed = db.changes(ChangeDecoder::<OrgItem>::union());   // the Streams API, every shard
for change in feed.catch_up().await? {                          // or feed.next().await, feed.into_stream()
    match &change.kind {
        ChangeKind::Inserted(OrgItem::Task(t)) => index_for_search(t),
        ChangeKind::Modified { new: OrgItem::Task(t), changed, .. } if changed.contains(&"title") => reindex(t),
        ChangeKind::Removed(OrgItem::Task(t)) | ChangeKind::Expired(OrgItem::Task(t)) => unindex(t),
        ChangeKind::Unknown { discriminator, .. } => log_unknown(discriminator),
        _ => {}
    }
    if change.entered("GSI1") { notify_flagged(&change) }      // a sparse index: "task flagged"
}
save(feed.checkpoint().to_json());                              // later: db.changes(..).resume(checkpoint)
// End of the README's example.
    Ok(())
}

#[tokio::test]
async fn the_change_handler_sees_every_kind() {
    use dynakey::changes::StreamView;
    use dynakey::table::TableOptions;

    let (_backend, db) = super::fresh(&[]).await;
    // The table exists before the snippet (whose create_table_with is then
    // a no-op), so the feed has these writes to read.
    let opts = TableOptions::default().stream(StreamView::NewAndOldImages);
    db.create_table_with(&[Task::META, Org::META], opts)
        .await
        .unwrap();
    let task = Task {
        org: "acme".into(),
        id: "t1".into(),
        title: "Write".into(),
        flagged_by: None,
        expires_at: None,
    };
    db.put(&task).await.unwrap();
    let retitled = Task {
        title: "Rewrite".into(),
        ..task.clone()
    };
    db.put(&retitled).await.unwrap();
    let flagged = Task {
        flagged_by: Some("ann".into()),
        ..retitled.clone()
    };
    db.put(&flagged).await.unwrap();
    db.delete(Task::key("acme", "t1").unwrap()).await.unwrap();
    // An item of a type the union does not know, under the task's key.
    let mut stranger = dynakey::Entity::to_item(&task).unwrap();
    stranger.insert(
        "_type".into(),
        aws_sdk_dynamodb::types::AttributeValue::S("ALIEN".into()),
    );
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(stranger))
        .send()
        .await
        .unwrap();

    follow(&db).await.unwrap();

    assert_eq!(INDEXED.load(SeqCst), 1);
    assert_eq!(REINDEXED.load(SeqCst), 1);
    assert_eq!(UNINDEXED.load(SeqCst), 1);
    assert_eq!(UNKNOWN.load(SeqCst), 1);
    assert_eq!(FLAGGED.load(SeqCst), 1);
    assert!(SAVED.lock().unwrap().is_some());
}
