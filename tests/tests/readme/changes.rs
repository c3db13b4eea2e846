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
/// The task both tests write first.
fn write_task() -> Task {
    Task {
        org: "acme".into(),
        id: "t1".into(),
        title: "Write".into(),
        flagged_by: None,
        expires_at: None,
    }
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
    let task = write_task();
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

static APPLIED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn apply(change: dynakey::changes::Change<OrgItem>) {
    let what = match change.kind {
        dynakey::changes::ChangeKind::Inserted(_) => "inserted",
        dynakey::changes::ChangeKind::Modified { .. } => "modified",
        _ => "other",
    };
    APPLIED.lock().unwrap().push(what.to_owned());
}

#[rustfmt::skip]
async fn kinesis_and_exports(
    db: Db,
    event: &aws_lambda_events::event::kinesis::KinesisEvent,
    export_file: std::path::PathBuf,
) -> Result<usize, Box<dyn std::error::Error>> {
// README: "Change streams", Kinesis and exports.
use dynakey::changes::{dedupe_and_order, record_from_kinesis, ChangeDecoder, ExportReader};

// Lambda on the table's Kinesis data stream: each change once, in order per item.
let decoder = ChangeDecoder::<OrgItem>::union();
let records: Vec<_> = event.records.iter().map(record_from_kinesis).collect::<Result<_, _>>()?;
for record in dedupe_and_order(records) {
    apply(decoder.decode(&record)?);
}

// A table export's data file (gunzipped, or read through flate2's GzDecoder), into a table.
let file = std::io::BufReader::new(std::fs::File::open(&export_file)?);
let load = ExportReader::new(file).load_into(&db).await?;
for e in &load.errors { eprintln!("{e}") }                      // export line 812: not JSON: ...
// End of the README's example.
    assert_eq!(load.errors.len(), 1);
    Ok(load.puts)
}

#[tokio::test]
async fn kinesis_changes_in_order_and_an_export_loaded() {
    use dynakey::changes::item_to_json;
    use serde_json::json;

    let (_backend, db) = super::fresh(&[Task::META, Org::META]).await;
    let task = write_task();
    let retitled = Task {
        title: "Rewrite".into(),
        ..task.clone()
    };
    let keys = item_to_json(&task.item_key().unwrap().to_attributes());
    let insert = json!({"eventID": "e1", "eventName": "INSERT", "userIdentity": null,
        "recordFormat": "application/json", "tableName": "tasks", "eventSource": "aws:dynamodb",
        "dynamodb": {"ApproximateCreationDateTime": 1731600037123u64, "Keys": keys,
                     "NewImage": item_to_json(&task.to_item().unwrap())}});
    let modify = json!({"eventID": "e2", "eventName": "MODIFY", "userIdentity": null,
        "recordFormat": "application/json", "tableName": "tasks", "eventSource": "aws:dynamodb",
        "dynamodb": {"ApproximateCreationDateTime": 1731600037124u64, "Keys": keys,
                     "OldImage": item_to_json(&task.to_item().unwrap()),
                     "NewImage": item_to_json(&retitled.to_item().unwrap())}});
    // Delivered out of order, the insert twice.
    let records: Vec<_> = [&modify, &insert, &insert]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "eventID": format!("shardId-000000000000:{i}"),
                "kinesis": {"data": aws_smithy_types::base64::encode(r.to_string()),
                            "sequenceNumber": i.to_string(), "partitionKey": "k",
                            "approximateArrivalTimestamp": 1731600037.2}
            })
        })
        .collect();
    let event = serde_json::from_value(json!({ "Records": records })).unwrap();
    let dir =
        std::env::temp_dir().join(format!("dynakey-readme-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let export_file = dir.join("part-0.json");
    let line = json!({ "Item": item_to_json(&retitled.to_item().unwrap()) }).to_string();
    std::fs::write(&export_file, format!("{line}\n{{\"Item\"")).unwrap();
    let puts = kinesis_and_exports(db.clone(), &event, export_file)
        .await
        .unwrap();
    assert_eq!(*APPLIED.lock().unwrap(), ["inserted", "modified"]);
    assert_eq!(puts, 1);
    let stored = db.get(Task::key("acme", "t1").unwrap()).await.unwrap();
    assert_eq!(stored, Some(retitled));
    let _ = std::fs::remove_dir_all(&dir);
}
