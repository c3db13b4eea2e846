//! Stream records exactly as a backend's Streams API sends them: each
//! record as the SDK reads it and as the raw DynamoDB JSON of the
//! `GetRecords` response (what a Lambda function or a replay file holds).
//! The change handler's tests and the `task_counts` example feed the
//! handler these, not hand-written records.

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodbstreams::types::{Record, ShardIteratorType};
use aws_sdk_dynamodbstreams::Client as StreamsClient;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::AfterDeserializationInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;
use dynakey::{Db, Error};
use serde_json::Value;

/// Keeps the body of the response it sees (after deserialization, when
/// the SDK has read it into memory).
#[derive(Debug, Clone, Default)]
struct KeepBody(Arc<Mutex<Vec<u8>>>);

impl Intercept for KeepBody {
    fn name(&self) -> &'static str {
        "keep-body"
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let (Some(bytes), Ok(mut kept)) = (context.response().body().bytes(), self.0.lock()) {
            *kept = bytes.to_vec();
        }
        Ok(())
    }
}

/// Records read in one go: the same records twice, as the SDK's `Record`s
/// and as the raw JSON objects of the response's `Records`.
#[derive(Debug, Default)]
pub struct Captured {
    /// As `aws-sdk-dynamodbstreams` reads them.
    pub records: Vec<Record>,
    /// As the backend sent them (DynamoDB JSON).
    pub json: Vec<Value>,
}

impl Captured {
    /// The raw records as a Lambda DynamoDB event's JSON (`{"Records": [..]}`),
    /// each with the `eventSourceARN` Lambda adds and `userIdentity` in
    /// Lambda's casing.
    pub fn lambda_event_json(&self, stream_arn: &str) -> Value {
        let records: Vec<Value> = self
            .json
            .iter()
            .map(|r| {
                let mut r = r.clone();
                if let Some(o) = r.as_object_mut() {
                    o.insert("eventSourceARN".into(), Value::String(stream_arn.into()));
                    // Lambda spells the identity `type` / `principalId`,
                    // the Streams API `Type` / `PrincipalId`.
                    if let Some(id) = o.get_mut("userIdentity").and_then(Value::as_object_mut) {
                        for (api, lambda) in [("Type", "type"), ("PrincipalId", "principalId")] {
                            if let Some(v) = id.remove(api) {
                                id.insert(lambda.into(), v);
                            }
                        }
                    }
                }
                r
            })
            .collect();
        serde_json::json!({ "Records": records })
    }
}

/// Reads a table's stream from its oldest record on, batch by batch.
#[derive(Debug)]
pub struct StreamCapture {
    client: StreamsClient,
    /// The stream followed.
    pub stream_arn: String,
    shard: String,
    iterator: Option<String>,
}

fn sdk(e: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::Sdk(Box::new(e))
}

impl StreamCapture {
    /// Follows `db`'s table stream through `client` (`local::Backend::streams_client`),
    /// from its oldest record. Both emulators keep one shard per table.
    pub async fn new(db: &Db, client: StreamsClient) -> Result<Self, Error> {
        let table = db
            .client()
            .describe_table()
            .table_name(db.table_name())
            .send()
            .await
            .map_err(sdk)?;
        let stream_arn = table
            .table()
            .and_then(|t| t.latest_stream_arn())
            .ok_or_else(|| Error::Refused {
                reason: dynakey::RefusedReason::Other,
                message: format!("table {} has no stream", db.table_name()),
            })?
            .to_owned();
        let desc = client
            .describe_stream()
            .stream_arn(&stream_arn)
            .send()
            .await
            .map_err(sdk)?;
        let shard = desc
            .stream_description()
            .and_then(|d| d.shards().first())
            .and_then(|s| s.shard_id())
            .ok_or_else(|| Error::Refused {
                reason: dynakey::RefusedReason::Other,
                message: "the stream has no shard".into(),
            })?
            .to_owned();
        Ok(Self {
            client,
            stream_arn,
            shard,
            iterator: None,
        })
    }

    /// Every record written since the last call (the first call: since
    /// the stream began).
    pub async fn next_batch(&mut self) -> Result<Captured, Error> {
        let mut out = Captured::default();
        loop {
            let iterator = match self.iterator.take() {
                Some(it) => it,
                None => self
                    .client
                    .get_shard_iterator()
                    .stream_arn(&self.stream_arn)
                    .shard_id(&self.shard)
                    .shard_iterator_type(ShardIteratorType::TrimHorizon)
                    .send()
                    .await
                    .map_err(sdk)?
                    .shard_iterator()
                    .unwrap_or_default()
                    .to_owned(),
            };
            let body = KeepBody::default();
            let page = self
                .client
                .get_records()
                .shard_iterator(iterator)
                .customize()
                .interceptor(body.clone())
                .send()
                .await
                .map_err(sdk)?;
            let raw: Value = body
                .0
                .lock()
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .unwrap_or(Value::Null);
            let json = raw["Records"].as_array().cloned().unwrap_or_default();
            let n = page.records().len();
            if json.len() != n {
                return Err(Error::Refused {
                    reason: dynakey::RefusedReason::Other,
                    message: format!(
                        "the raw body holds {} records, the SDK read {n}",
                        json.len()
                    ),
                });
            }
            out.records.extend(page.records().iter().cloned());
            out.json.extend(json);
            self.iterator = page.next_shard_iterator().map(str::to_owned);
            // Caught up, or the shard ended (emulators never end theirs).
            if n == 0 || self.iterator.is_none() {
                return Ok(out);
            }
        }
    }
}
