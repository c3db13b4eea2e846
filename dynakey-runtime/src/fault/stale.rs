//! The stale-index mode of fault injection: a query (or scan) of a
//! secondary index leaves out the items written less than a lag ago, as a
//! global index of DynamoDB does for a moment after each write, and no
//! emulator does.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use aws_smithy_runtime_api::client::http::{HttpConnector, SharedHttpConnector};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_types::byte_stream::ByteStream;
use serde_json::Value;

use super::{json_response, Counters};
use crate::entity::EntityMeta;

/// A stale-index setting: the lag and the table's key attributes (which
/// name an item in requests and answers). Give it to
/// [`FaultInjector::stale_index`](super::FaultInjector::stale_index).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::fault::StaleIndex;
/// use dynakey_runtime::Entity;
/// let stale = StaleIndex::new(std::time::Duration::from_millis(500), Note::META);
/// assert_eq!(stale.lag(), std::time::Duration::from_millis(500));
/// ```
#[derive(Debug)]
pub struct StaleIndex {
    lag: Duration,
    key_attrs: Vec<&'static str>,
    /// When each item (table, key text) was last written.
    written: Mutex<HashMap<(String, String), Instant>>,
}

impl StaleIndex {
    /// Index reads miss writes newer than `lag`, on tables keyed as
    /// `meta`'s (the table key attributes of every entity of a table are
    /// the same). See [`FaultInjector::stale_index`](super::FaultInjector::stale_index).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::Entity;
    /// let s = dynakey_runtime::fault::StaleIndex::new(std::time::Duration::from_secs(1), Note::META);
    /// assert_eq!(s.lag().as_secs(), 1);
    /// ```
    pub fn new(lag: Duration, meta: &EntityMeta) -> Self {
        let key_attrs = std::iter::once(meta.pk.attr)
            .chain(meta.sk.as_ref().map(|k| k.attr))
            .collect();
        Self {
            lag,
            key_attrs,
            written: Mutex::new(HashMap::new()),
        }
    }

    /// The lag.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::Entity;
    /// let s = dynakey_runtime::fault::StaleIndex::new(std::time::Duration::from_millis(5), Note::META);
    /// assert_eq!(s.lag().as_millis(), 5);
    /// ```
    pub fn lag(&self) -> Duration {
        self.lag
    }

    /// The text naming an item by its key attributes (`None` without them).
    fn key_text(&self, item: &Value) -> Option<String> {
        let mut out = String::new();
        for a in &self.key_attrs {
            out.push_str(&item.get(*a)?.to_string());
            out.push('\u{0}');
        }
        Some(out)
    }

    fn note(&self, table: Option<&str>, item: Option<&Value>, now: Instant) {
        let (Some(table), Some(key)) = (table, item.and_then(|i| self.key_text(i))) else {
            return;
        };
        self.written
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((table.to_owned(), key), now);
    }

    /// Notes the items a write request puts or updates (deletes hide
    /// nothing: the item is gone either way). A write counts from when it
    /// is sent.
    pub(super) fn note_writes(&self, op: &str, request: &HttpRequest) {
        let Some(body) = request
            .body()
            .bytes()
            .and_then(|b| serde_json::from_slice::<Value>(b).ok())
        else {
            return;
        };
        let now = Instant::now();
        let table = body.get("TableName").and_then(Value::as_str);
        match op {
            "PutItem" => self.note(table, body.get("Item"), now),
            "UpdateItem" => self.note(table, body.get("Key"), now),
            "BatchWriteItem" => {
                let tables = body.get("RequestItems").and_then(Value::as_object);
                for (t, reqs) in tables.into_iter().flatten() {
                    for r in reqs.as_array().into_iter().flatten() {
                        self.note(Some(t), r.pointer("/PutRequest/Item"), now);
                    }
                }
            }
            "TransactWriteItems" => {
                let actions = body.get("TransactItems").and_then(Value::as_array);
                for a in actions.into_iter().flatten() {
                    for (kind, field) in [("Put", "Item"), ("Update", "Key")] {
                        if let Some(x) = a.get(kind) {
                            let t = x.get("TableName").and_then(Value::as_str);
                            self.note(t, x.get(field), now);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The table of a query or scan of an index, else `None`.
    pub(super) fn index_read(op: &str, request: &HttpRequest) -> Option<String> {
        if op != "Query" && op != "Scan" {
            return None;
        }
        let body: Value = serde_json::from_slice(request.body().bytes()?).ok()?;
        body.get("IndexName")?;
        body.get("TableName")?.as_str().map(str::to_owned)
    }

    /// Sends an index read and leaves out of its answer the items written
    /// less than the lag ago.
    pub(super) async fn read(
        &self,
        table: String,
        request: HttpRequest,
        inner: SharedHttpConnector,
        counters: &Counters,
    ) -> Result<HttpResponse, ConnectorError> {
        let resp = inner.call(request).await?;
        let status = resp.status().as_u16();
        let bytes = ByteStream::new(resp.into_body())
            .collect()
            .await
            .map_err(|e| ConnectorError::io(e.into()))?
            .into_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let Ok(mut out) = serde_json::from_str::<Value>(&text) else {
            return Ok(json_response(status, text));
        };
        if status != 200 {
            return Ok(json_response(status, text));
        }
        let now = Instant::now();
        let fresh = |item: &Value| {
            let written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
            self.key_text(item)
                .and_then(|k| written.get(&(table.clone(), k)).copied())
                .is_some_and(|at| now.duration_since(at) < self.lag)
        };
        let mut hidden = 0u64;
        if let Some(items) = out.get_mut("Items").and_then(Value::as_array_mut) {
            let before = items.len();
            items.retain(|i| !fresh(i));
            hidden = (before - items.len()) as u64;
        }
        if hidden > 0 {
            if let Some(n) = out.get("Count").and_then(Value::as_u64) {
                out["Count"] = Value::from(n.saturating_sub(hidden));
            }
            counters.stale_hidden.fetch_add(hidden, Ordering::Relaxed);
        }
        Ok(json_response(200, out.to_string()))
    }
}
