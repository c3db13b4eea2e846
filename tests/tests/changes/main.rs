//! Typed change streams on a backend: the embedded engine by default, or
//! the server at `DYNAKEY_ENDPOINT` (moto serves the Streams API too).
//! Records are produced by real writes and read back from the backend's
//! stream; each is decoded from all three sources (the Streams API's
//! records, the raw DynamoDB JSON of the same response, and that JSON as
//! a Lambda event), which must agree. Records in the shapes AWS documents
//! for every source (GetRecords as the AWS CLI prints it, Lambda's sample
//! events, Kinesis Data Streams for DynamoDB, table exports) are in
//! `aws_shapes.rs`, `kinesis.rs` and `exports.rs`.

mod aws_shapes;
mod exports;
mod feed;
mod handler;
mod kinds;
mod kinesis;
mod random;
mod splits;

use std::time::Duration;

use aws_lambda_events::event::dynamodb::Event;
use dynakey::changes::{Change, ChangeDecoder, ChangeError, StreamView};
use dynakey::local::{self, Backend};
use dynakey::table::TableOptions;
use dynakey::{Db, Entity};
use dynakey_examples::stream_capture::{Captured, StreamCapture};
use dynakey_examples::task_counts::{Org, OrgItem, Task};

/// A fresh table with a stream of `view` on `backend`.
pub async fn table(backend: &Backend, view: StreamView) -> Db {
    let db = backend.db(dynakey_examples::table_name("changes"));
    db.create_table_with(
        &[Task::META, Org::META],
        TableOptions::default().stream(view),
    )
    .await
    .expect("create table");
    db
}

/// Deletes the table on an endpoint (the embedded engine forgets it).
pub async fn done(backend: &Backend, db: &Db) {
    dynakey_examples::finish(backend, &[db])
        .await
        .expect("delete table");
}

/// The backend's name, for messages.
pub fn backend_name(backend: &Backend) -> &'static str {
    if backend.is_embedded() {
        "the embedded engine"
    } else {
        "DYNAKEY_ENDPOINT"
    }
}

pub fn task(org: &str, id: &str) -> Task {
    Task {
        org: org.into(),
        id: id.into(),
        title: format!("task {id}"),
        flagged_by: None,
        expires_at: None,
    }
}

/// One record decoded three ways. `created_at` is compared to the second
/// (DynamoDB's precision for it; `aws_lambda_events` drops the fraction
/// moto sends) and then left out; so is `table`, which only the Lambda
/// event names (by its `eventSourceARN`), once checked to be the table.
pub fn agree(
    what: &str,
    mut results: [Result<Change<OrgItem>, ChangeError>; 3],
) -> Result<Change<OrgItem>, ChangeError> {
    let secs = |r: &Result<Change<OrgItem>, ChangeError>| {
        r.as_ref().ok().and_then(|c| c.created_at).map(|t| {
            t.duration_since(std::time::UNIX_EPOCH)
                .unwrap_or(Duration::ZERO)
                .as_secs()
        })
    };
    let times: Vec<_> = results.iter().map(secs).collect();
    assert!(
        times.windows(2).all(|w| w[0] == w[1]),
        "{what}: creation times differ between sources: {times:?}"
    );
    let tables: Vec<Option<String>> = results
        .iter()
        .map(|r| r.as_ref().ok().and_then(|c| c.table.clone()))
        .collect();
    if let Ok(c) = &results[2] {
        assert!(
            tables[2]
                .as_deref()
                .is_some_and(|t| t.starts_with("dynakey-changes-")),
            "{what}: the Lambda event's table: {:?} ({:?})",
            tables[2],
            c.event_id
        );
    }
    for r in results.iter_mut().flatten() {
        r.created_at = None;
        r.table = None;
    }
    let [api, json, lambda] = results;
    assert_eq!(api, json, "{what}: Streams API vs DynamoDB JSON");
    assert_eq!(api, lambda, "{what}: Streams API vs Lambda event");
    api
}

/// Decodes every captured record with `decoder` from each source, checks
/// they agree, and returns the results in order.
pub fn decode_all(
    captured: &Captured,
    stream_arn: &str,
    decoder: &ChangeDecoder<OrgItem>,
) -> Vec<Result<Change<OrgItem>, ChangeError>> {
    let event: Event =
        serde_json::from_value(captured.lambda_event_json(stream_arn)).expect("a Lambda event");
    assert_eq!(event.records.len(), captured.records.len());
    (0..captured.records.len())
        .map(|i| {
            agree(
                &format!("record {i}: {}", captured.json[i]),
                [
                    decoder.decode_stream_record(&captured.records[i]),
                    decoder.decode_json(&captured.json[i]),
                    decoder.decode_lambda_record(&event.records[i]),
                ],
            )
        })
        .collect()
}

/// The records written since the last call, decoded three ways (lenient).
pub async fn changes(
    capture: &mut StreamCapture,
    decoder: &ChangeDecoder<OrgItem>,
) -> Vec<Result<Change<OrgItem>, ChangeError>> {
    let captured = capture.next_batch().await.expect("read the stream");
    decode_all(&captured, &capture.stream_arn, decoder)
}

/// A capture of `db`'s stream on `backend`.
pub async fn capture(backend: &Backend, db: &Db) -> StreamCapture {
    StreamCapture::new(db, backend.streams_client())
        .await
        .expect("the table's stream")
}

/// The backend of a test: the embedded engine, or `DYNAKEY_ENDPOINT`.
pub fn backend() -> Backend {
    local::from_env().expect("backend")
}
