//! Fault injection at the SDK's HTTP layer, to test retry paths (emulators
//! never throttle): a wrapper around any HTTP client that answers some
//! requests with a throttling error without sending them (of any exception,
//! with any of DynamoDB's `ThrottlingReasons`: [`ThrottleFault`]), holds back part of
//! some batch calls and reports it as `UnprocessedItems`/`UnprocessedKeys`,
//! can add latency to every request, and can make index reads stale
//! ([`StaleIndex`]: an index query misses the writes of the last moment).
//!
//! Behind the `testing` feature (a test tool, not part of a production
//! build): `dynakey = { version = "0.1", features = ["local", "testing"] }`
//! under `[dev-dependencies]`.
//!
//! ```
//! use dynakey_runtime::fault::{FaultConfig, FaultInjector};
//! use std::time::Duration;
//! let local = dynakey_runtime::local::memory().unwrap();
//! let faults = FaultInjector::new(FaultConfig {
//!     throttle_rate: 0.3,
//!     partial_rate: 0.3,
//!     latency: Duration::ZERO,
//!     seed: 7,
//! });
//! let conf = local
//!     .config_builder()
//!     .http_client(faults.wrap(local.http_client()))
//!     .build();
//! let _client = aws_sdk_dynamodb::Client::from_conf(conf);
//! assert_eq!(faults.stats().requests, 0);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::byte_stream::ByteStream;
use serde_json::Value;

mod stale;
mod throttle;
pub use stale::StaleIndex;
pub use throttle::{resource_arn, ThrottleException, ThrottleFault};

/// What to inject (see the example on [`FaultInjector`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaultConfig {
    /// Share of data requests answered with
    /// `ProvisionedThroughputExceededException` (not sent), or with what
    /// [`FaultInjector::throttle_with`] sets, on the operations it names.
    pub throttle_rate: f64,
    /// Share of batch calls (of more than one request) of which about half is
    /// held back and returned as unprocessed.
    pub partial_rate: f64,
    /// Latency added to every request.
    pub latency: Duration,
    /// Seed of the fault sequence.
    pub seed: u64,
}

impl Default for FaultConfig {
    fn default() -> Self {
        Self {
            throttle_rate: 0.0,
            partial_rate: 0.0,
            latency: Duration::ZERO,
            seed: 1,
        }
    }
}

/// Counters of what was injected (see the example on [`FaultInjector`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FaultStats {
    /// Requests seen.
    pub requests: u64,
    /// Requests answered with a throttling error.
    pub throttled: u64,
    /// Batch calls partly held back.
    pub partial: u64,
    /// Batch requests (items or keys) held back in all.
    pub held_back: u64,
    /// Items a stale index read left out.
    pub stale_hidden: u64,
}

#[derive(Debug, Default)]
struct Counters {
    rng: AtomicU64,
    requests: AtomicU64,
    throttled: AtomicU64,
    partial: AtomicU64,
    held_back: AtomicU64,
    stale_hidden: AtomicU64,
}

/// Wraps HTTP clients with faults; clones share the counters.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use aws_sdk_dynamodb::config::retry::RetryConfig;
/// use dynakey_runtime::fault::{FaultConfig, FaultInjector};
/// use dynakey_runtime::{Db, Error};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let faults = FaultInjector::new(FaultConfig { throttle_rate: 1.0, ..FaultConfig::default() });
/// let conf = backend
///     .config_builder()
///     .http_client(faults.wrap(backend.http_client()))
///     .retry_config(RetryConfig::disabled())
///     .build();
/// let db = Db::new(aws_sdk_dynamodb::Client::from_conf(conf), "t");
/// let err = db.transact_get().send().await.unwrap_err(); // refused before sending
/// assert!(matches!(err, Error::Refused { .. }));
/// let err = db.client().get_item().table_name("t").send().await.unwrap_err();
/// assert!(format!("{err:?}").contains("ProvisionedThroughputExceeded"));
/// assert_eq!((faults.stats().requests, faults.stats().throttled), (1, 1));
/// # });
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct FaultInjector {
    config: FaultConfig,
    counters: Arc<Counters>,
    stale: Option<Arc<StaleIndex>>,
    throttle: Arc<ThrottleFault>,
}

impl FaultInjector {
    /// An injector with `config`.
    pub fn new(config: FaultConfig) -> Self {
        let counters = Counters::default();
        counters.rng.store(config.seed.max(1), Ordering::Relaxed);
        Self {
            config,
            counters: Arc::new(counters),
            stale: None,
            throttle: Arc::new(ThrottleFault::default()),
        }
    }

    /// What the throttles answer: `fault`'s exception and
    /// `ThrottlingReasons`, on the operations it names (any operation);
    /// how often stays [`FaultConfig::throttle_rate`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use aws_sdk_dynamodb::config::retry::RetryConfig;
    /// use dynakey_runtime::fault::{resource_arn, FaultConfig, FaultInjector, ThrottleFault};
    /// use dynakey_runtime::{Db, Error, ThrottleLimit, ThrottleReason};
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// // Any operation, a control-plane one here.
    /// let at_max = ThrottleReason::parse("TableReadMaxOnDemandThroughputExceeded");
    /// let faults = FaultInjector::new(FaultConfig { throttle_rate: 1.0, ..FaultConfig::default() })
    ///     .throttle_with(ThrottleFault::new(at_max.clone(), resource_arn("t", None)).on(&["DeleteTable"]));
    /// let conf = backend
    ///     .config_builder()
    ///     .http_client(faults.wrap(backend.http_client()))
    ///     .retry_config(RetryConfig::disabled())
    ///     .build();
    /// let db = Db::new(aws_sdk_dynamodb::Client::from_conf(conf), "t");
    /// let err = dynakey_runtime::table::delete_table(db.client(), "t").await.unwrap_err();
    /// let Error::Throttled { operation, reasons, .. } = &err else { panic!("{err}") };
    /// assert_eq!((*operation, &reasons[0].reason), ("DeleteTable", &at_max));
    /// assert_eq!(reasons[0].reason.limit(), Some(ThrottleLimit::MaxOnDemandThroughputExceeded));
    /// assert_eq!(reasons[0].resource.as_ref().unwrap().table.as_deref(), Some("t"));
    /// # });
    /// ```
    pub fn throttle_with(mut self, fault: ThrottleFault) -> Self {
        self.throttle = Arc::new(fault);
        self
    }

    /// Index reads that miss recent writes: a query or scan of a secondary
    /// index leaves out every item put or updated less than `stale.lag()`
    /// ago (an updated item is missing, where DynamoDB would still show its
    /// old version; a `Select=COUNT` answer is not changed). Table reads
    /// see every write at once, as on DynamoDB.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, tag: String }
    /// use dynakey_runtime::fault::{FaultConfig, FaultInjector, StaleIndex};
    /// use dynakey_runtime::{Db, Entity};
    /// use std::time::Duration;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let faults = FaultInjector::new(FaultConfig::default())
    ///     .stale_index(StaleIndex::new(Duration::from_millis(300), Note::META));
    /// let conf = backend
    ///     .config_builder()
    ///     .http_client(faults.wrap(backend.http_client()))
    ///     .build();
    /// let db = Db::new(aws_sdk_dynamodb::Client::from_conf(conf), "notes");
    /// db.create_table(&[Note::META]).await.unwrap();
    /// db.put(&Note { user: "ann".into(), id: 1, tag: "red".into() }).await.unwrap();
    /// let by_tag = db.query(Note::gsi1_pk("red").unwrap());
    /// assert!(by_tag.all().await.unwrap().is_empty()); // not in the index yet
    /// assert_eq!(db.query(Note::pk("ann").unwrap()).all().await.unwrap().len(), 1);
    /// tokio::time::sleep(Duration::from_millis(350)).await;
    /// assert_eq!(by_tag.all().await.unwrap().len(), 1);
    /// assert_eq!(faults.stats().stale_hidden, 1);
    /// # });
    /// ```
    pub fn stale_index(mut self, stale: StaleIndex) -> Self {
        self.stale = Some(Arc::new(stale));
        self
    }

    /// What was injected so far.
    pub fn stats(&self) -> FaultStats {
        let c = &self.counters;
        FaultStats {
            requests: c.requests.load(Ordering::Relaxed),
            throttled: c.throttled.load(Ordering::Relaxed),
            partial: c.partial.load(Ordering::Relaxed),
            held_back: c.held_back.load(Ordering::Relaxed),
            stale_hidden: c.stale_hidden.load(Ordering::Relaxed),
        }
    }

    /// `inner` with faults: give the result to
    /// `aws_sdk_dynamodb::config::Builder::http_client`.
    pub fn wrap(&self, inner: impl HttpClient + 'static) -> SharedHttpClient {
        SharedHttpClient::new(FaultyClient {
            inner: SharedHttpClient::new(inner),
            injector: self.clone(),
        })
    }

    /// A uniform number in [0, 1) (xorshift, shared by all requests).
    fn next(&self) -> f64 {
        let mut x = self.counters.rng.load(Ordering::Relaxed);
        loop {
            let mut y = x;
            y ^= y << 13;
            y ^= y >> 7;
            y ^= y << 17;
            match self.counters.rng.compare_exchange_weak(
                x,
                y,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return (y >> 11) as f64 / (1u64 << 53) as f64,
                Err(cur) => x = cur,
            }
        }
    }
}

#[derive(Debug)]
struct FaultyClient {
    inner: SharedHttpClient,
    injector: FaultInjector,
}

impl HttpClient for FaultyClient {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(FaultyConnector {
            inner: self.inner.http_connector(settings, components),
            injector: self.injector.clone(),
        })
    }
}

#[derive(Debug)]
struct FaultyConnector {
    inner: SharedHttpConnector,
    injector: FaultInjector,
}

const DATA_OPS: &[&str] = &[
    "PutItem",
    "GetItem",
    "DeleteItem",
    "UpdateItem",
    "Query",
    "Scan",
    "BatchWriteItem",
    "BatchGetItem",
    "TransactWriteItems",
    "TransactGetItems",
    "SearchVectors",
];

fn json_response(status: u16, body: String) -> HttpResponse {
    let mut resp = HttpResponse::new(
        status.try_into().expect("valid status"),
        SdkBody::from(body.clone()),
    );
    resp.headers_mut()
        .insert("content-type", "application/x-amz-json-1.0");
    resp.headers_mut()
        .insert("content-length", body.len().to_string());
    resp
}

impl HttpConnector for FaultyConnector {
    fn call(&self, mut request: HttpRequest) -> HttpConnectorFuture {
        let inj = self.injector.clone();
        let inner = self.inner.clone();
        HttpConnectorFuture::new(async move {
            let c = &inj.counters;
            c.requests.fetch_add(1, Ordering::Relaxed);
            if !inj.config.latency.is_zero() {
                tokio::time::sleep(inj.config.latency).await;
            }
            let op = request
                .headers()
                .get("x-amz-target")
                .and_then(|t| t.rsplit('.').next())
                .unwrap_or("")
                .to_owned();
            let data = DATA_OPS.contains(&op.as_str());
            if inj.throttle.hits(&op, data) && inj.next() < inj.config.throttle_rate {
                c.throttled.fetch_add(1, Ordering::Relaxed);
                return Ok(json_response(400, inj.throttle.body()));
            }
            if !data {
                return inner.call(request).await;
            }
            if let Some(st) = &inj.stale {
                st.note_writes(&op, &request);
                if let Some(table) = StaleIndex::index_read(&op, &request) {
                    return st.read(table, request, inner, c).await;
                }
            }
            let batch = op == "BatchWriteItem" || op == "BatchGetItem";
            if !batch || inj.next() >= inj.config.partial_rate {
                return inner.call(request).await;
            }
            let Some(mut body) = request
                .body()
                .bytes()
                .and_then(|b| serde_json::from_slice::<Value>(b).ok())
            else {
                return inner.call(request).await;
            };
            let held = hold_back(&mut body, op == "BatchWriteItem", &inj);
            if held.as_object().is_none_or(|m| m.is_empty()) {
                return inner.call(request).await;
            }
            let bytes = body.to_string();
            request
                .headers_mut()
                .insert("content-length", bytes.len().to_string());
            *request.body_mut() = SdkBody::from(bytes);
            let resp = inner.call(request).await?;
            let status = resp.status().as_u16();
            let collected = ByteStream::new(resp.into_body())
                .collect()
                .await
                .map_err(|e| aws_smithy_runtime_api::client::result::ConnectorError::io(e.into()))?
                .into_bytes();
            if status != 200 {
                return Ok(json_response(
                    status,
                    String::from_utf8_lossy(&collected).into_owned(),
                ));
            }
            let mut out: Value =
                serde_json::from_slice(&collected).unwrap_or(Value::Object(Default::default()));
            let field = if op == "BatchWriteItem" {
                "UnprocessedItems"
            } else {
                "UnprocessedKeys"
            };
            merge_unprocessed(&mut out, field, held, op == "BatchWriteItem");
            c.partial.fetch_add(1, Ordering::Relaxed);
            Ok(json_response(200, out.to_string()))
        })
    }
}

/// Removes about half of each table's requests from a batch body; returns
/// them in the shape of the response's unprocessed field.
fn hold_back(body: &mut Value, write: bool, inj: &FaultInjector) -> Value {
    let mut held = serde_json::Map::new();
    let Some(tables) = body.get_mut("RequestItems").and_then(Value::as_object_mut) else {
        return Value::Object(held);
    };
    for (table, v) in tables.iter_mut() {
        let list = if write {
            v.as_array_mut()
        } else {
            v.get_mut("Keys").and_then(Value::as_array_mut)
        };
        let Some(list) = list else { continue };
        if list.len() < 2 {
            continue;
        }
        let keep = 1 + (inj.next() * (list.len() - 1) as f64) as usize;
        let gone: Vec<Value> = list.split_off(keep.min(list.len() - 1));
        inj.counters
            .held_back
            .fetch_add(gone.len() as u64, Ordering::Relaxed);
        let entry = if write {
            Value::Array(gone)
        } else {
            let mut ka = v.as_object().cloned().unwrap_or_default();
            ka.insert("Keys".into(), Value::Array(gone));
            Value::Object(ka)
        };
        held.insert(table.clone(), entry);
    }
    Value::Object(held)
}

fn merge_unprocessed(out: &mut Value, field: &str, held: Value, write: bool) {
    let Some(obj) = out.as_object_mut() else {
        return;
    };
    let slot = obj
        .entry(field)
        .or_insert_with(|| Value::Object(Default::default()));
    if !slot.is_object() {
        *slot = Value::Object(Default::default());
    }
    let Some(map) = slot.as_object_mut() else {
        return;
    };
    if let Value::Object(held) = held {
        for (table, v) in held {
            match map.get_mut(&table) {
                None => {
                    map.insert(table, v);
                }
                Some(existing) => {
                    let (a, b) = if write {
                        (existing.as_array_mut(), v.as_array().cloned())
                    } else {
                        (
                            existing.get_mut("Keys").and_then(Value::as_array_mut),
                            v.get("Keys").and_then(Value::as_array).cloned(),
                        )
                    };
                    if let (Some(a), Some(b)) = (a, b) {
                        a.extend(b);
                    }
                }
            }
        }
    }
}
