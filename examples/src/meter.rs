//! Counting what the recipes cost: every request a client sends, and what
//! DynamoDB reports for it (items returned, items evaluated, capacity).
//!
//! [`Meter::attach`] gives a [`Db`] on the same table whose client carries an
//! SDK interceptor. The interceptor asks for `ReturnConsumedCapacity = TOTAL`
//! on reads and writes and records, per request, the operation, `Count`,
//! `ScannedCount` and the consumed capacity units (when the backend reports
//! them: real DynamoDB does, emulators may not). A refused request (a
//! failed condition) is recorded with the operation `Error`.

use std::sync::{Arc, Mutex, PoisonError};

use aws_sdk_dynamodb::config::interceptors::{
    AfterDeserializationInterceptorContextRef, BeforeSerializationInterceptorContextMut,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::operation::{
    batch_get_item::{BatchGetItemInput, BatchGetItemOutput},
    batch_write_item::{BatchWriteItemInput, BatchWriteItemOutput},
    delete_item::{DeleteItemInput, DeleteItemOutput},
    get_item::{GetItemInput, GetItemOutput},
    put_item::{PutItemInput, PutItemOutput},
    query::{QueryInput, QueryOutput},
    scan::{ScanInput, ScanOutput},
    transact_write_items::{TransactWriteItemsInput, TransactWriteItemsOutput},
    update_item::{UpdateItemInput, UpdateItemOutput},
};
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use aws_sdk_dynamodb::Client;
use dynakey::Db;

/// What one request cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The operation, e.g. `Query`.
    pub op: &'static str,
    /// Items returned (`Count`; for other operations 0 or 1).
    pub count: u64,
    /// Items read before the filter (`ScannedCount` of a query or scan).
    pub scanned: u64,
    /// Capacity units, when the backend reported them.
    pub capacity: Option<f64>,
}

/// The sum of several requests.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    /// Requests sent (retries included).
    pub requests: u64,
    /// Items returned.
    pub count: u64,
    /// Items read (evaluated) by queries and scans.
    pub scanned: u64,
    /// Capacity units, when the backend reported them for every request.
    pub capacity: Option<f64>,
}

impl Usage {
    /// Capacity as text, `n/a` when the backend did not report it.
    pub fn capacity_text(&self) -> String {
        self.capacity
            .map_or_else(|| "n/a".to_owned(), |c| format!("{c:.1}"))
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} request(s), {} item(s) returned, {} read, capacity {}",
            self.requests,
            self.count,
            self.scanned,
            self.capacity_text()
        )
    }
}

/// A log of the requests of one client; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    log: Arc<Mutex<Vec<Request>>>,
}

impl Meter {
    /// `db` again (same table, same endpoint and credentials), through a
    /// client that records every request into the returned meter.
    pub fn attach(db: &Db) -> (Db, Meter) {
        let meter = Meter::default();
        let conf = db
            .client()
            .config()
            .to_builder()
            .interceptor(Recorder(meter.clone()))
            .build();
        let metered =
            Db::new(Client::from_conf(conf), db.table_name()).with_retry(db.retry_policy());
        (metered, meter)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Request>> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Request> {
        self.lock().clone()
    }

    /// The sum of every request so far, and forget them (so the next call
    /// measures the next step).
    pub fn take(&self) -> Usage {
        let log = std::mem::take(&mut *self.lock());
        sum(&log)
    }
}

fn sum(log: &[Request]) -> Usage {
    let mut u = Usage {
        capacity: Some(0.0),
        ..Usage::default()
    };
    for r in log {
        u.requests += 1;
        u.count += r.count;
        u.scanned += r.scanned;
        u.capacity = match (u.capacity, r.capacity) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }
    if log.is_empty() {
        u.capacity = None;
    }
    u
}

#[derive(Debug)]
struct Recorder(Meter);

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn units(c: Option<&ConsumedCapacity>) -> Option<f64> {
    c.and_then(ConsumedCapacity::capacity_units)
}

fn units_all(cs: &[ConsumedCapacity]) -> Option<f64> {
    if cs.is_empty() {
        return None;
    }
    cs.iter()
        .map(ConsumedCapacity::capacity_units)
        .sum::<Option<f64>>()
}

impl Intercept for Recorder {
    fn name(&self) -> &'static str {
        "dynakey-examples-meter"
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let total = Some(ReturnConsumedCapacity::Total);
        let input = context.input_mut();
        macro_rules! ask {
            ($($t:ty),*) => {$(
                if let Some(i) = input.downcast_mut::<$t>() {
                    i.return_consumed_capacity = total.clone();
                    return Ok(());
                }
            )*};
        }
        ask!(
            QueryInput,
            ScanInput,
            GetItemInput,
            PutItemInput,
            DeleteItemInput,
            UpdateItemInput,
            BatchGetItemInput,
            BatchWriteItemInput,
            TransactWriteItemsInput
        );
        Ok(())
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let out = match context.inner().output_or_error() {
            Some(Ok(out)) => out,
            Some(Err(_)) => {
                // A refused request (a failed condition, a validation error).
                self.0.lock().push(write("Error", None));
                return Ok(());
            }
            None => return Ok(()),
        };
        let r = if let Some(o) = out.downcast_ref::<QueryOutput>() {
            Request {
                op: "Query",
                count: o.count().max(0) as u64,
                scanned: o.scanned_count().max(0) as u64,
                capacity: units(o.consumed_capacity()),
            }
        } else if let Some(o) = out.downcast_ref::<ScanOutput>() {
            Request {
                op: "Scan",
                count: o.count().max(0) as u64,
                scanned: o.scanned_count().max(0) as u64,
                capacity: units(o.consumed_capacity()),
            }
        } else if let Some(o) = out.downcast_ref::<GetItemOutput>() {
            Request {
                op: "GetItem",
                count: u64::from(o.item().is_some_and(|i| !i.is_empty())),
                scanned: 0,
                capacity: units(o.consumed_capacity()),
            }
        } else if let Some(o) = out.downcast_ref::<PutItemOutput>() {
            write("PutItem", units(o.consumed_capacity()))
        } else if let Some(o) = out.downcast_ref::<DeleteItemOutput>() {
            write("DeleteItem", units(o.consumed_capacity()))
        } else if let Some(o) = out.downcast_ref::<UpdateItemOutput>() {
            write("UpdateItem", units(o.consumed_capacity()))
        } else if let Some(o) = out.downcast_ref::<BatchGetItemOutput>() {
            Request {
                op: "BatchGetItem",
                count: o
                    .responses()
                    .map_or(0, |r| r.values().map(|v| v.len() as u64).sum()),
                scanned: 0,
                capacity: units_all(o.consumed_capacity()),
            }
        } else if let Some(o) = out.downcast_ref::<BatchWriteItemOutput>() {
            write("BatchWriteItem", units_all(o.consumed_capacity()))
        } else if let Some(o) = out.downcast_ref::<TransactWriteItemsOutput>() {
            write("TransactWriteItems", units_all(o.consumed_capacity()))
        } else {
            write("Other", None)
        };
        self.0.lock().push(r);
        Ok(())
    }
}

fn write(op: &'static str, capacity: Option<f64>) -> Request {
    Request {
        op,
        count: 0,
        scanned: 0,
        capacity,
    }
}
