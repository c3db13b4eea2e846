//! A Lambda-style handler keeping per-organisation task counts from typed
//! changes: tasks are written, flagged, unflagged and deleted; the table's
//! stream records are read back as a Lambda DynamoDB event and handed to
//! `task_counts::handle`, whose counts are then checked against a scan.
//!
//! `cargo run --example task_counts` runs it on the embedded engine; with
//! `DYNAKEY_ENDPOINT=http://127.0.0.1:8000` against that server (moto
//! serves the Streams API too).

use aws_lambda_events::event::dynamodb::Event;
use dynakey_examples::stream_capture::StreamCapture;
use dynakey_examples::task_counts::{handle, Org, Task, TaskCounts, TaskCountsTable};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let local = dynakey::local::from_env()?;
    let db = local.db(dynakey_examples::table_name("task-counts"));
    // The stream the handler consumes comes from the table's declaration.
    db.create_table_with(TaskCountsTable::ENTITIES, TaskCountsTable::options())
        .await?;

    for org in ["acme", "globex"] {
        let profile = Org {
            org: org.into(),
            name: org.to_uppercase(),
        };
        db.put(&profile).await?;
        for i in 0..5 {
            let task = Task {
                org: org.into(),
                id: format!("t{i}"),
                title: format!("task {i}"),
                flagged_by: (i % 2 == 0).then(|| "ann".to_owned()),
                expires_at: None,
            };
            db.put(&task).await?;
        }
    }
    db.update(Task::update("acme", "t1").set_flagged_by(Some("bob".to_owned())))
        .await?; // flagged
    db.update(Task::update("acme", "t0").set_flagged_by(None))
        .await?; // unflagged
    db.update(Task::update("globex", "t3").set_title("renamed"))
        .await?; // no count changes
    db.delete(Task::key("globex", "t4")?).await?;

    let mut capture = StreamCapture::new(&db, local.streams_client()).await?;
    let batch = capture.next_batch().await?;
    let event: Event = serde_json::from_value(batch.lambda_event_json(&capture.stream_arn))?;
    let mut counts = TaskCounts::default();
    let response = handle(&event, &mut counts);
    let scanned: Vec<Task> = db.scan::<Task>().all().await?;
    println!(
        "records handled: {} (failures: {})",
        event.records.len(),
        response.batch_item_failures.len()
    );
    println!("tasks per org:   {:?}", counts.tasks);
    println!("flagged per org: {:?}", counts.flagged);
    println!("ignored:         {} (the profiles)", counts.ignored);
    let truth = TaskCounts::of_tasks(&scanned);
    println!(
        "a full scan agrees: {}",
        (truth.tasks == counts.tasks && truth.flagged == counts.flagged)
    );
    dynakey_examples::finish(&local, &[&db]).await?;
    Ok(())
}
