//! Observability: one `tracing` span per request the runtime sends (feature
//! `tracing`, on by default), named `dynakey.request`, with OpenTelemetry's
//! DynamoDB attributes. A span is created only when a subscriber listens
//! at `INFO` for the target `dynakey`; otherwise it costs a callsite check.
//!
//! Every request means every one: single-item operations, queries, scans,
//! batches (one span per chunk, its retries included), transactions, the
//! reads and writes of `#[dynamo(unique)]` guards, moves, the schema
//! runner's and the change feed's requests, and the table admin operations
//! (`CreateTable`, `DescribeTable`, `UpdateTable`, `UpdateTimeToLive`, …).
//! They all go through one send path inside the runtime, so none can skip
//! its span.
//!
//! | field | what |
//! |---|---|
//! | `db.system`, `db.system.name` | `"dynamodb"` |
//! | `db.operation`, `db.operation.name` | `PutItem`, `Query`, `BatchWriteItem`, … |
//! | `otel.name`, `otel.kind` | `"<operation> <table>"`, `"client"` |
//! | `aws.dynamodb.table_names`, `db.collection.name` | the table |
//! | `aws.dynamodb.index_name` | the index of a query |
//! | `dynakey.entity` | the entity's Rust type name |
//! | `aws.dynamodb.count`, `aws.dynamodb.scanned_count` | items returned and read (query, scan) |
//! | `aws.dynamodb.consumed_capacity` | capacity units consumed, summed over the span's calls |
//! | `dynakey.vector_bytes` | vector indexes' `VectorSearchRequestBytes` and `VectorWriteRequestBytes`, summed over the span's calls, when DynamoDB reports them (a write's only under `ReturnConsumedCapacity = INDEXES`) |
//! | `dynakey.calls`, `dynakey.retries` | calls made (a batch chunk retries) and retries |
//! | `dynakey.unprocessed` | batch requests still unprocessed after the retries |
//! | `dynakey.actions` | actions of a transaction, requests of a batch chunk |
//! | `error.type` | why the request failed: DynamoDB's error code when it answered with one (`ConditionalCheckFailedException`, `ProvisionedThroughputExceededException`, `ThrottlingException`, `ResourceNotFoundException`, …), else the [`Error`] variant (`Refused`, `KeyFormat`, `Decode`, `Unreachable`, …) |
//! | `dynakey.throttle.reason` | why DynamoDB throttled it, when it was ([`ThrottleReason`](crate::ThrottleReason)s, comma-separated) |
//! | `dynakey.throttle.resource` | the table or index ARN each of those reasons names, in the same order |
//!
//! The throttle fields are set when the request ended in
//! [`Error::Throttled`], or when a batch chunk's
//! retries ran out while throttled (its requests handed back unprocessed).
//!
//! Every request that reads or writes items asks for
//! `ReturnConsumedCapacity = TOTAL` (free on DynamoDB), or what
//! [`Db::with_capacity`](crate::Db::with_capacity) says. Table admin
//! operations and the Streams API report no consumed capacity, so they ask
//! for none: their spans have no `aws.dynamodb.consumed_capacity`.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
//! # #[pk("USER#<user>")]
//! # #[sk("NOTE#<id:d6>")]
//! # struct Note { user: String, id: u32, text: String }
//! use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
//! use dynakey_runtime::Entity;
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("notes").with_capacity(ReturnConsumedCapacity::Indexes);
//! db.create_table(&[Note::META]).await.unwrap();
//! // With no subscriber installed the spans are disabled and cost nothing.
//! db.put(&Note { user: "ann".into(), id: 1, text: "hi".into() }).await.unwrap();
//! # });
//! ```

use std::future::Future;
#[cfg(feature = "tracing")]
use std::sync::{Mutex, PoisonError};

use aws_sdk_dynamodb::types::{ConsumedCapacity, VectorCapacity};

use crate::error::{Error, Throttle};

/// The span of one request (a no-op without the `tracing` feature).
#[derive(Debug)]
pub(crate) struct Span {
    #[cfg(feature = "tracing")]
    span: tracing::Span,
    /// The capacity units and the vector bytes the span's calls reported
    /// so far.
    #[cfg(feature = "tracing")]
    units: Mutex<(f64, f64)>,
    /// DynamoDB's error code of the span's last call, when it failed: the
    /// span's `error.type` if the request ends in an error.
    #[cfg(feature = "tracing")]
    code: Mutex<Option<String>>,
}

#[cfg(feature = "tracing")]
impl Span {
    /// A span for `op` on `table`, reading `index`, for `entity`.
    pub(crate) fn new(
        op: &'static str,
        table: &str,
        index: Option<&str>,
        entity: Option<&'static str>,
    ) -> Self {
        let span = tracing::info_span!(
            target: "dynakey",
            "dynakey.request",
            "db.system" = "dynamodb",
            "db.system.name" = "dynamodb",
            "db.operation" = op,
            "db.operation.name" = op,
            "otel.kind" = "client",
            "otel.name" = tracing::field::Empty,
            "aws.dynamodb.table_names" = tracing::field::Empty,
            "db.collection.name" = tracing::field::Empty,
            "aws.dynamodb.index_name" = index,
            "dynakey.entity" = entity,
            "aws.dynamodb.count" = tracing::field::Empty,
            "aws.dynamodb.scanned_count" = tracing::field::Empty,
            "aws.dynamodb.consumed_capacity" = tracing::field::Empty,
            "dynakey.vector_bytes" = tracing::field::Empty,
            "dynakey.calls" = tracing::field::Empty,
            "dynakey.retries" = tracing::field::Empty,
            "dynakey.unprocessed" = tracing::field::Empty,
            "dynakey.actions" = tracing::field::Empty,
            "error.type" = tracing::field::Empty,
            "dynakey.throttle.reason" = tracing::field::Empty,
            "dynakey.throttle.resource" = tracing::field::Empty,
        );
        if !span.is_disabled() {
            span.record("otel.name", format!("{op} {table}"));
            span.record("aws.dynamodb.table_names", table);
            span.record("db.collection.name", table);
        }
        Self {
            span,
            units: Mutex::new((0.0, 0.0)),
            code: Mutex::new(None),
        }
    }

    /// Keeps DynamoDB's error code of the last call (`None`: it succeeded,
    /// or failed before DynamoDB answered).
    pub(crate) fn last_code(&self, code: Option<&str>) {
        *self.code.lock().unwrap_or_else(PoisonError::into_inner) = code.map(str::to_owned);
    }

    fn take_code(&self) -> Option<String> {
        self.code
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// Runs `f` inside the span.
    pub(crate) async fn run<F: Future>(&self, f: F) -> F::Output {
        use tracing::Instrument;
        f.instrument(self.span.clone()).await
    }

    fn record(&self, field: &'static str, v: impl tracing::Value) {
        self.span.record(field, v);
    }

    /// Adds the capacity of one call to the span's sum.
    pub(crate) fn capacity(&self, c: &[ConsumedCapacity]) {
        if c.is_empty() || self.span.is_disabled() {
            return;
        }
        let call: f64 = c
            .iter()
            .map(|c| c.capacity_units().unwrap_or_default())
            .sum();
        let mut units = self.units.lock().unwrap_or_else(PoisonError::into_inner);
        units.0 += call;
        self.record("aws.dynamodb.consumed_capacity", units.0);
        drop(units);
        // Vector indexes report bytes beside the units, not in them.
        let vectors = c
            .iter()
            .flat_map(|c| c.vector_indexes().into_iter().flat_map(|m| m.values()));
        if let Some(b) = vectors.map(vector_bytes).reduce(|a, b| a + b) {
            self.vector_bytes(b);
        }
    }

    /// Adds the vector bytes of one call to the span's sum.
    pub(crate) fn vector_bytes(&self, bytes: f64) {
        if self.span.is_disabled() {
            return;
        }
        let mut units = self.units.lock().unwrap_or_else(PoisonError::into_inner);
        units.1 += bytes;
        self.record("dynakey.vector_bytes", units.1);
    }
}

#[cfg(not(feature = "tracing"))]
impl Span {
    pub(crate) fn new(_: &'static str, _: &str, _: Option<&str>, _: Option<&'static str>) -> Self {
        Self {}
    }

    pub(crate) async fn run<F: Future>(&self, f: F) -> F::Output {
        f.await
    }

    fn record(&self, _: &'static str, _: impl Sized) {}

    pub(crate) fn last_code(&self, _: Option<&str>) {}

    fn take_code(&self) -> Option<String> {
        None
    }

    pub(crate) fn capacity(&self, _: &[ConsumedCapacity]) {}

    pub(crate) fn vector_bytes(&self, _: f64) {}
}

impl Span {
    /// Items returned and read (`Count`, `ScannedCount`).
    pub(crate) fn counts(&self, count: i32, scanned: i32) {
        self.record("aws.dynamodb.count", i64::from(count));
        self.record("aws.dynamodb.scanned_count", i64::from(scanned));
    }

    /// Calls made (retries are the calls after the first).
    pub(crate) fn calls(&self, calls: u32) {
        self.record("dynakey.calls", u64::from(calls));
        self.record("dynakey.retries", u64::from(calls.saturating_sub(1)));
    }

    /// Batch requests left unprocessed.
    pub(crate) fn unprocessed(&self, n: usize) {
        self.record("dynakey.unprocessed", n as u64);
    }

    /// Actions of a transaction, or requests of a batch chunk.
    pub(crate) fn actions(&self, n: usize) {
        self.record("dynakey.actions", n as u64);
    }

    /// `r`, its error recorded (`error.type`).
    pub(crate) fn end<T>(&self, r: Result<T, Error>) -> Result<T, Error> {
        if let Err(e) = &r {
            self.error(e);
        }
        r
    }

    /// Records the error of a failed request (`error.type`, and the
    /// throttle fields of a throttle).
    pub(crate) fn error(&self, e: &Error) {
        let code = self.take_code().unwrap_or_else(|| error_type(e));
        self.record("error.type", code);
        self.throttles(e.throttles());
    }

    /// Records why DynamoDB throttled (`dynakey.throttle.*`), if it did.
    pub(crate) fn throttles(&self, t: &[Throttle]) {
        if t.is_empty() {
            return;
        }
        let join = |f: &dyn Fn(&Throttle) -> String| t.iter().map(f).collect::<Vec<_>>().join(",");
        self.record("dynakey.throttle.reason", join(&|t| t.reason.to_string()));
        self.record(
            "dynakey.throttle.resource",
            join(&|t| t.resource.as_ref().map_or(String::new(), |r| r.arn.clone())),
        );
    }
}

/// The bytes one vector index reported for a call: a search's and a
/// write's.
pub(crate) fn vector_bytes(v: &VectorCapacity) -> f64 {
    v.vector_search_request_bytes().unwrap_or_default()
        + v.vector_write_request_bytes().unwrap_or_default()
}

/// A short name for an error no DynamoDB code names (one made before or
/// after the call, or a call's code the span did not see): the code its
/// variant stands for, or the variant.
fn error_type(e: &Error) -> String {
    match e {
        Error::ConditionFailed { .. } => "ConditionalCheckFailedException".into(),
        Error::TransactionCanceled { .. } => "TransactionCanceledException".into(),
        Error::Validation { .. } => "ValidationException".into(),
        other => {
            let text = format!("{other:?}");
            text.split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("Error")
                .to_owned()
        }
    }
}
