//! A request recorder for tests (feature `testing`): every request a
//! client sends, in readable form ([`Explain`]: operation, table, index,
//! expressions with their names and values, every action of a transaction
//! and every request of a batch), with the capacity its response reported.
//! An SDK interceptor records each operation once (before the SDK's own
//! retries), so it sees what any code sends through the client, dynakey's
//! or not.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
//! # #[pk("USER#<user>")]
//! # #[sk("NOTE#<id:d6>")]
//! # struct Note { user: String, id: u32, text: String }
//! use dynakey_runtime::spy::Recorder;
//! use dynakey_runtime::Entity;
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let spy = Recorder::new();
//! let db = spy.db(&backend.db("notes"));
//! db.create_table(&[Note::META]).await.unwrap();
//! spy.clear();
//! db.put(&Note { user: "ann".into(), id: 1, text: "hi".into() }).if_not_exists().await.unwrap();
//! db.transact_write().delete(Note::key("ann", 1).unwrap()).await.unwrap();
//! assert_eq!(spy.operations(), ["PutItem", "TransactWriteItems"]);
//! let put = &spy.of("PutItem")[0];
//! assert_eq!(put.explain.condition.as_deref(), Some("attribute_not_exists(#n0)"));
//! assert_eq!(spy.of("TransactWriteItems")[0].explain.actions[0].operation, "Delete");
//! # });
//! ```

use std::sync::{Arc, Mutex, PoisonError};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeSerializationInterceptorContextRef, FinalizerInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::operation::{
    batch_get_item as bg, batch_write_item as bw, delete_item as di, get_item as gi,
    put_item as pi, query as q, scan as sc, search_vectors as sv, transact_get_items as tg,
    transact_write_items as tw, update_item as ui,
};
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::interceptors::context::{Input, Output};
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use aws_smithy_types::config_bag::{Storable, StoreReplace};

use crate::db::Db;
use crate::explain::Explain;

/// One recorded request.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let spy = dynakey_runtime::spy::Recorder::new();
/// let client = spy.client(backend.client());
/// client.list_tables().send().await.unwrap();
/// let r = &spy.requests()[0];
/// assert_eq!((r.operation.as_str(), r.succeeded), ("ListTables", Some(true)));
/// assert_eq!(r.capacity, None); // ListTables reports no capacity
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Recorded {
    /// The operation: `PutItem`, `Query`, `TransactWriteItems`, …
    pub operation: String,
    /// The request in readable form (for an operation dynakey does not
    /// explain, such as `CreateTable`, only its name).
    pub explain: Explain,
    /// The `ReturnConsumedCapacity` the request asked for (`None` when it
    /// asked nothing, as an operation that reports no capacity, such as
    /// `CreateTable`, does).
    pub capacity: Option<ReturnConsumedCapacity>,
    /// The capacity the response reported (empty when it reported none,
    /// or failed).
    pub consumed: Vec<ConsumedCapacity>,
    /// Whether the request succeeded (`None` while it is under way).
    pub succeeded: Option<bool>,
}

/// Records what clients send; clones share the record.
///
/// ```
/// let spy = dynakey_runtime::spy::Recorder::new();
/// let other = spy.clone(); // the same record
/// assert_eq!((spy.len(), other.len()), (0, 0));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    log: Arc<Mutex<Log>>,
}

/// The records, each with its number (`first` is the number of the first
/// one kept, so a cleared record never takes another's outcome).
#[derive(Debug, Default)]
struct Log {
    first: u64,
    records: Vec<Recorded>,
}

impl Log {
    fn get_mut(&mut self, n: u64) -> Option<&mut Recorded> {
        let i = usize::try_from(n.checked_sub(self.first)?).ok()?;
        self.records.get_mut(i)
    }
}

/// The number of an operation's record, kept in its config bag.
#[derive(Debug, Clone, Copy)]
struct Slot(u64);

impl Storable for Slot {
    type Storer = StoreReplace<Self>;
}

impl Recorder {
    /// An empty recorder.
    ///
    /// ```
    /// assert!(dynakey_runtime::spy::Recorder::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `client` with this recorder attached (same configuration).
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let spy = dynakey_runtime::spy::Recorder::new();
    /// let client = spy.client(backend.client());
    /// assert!(spy.is_empty());
    /// # let _ = client;
    /// ```
    pub fn client(&self, client: &Client) -> Client {
        let conf = client
            .config()
            .to_builder()
            .interceptor(Spy(self.clone()))
            .build();
        Client::from_conf(conf)
    }

    /// `db` with its client recorded (same table and settings).
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let spy = dynakey_runtime::spy::Recorder::new();
    /// assert_eq!(spy.db(&backend.db("notes")).table_name(), "notes");
    /// ```
    pub fn db(&self, db: &Db) -> Db {
        let mut out = db.clone();
        out.client = self.client(&db.client);
        out
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every request so far, in the order they were sent.
    ///
    /// ```
    /// assert!(dynakey_runtime::spy::Recorder::new().requests().is_empty());
    /// ```
    pub fn requests(&self) -> Vec<Recorded> {
        self.lock().records.clone()
    }

    /// The operations sent, in order.
    ///
    /// ```
    /// assert!(dynakey_runtime::spy::Recorder::new().operations().is_empty());
    /// ```
    pub fn operations(&self) -> Vec<String> {
        self.lock()
            .records
            .iter()
            .map(|r| r.operation.clone())
            .collect()
    }

    /// The requests of operation `op` (`"Query"`, `"BatchWriteItem"`, …).
    ///
    /// ```
    /// assert!(dynakey_runtime::spy::Recorder::new().of("Query").is_empty());
    /// ```
    pub fn of(&self, op: &str) -> Vec<Recorded> {
        self.lock()
            .records
            .iter()
            .filter(|r| r.operation == op)
            .cloned()
            .collect()
    }

    /// How many requests were recorded.
    ///
    /// ```
    /// assert_eq!(dynakey_runtime::spy::Recorder::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().records.len()
    }

    /// Whether nothing was recorded.
    ///
    /// ```
    /// assert!(dynakey_runtime::spy::Recorder::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets what was recorded (a request under way is left out too).
    ///
    /// ```
    /// let spy = dynakey_runtime::spy::Recorder::new();
    /// spy.clear();
    /// assert!(spy.is_empty());
    /// ```
    pub fn clear(&self) {
        let mut log = self.lock();
        log.first += log.records.len() as u64;
        log.records.clear();
    }
}

#[derive(Debug)]
struct Spy(Recorder);

/// The readable form of a type-erased input and the capacity it asks for,
/// when it is a data operation.
fn explain(input: &Input) -> Option<(Explain, Option<ReturnConsumedCapacity>)> {
    macro_rules! try_as {
        ($($t:ty),*) => {$(
            if let Some(i) = input.downcast_ref::<$t>() {
                return Some((Explain::from(i), i.return_consumed_capacity().cloned()));
            }
        )*};
    }
    try_as!(
        pi::PutItemInput,
        gi::GetItemInput,
        ui::UpdateItemInput,
        di::DeleteItemInput,
        q::QueryInput,
        sc::ScanInput,
        sv::SearchVectorsInput,
        bw::BatchWriteItemInput,
        bg::BatchGetItemInput,
        tw::TransactWriteItemsInput,
        tg::TransactGetItemsInput
    );
    None
}

/// The capacity a type-erased output reports.
fn consumed(output: &Output) -> Vec<ConsumedCapacity> {
    macro_rules! one {
        ($($t:ty),*) => {$(
            if let Some(o) = output.downcast_ref::<$t>() {
                return o.consumed_capacity().into_iter().cloned().collect();
            }
        )*};
    }
    macro_rules! many {
        ($($t:ty),*) => {$(
            if let Some(o) = output.downcast_ref::<$t>() {
                return o.consumed_capacity().to_vec();
            }
        )*};
    }
    one!(
        pi::PutItemOutput,
        gi::GetItemOutput,
        ui::UpdateItemOutput,
        di::DeleteItemOutput,
        q::QueryOutput,
        sc::ScanOutput
    );
    many!(
        bw::BatchWriteItemOutput,
        bg::BatchGetItemOutput,
        tw::TransactWriteItemsOutput,
        tg::TransactGetItemsOutput
    );
    Vec::new()
}

impl Intercept for Spy {
    fn name(&self) -> &'static str {
        "dynakey::spy::Recorder"
    }

    // Before serialization: the operation's configuration is in place, and
    // the SDK's retries come later.
    fn read_before_serialization(
        &self,
        ctx: &BeforeSerializationInterceptorContextRef<'_>,
        _rc: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let op = cfg
            .load::<Metadata>()
            .map_or("Unknown", Metadata::name)
            .to_owned();
        let (explain, capacity) =
            explain(ctx.input()).unwrap_or_else(|| (Explain::new(&op, ""), None));
        let mut log = self.0.lock();
        log.records.push(Recorded {
            operation: op,
            explain,
            capacity,
            consumed: Vec::new(),
            succeeded: None,
        });
        let slot = Slot(log.first + log.records.len() as u64 - 1);
        drop(log);
        cfg.interceptor_state().store_put(slot);
        Ok(())
    }

    fn read_after_execution(
        &self,
        ctx: &FinalizerInterceptorContextRef<'_>,
        _rc: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(Slot(i)) = cfg.load::<Slot>().copied() else {
            return Ok(());
        };
        let outcome = ctx.output_or_error();
        let mut log = self.0.lock();
        if let Some(r) = log.get_mut(i) {
            r.succeeded = Some(matches!(outcome, Some(Ok(_))));
            if let Some(Ok(out)) = outcome {
                r.consumed = consumed(out);
            }
        }
        Ok(())
    }
}
