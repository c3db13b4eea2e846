//! A Lambda-style change handler: it takes Lambda's DynamoDB event and
//! keeps per-organisation task counts (tasks, flagged tasks, expired
//! tasks) from typed changes, never from hand-decoded records.
//!
//! Tasks live in their organisation's partition; a flagged task is in the
//! sparse index `GSI1` (`FLAGGED#<org>` / `<flagged_by>#<id>`), so
//! "flagged" and "unflagged" are the change entering and leaving it; a
//! task may carry a TTL. The organisation's profile shares the partition
//! and the handler ignores it, as it does items of types it does not know.
//!
//! Deployed, `handle` would run in a Lambda function (the event is what
//! `aws_lambda_events` deserializes) and persist the counts with `ADD`
//! updates; here it updates a [`TaskCounts`] the caller keeps.

use std::collections::BTreeMap;

use aws_lambda_events::event::dynamodb::Event;
use aws_lambda_events::event::streams::{DynamoDbBatchItemFailure, DynamoDbEventResponse};
use dynakey::changes::{ChangeDecoder, ChangeKind};
use dynakey::{DynamoEntity, DynamoTable, DynamoUnion};
use time::OffsetDateTime;

/// A task: `ORG#<org>` / `TASK#<id>`; flagged tasks are in the sparse `GSI1`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TASK")]
#[pk("ORG#<org>")]
#[sk("TASK#<id>")]
#[gsi("GSI1", pk = "FLAGGED#<org>", sk = "<flagged_by>#<id>", sparse)]
pub struct Task {
    /// The organisation.
    pub org: String,
    /// The task's id.
    pub id: String,
    /// What to do.
    pub title: String,
    /// Who flagged it for review; `None` keeps it out of `GSI1`.
    pub flagged_by: Option<String>,
    /// When TTL may remove it.
    #[dynamo(ttl)]
    pub expires_at: Option<OffsetDateTime>,
}

/// An organisation's profile: `ORG#<org>` / `PROFILE`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORG")]
#[pk("ORG#<org>")]
#[sk("PROFILE")]
pub struct Org {
    /// The organisation.
    pub org: String,
    /// Its name.
    pub name: String,
}

/// What the table holds.
/// The table of tasks and organisations, and the stream the handler
/// consumes: `TaskCountsTable::options()` carries it into
/// `create_table_with`, the exports and `verify_table_with`.
#[derive(DynamoTable)]
#[dynamo(entities(Task, Org), stream = "NEW_AND_OLD_IMAGES")]
pub struct TaskCountsTable;

#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum OrgItem {
    /// A task.
    Task(Task),
    /// A profile.
    Org(Org),
}

/// Per-organisation counts, as the handler keeps them; organisations with
/// nothing to count are absent (so two counts compare as maps).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskCounts {
    /// Tasks that exist.
    pub tasks: BTreeMap<String, i64>,
    /// Tasks in the flagged index.
    pub flagged: BTreeMap<String, i64>,
    /// Tasks TTL removed (a running total).
    pub expired: BTreeMap<String, i64>,
    /// Changes of items the handler does not count (profiles, unknown types).
    pub ignored: u64,
}

fn add(map: &mut BTreeMap<String, i64>, org: &str, n: i64) {
    let v = map.entry(org.to_owned()).or_default();
    *v += n;
    if *v == 0 {
        map.remove(org);
    }
}

impl TaskCounts {
    /// The counts of a full scan's tasks (what the handler's counts must equal).
    pub fn of_tasks<'a>(tasks: impl IntoIterator<Item = &'a Task>) -> Self {
        let mut c = Self::default();
        for t in tasks {
            add(&mut c.tasks, &t.org, 1);
            if t.flagged_by.is_some() {
                add(&mut c.flagged, &t.org, 1);
            }
        }
        c
    }
}

/// Applies a Lambda DynamoDB event to `counts`, record by record in order.
/// A record that does not decode stops the batch: it and the records after
/// it are left unapplied and the response names it, so Lambda (with
/// `ReportBatchItemFailures`) retries from there and order is kept.
///
/// ```
/// use aws_lambda_events::event::dynamodb::Event;
/// use dynakey_examples::task_counts::{handle, TaskCounts};
/// let event: Event = serde_json::from_value(serde_json::json!({ "Records": [] })).unwrap();
/// let mut counts = TaskCounts::default();
/// assert!(handle(&event, &mut counts).batch_item_failures.is_empty());
/// ```
pub fn handle(event: &Event, counts: &mut TaskCounts) -> DynamoDbEventResponse {
    let decoder = ChangeDecoder::<OrgItem>::union();
    let mut response = DynamoDbEventResponse::default();
    for record in &event.records {
        let change = match decoder.decode_lambda_record(record) {
            Ok(c) => c,
            Err(_) => {
                let mut failure = DynamoDbBatchItemFailure::default();
                failure.item_identifier = record.change.sequence_number.clone();
                response.batch_item_failures.push(failure);
                return response;
            }
        };
        let flagged = if change.entered("GSI1") {
            1
        } else if change.left("GSI1") {
            -1
        } else {
            0
        };
        match &change.kind {
            ChangeKind::Inserted(OrgItem::Task(t)) => add(&mut counts.tasks, &t.org, 1),
            ChangeKind::Removed(OrgItem::Task(t)) => add(&mut counts.tasks, &t.org, -1),
            ChangeKind::Expired(OrgItem::Task(t)) => {
                add(&mut counts.tasks, &t.org, -1);
                add(&mut counts.expired, &t.org, 1);
            }
            // The same key is the same organisation: only the flag can move.
            ChangeKind::Modified {
                new: OrgItem::Task(_),
                ..
            } => {}
            _ => {
                counts.ignored += 1;
                continue;
            }
        }
        if let Some(OrgItem::Task(t)) = change.new_item().or(change.old_item()) {
            add(&mut counts.flagged, &t.org, flagged);
        }
    }
    response
}
