//! The engine inside the process: every operation of DynamoDB's JSON
//! protocol (and of the Streams API) run on dynoxide's public
//! per-operation methods, `deserialize → method → serialize`, and a
//! refusal written as DynamoDB's error body.
//!
//! Two callers: the in-process transport of [`Backend`](super::Backend)
//! (which takes only the answers that match dynoxide's own handler byte
//! for byte, see `in_process.rs`) and the front of a served
//! [`Endpoint`](super::Endpoint), which answers every request here so the
//! served process listens on one socket only: dynoxide's handler is
//! reachable only through a listening socket of its own, and that socket
//! would answer any `Host`, any signature and any `Origin`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use dynoxide::{actions, DynoxideError};

/// The engine a transport or a front reaches, until its owner stops it,
/// and the turn its requests take: the engine runs one request at a time
/// behind its own lock, so a request waits for its turn without holding
/// its thread, and reading the request and writing the response happen
/// outside the turn.
pub(crate) struct EngineSlot {
    db: Mutex<Option<dynoxide::Database>>,
    turn: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for EngineSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineSlot").finish_non_exhaustive()
    }
}

impl EngineSlot {
    pub(crate) fn new(db: dynoxide::Database) -> Arc<Self> {
        Arc::new(Self {
            db: Mutex::new(Some(db)),
            turn: tokio::sync::Mutex::new(()),
        })
    }

    /// Lets go of the engine: later requests find it stopped, and once the
    /// requests under way end, this handle on the database is gone.
    pub(crate) fn stop(&self) {
        if let Ok(mut g) = self.db.lock() {
            *g = None;
        }
    }

    /// The engine, `None` once stopped.
    pub(crate) fn get(&self) -> Option<dynoxide::Database> {
        self.db.lock().ok()?.clone()
    }

    async fn call<Req, Resp>(
        &self,
        op: &str,
        body: &str,
        f: impl FnOnce(Req) -> dynoxide::Result<Resp>,
    ) -> Result<String, DynoxideError>
    where
        Req: serde::de::DeserializeOwned,
        Resp: serde::Serialize,
    {
        let request: Req = serde_json::from_str(body).map_err(|e| read_refusal(op, &e))?;
        let response = {
            let _turn = self.turn.lock().await;
            f(request).map_err(|e| engine_refusal(op, e))?
        };
        // The engine has run: from here on the request is answered, never
        // refused (the in-process transport would send a refused one again).
        // Serialising a response of maps and strings cannot fail; if it
        // did, this is dynoxide's handler's answer to it.
        Ok(serde_json::to_string(&response).unwrap_or_else(|e| {
            serde_json::json!({
                "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                "message": e.to_string(),
            })
            .to_string()
        }))
    }
}

/// Writes [`OPERATIONS`] and [`EngineSlot::run`] from one table, so the
/// list and the dispatch never disagree.
macro_rules! operations {
    ($($name:literal => $module:ident :: $request:ident => $method:ident,)*) => {
        /// Every operation the engine runs, by name (without the target
        /// prefix).
        pub(crate) const OPERATIONS: &[&str] = &[$($name),*];

        impl EngineSlot {
            /// Runs `op` (one of [`OPERATIONS`]) on `body` on `db`: the
            /// response body, or the refusal (of the request's JSON or of
            /// the engine); `None` when `op` is no operation of the
            /// engine's.
            pub(crate) async fn run(
                &self,
                db: &dynoxide::Database,
                op: &str,
                body: &str,
            ) -> Option<Result<String, DynoxideError>> {
                match op {
                    $($name => Some(self.call(op, body, |r: actions::$module::$request| db.$method(r)).await),)*
                    _ => None,
                }
            }
        }
    };
}

operations! {
    "PutItem" => put_item::PutItemRequest => put_item,
    "GetItem" => get_item::GetItemRequest => get_item,
    "DeleteItem" => delete_item::DeleteItemRequest => delete_item,
    "UpdateItem" => update_item::UpdateItemRequest => update_item,
    "Query" => query::QueryRequest => query,
    "Scan" => scan::ScanRequest => scan,
    "BatchGetItem" => batch_get_item::BatchGetItemRequest => batch_get_item,
    "BatchWriteItem" => batch_write_item::BatchWriteItemRequest => batch_write_item,
    "TransactWriteItems" => transact_write_items::TransactWriteItemsRequest => transact_write_items,
    "TransactGetItems" => transact_get_items::TransactGetItemsRequest => transact_get_items,
    "CreateTable" => create_table::CreateTableRequest => create_table,
    "DescribeTable" => describe_table::DescribeTableRequest => describe_table,
    "DeleteTable" => delete_table::DeleteTableRequest => delete_table,
    "ListTables" => list_tables::ListTablesRequest => list_tables,
    "UpdateTable" => update_table::UpdateTableRequest => update_table,
    "UpdateTimeToLive" => update_time_to_live::UpdateTimeToLiveRequest => update_time_to_live,
    "DescribeTimeToLive" => describe_time_to_live::DescribeTimeToLiveRequest => describe_time_to_live,
    "ExecuteStatement" => execute_statement::ExecuteStatementRequest => execute_statement,
    "ExecuteTransaction" => execute_transaction::ExecuteTransactionRequest => execute_transaction,
    "BatchExecuteStatement" => batch_execute_statement::BatchExecuteStatementRequest => batch_execute_statement,
    "TagResource" => tag_resource::TagResourceRequest => tag_resource,
    "UntagResource" => untag_resource::UntagResourceRequest => untag_resource,
    "ListTagsOfResource" => list_tags_of_resource::ListTagsOfResourceRequest => list_tags_of_resource,
    "ListStreams" => list_streams::ListStreamsRequest => list_streams,
    "DescribeStream" => describe_stream::DescribeStreamRequest => describe_stream,
    "GetShardIterator" => get_shard_iterator::GetShardIteratorRequest => get_shard_iterator,
    "GetRecords" => get_records::GetRecordsRequest => get_records,
    "SearchVectors" => search_vectors::SearchVectorsRequest => search_vectors,
}

/// How dynoxide's request types mark the class of a refusal in a serde
/// message (its `serde_errors` module): the marker, the class, and
/// whether serde's " at line N column M" stays on.
const MARKERS: [(&str, Class, bool); 5] = [
    ("SERIALIZATION_AS_READ:", Class::Serialization, true),
    ("VALIDATION_AS_READ:", Class::Validation, true),
    ("SERIALIZATION:", Class::Serialization, false),
    ("VALIDATION_REQUEST:", Class::Request, false),
    ("VALIDATION:", Class::Validation, false),
];

#[derive(Clone, Copy)]
enum Class {
    Serialization,
    Validation,
    /// A request-validation error: enveloped on the single-item writes.
    Request,
}

/// A request its type refused as it was read, as DynamoDB words it: the
/// class the message's marker names (missing members, `null`s and
/// unknown enum values are validation errors; any other JSON type
/// mismatch a serialization error).
fn read_refusal(op: &str, e: &serde_json::Error) -> DynoxideError {
    let msg = e.to_string();
    let (class, text) = MARKERS
        .iter()
        .find_map(|(marker, class, keep)| {
            let rest = msg.strip_prefix(marker)?;
            Some((*class, if *keep { rest } else { strip_position(rest) }))
        })
        .unwrap_or_else(|| {
            let text = strip_position(&msg);
            let validation = ["missing field", "unknown variant", "invalid type: null"]
                .iter()
                .any(|m| msg.contains(m))
                || msg.contains("Supplied AttributeValue");
            let class = if validation {
                Class::Validation
            } else {
                Class::Serialization
            };
            (class, text)
        });
    match class {
        Class::Serialization => DynoxideError::SerializationException(text.to_owned()),
        Class::Validation => DynoxideError::ValidationException(text.to_owned()),
        Class::Request => engine_refusal(op, DynoxideError::EnvelopedValidation(text.to_owned())),
    }
}

/// The engine's refusal as `op` puts it on the wire: PutItem, UpdateItem
/// and DeleteItem wrap a request-validation error in DynamoDB's
/// "1 validation error detected: " envelope; every other operation
/// reports it bare.
fn engine_refusal(op: &str, e: DynoxideError) -> DynoxideError {
    match e {
        DynoxideError::EnvelopedValidation(msg)
            if matches!(op, "PutItem" | "UpdateItem" | "DeleteItem") =>
        {
            DynoxideError::ValidationException(format!("1 validation error detected: {msg}"))
        }
        DynoxideError::EnvelopedValidation(msg) => DynoxideError::ValidationException(msg),
        other => other,
    }
}

/// `msg` without serde_json's " at line N column M".
fn strip_position(msg: &str) -> &str {
    match msg.rfind(" at line ") {
        Some(i) if msg[i..].contains(" column ") => &msg[..i],
        _ => msg,
    }
}

/// A request id in DynamoDB's form, 52 characters of `[0-9A-Z]`: a v7
/// uuid made once per process (its start and randomness) and a count of
/// the process's requests. (A uuid per request reads the OS's random
/// source each time, a system call on every request.)
pub(crate) fn request_id() -> String {
    static PROCESS: OnceLock<u128> = OnceLock::new();
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let process = *PROCESS.get_or_init(|| uuid::Uuid::now_v7().as_u128());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{process:032X}{n:020}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> (Arc<EngineSlot>, dynoxide::Database) {
        let db = dynoxide::Database::memory().unwrap();
        (EngineSlot::new(db.clone()), db)
    }

    #[tokio::test]
    async fn every_operation_of_a_table_runs_in_process() {
        let (slot, db) = engine();
        let create = r#"{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
            "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}"#;
        slot.run(&db, "CreateTable", create).await.unwrap().unwrap();
        let batch = r#"{"RequestItems":{"tab":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]}}"#;
        slot.run(&db, "BatchWriteItem", batch)
            .await
            .unwrap()
            .unwrap();
        let tx = r#"{"TransactItems":[{"Put":{"TableName":"tab","Item":{"pk":{"S":"b"}}}}]}"#;
        slot.run(&db, "TransactWriteItems", tx)
            .await
            .unwrap()
            .unwrap();
        let listed = slot.run(&db, "ListTables", "{}").await.unwrap().unwrap();
        assert_eq!(listed, r#"{"TableNames":["tab"]}"#);
        let scan = slot.run(&db, "Scan", r#"{"TableName":"tab"}"#).await;
        assert!(scan.unwrap().unwrap().contains(r#""Count":2"#));
        assert!(slot.run(&db, "NoSuchOperation", "{}").await.is_none());
    }

    #[tokio::test]
    async fn a_refusal_has_dynamodbs_class_and_no_serde_position() {
        let (slot, db) = engine();
        let missing = slot.run(&db, "GetItem", r#"{"Key":{}}"#).await.unwrap();
        let e = missing.unwrap_err();
        assert_eq!(
            e.error_type(),
            "com.amazon.coral.validate#ValidationException"
        );
        let mistyped = slot
            .run(&db, "ListTables", r#"{"Limit":"x"}"#)
            .await
            .unwrap();
        let e = mistyped.unwrap_err();
        assert!(e.error_type().ends_with("SerializationException"), "{e:?}");
        assert!(!e.to_string().contains(" at line "), "{e}");
        let gone = slot
            .run(&db, "DescribeTable", r#"{"TableName":"nope"}"#)
            .await;
        let e = gone.unwrap().unwrap_err();
        assert!(
            e.error_type().ends_with("ResourceNotFoundException"),
            "{e:?}"
        );
        let null = r#"{"TableName":"nope","Item":{"pk":{"NULL":false}}}"#;
        let e = slot.run(&db, "PutItem", null).await.unwrap().unwrap_err();
        assert!(
            e.to_string().starts_with("1 validation error detected: "),
            "{e}"
        );
    }
}
