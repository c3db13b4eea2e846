//! Seed 000 "Queue over a sparse index", its enqueue and read half: a job
//! is put with its shard in the transaction of the order it belongs to, so
//! there is no job without its order and no order without its job; a
//! pending job sits in GSI2 `PENDING#<shard>` under its v7 id, so a shard
//! reads in enqueue order and a fan-out over the shards reads the whole
//! queue. The priority variant keys `<priority:d2>#<id>`, most urgent
//! first. (Claiming a job, completing it and the reaper are conditional
//! updates; they come with the typed update builder.)

use std::fmt;

use dynakey::{uuid7, Db, Entity, Error};
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::write_sharding::{fmix64, fnv1a64};
use crate::report::{Printout, Table};
use crate::seeds::{OrderStatus, PriorityJob, QueuedJob, UserOrder};

super::recipe!(
    "queue",
    "000 Queue over a sparse index (enqueue and read; claim and reaper need updates)",
    "jobs enqueued with their order in one transaction; GSI2 PENDING#<shard> read in enqueue order",
    |db| vec![db.clone(), priority_db(db)]
);

/// Shards of the pending index.
pub const SHARDS: i32 = 4;
/// When the first job was enqueued; one a second.
pub const START: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);
/// Jobs enqueued.
pub const JOBS: usize = 8;

/// The shard of a job: its id's stable hash, modulo [`SHARDS`].
pub fn shard_of(id: Uuid) -> i32 {
    (fmix64(fnv1a64(id.as_bytes())) % SHARDS as u64) as i32
}

/// The table of [`PriorityJob`] next to `db`: it keys the same GSI2
/// partitions (`PENDING#<shard>`) differently, so it gets its own table.
pub fn priority_db(db: &Db) -> Db {
    Db::new(db.client().clone(), format!("{}-priority", db.table_name()))
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Payloads per shard, each shard in enqueue order.
    pub per_shard: Vec<Vec<String>>,
    /// Every pending job, a fan-out over the shards merged by id: enqueue
    /// order.
    pub all_pending: Vec<String>,
    /// Enqueueing a second job for an existing order: the transaction's
    /// error (nothing was written).
    pub duplicate: String,
    /// Jobs pending after the refused enqueue.
    pub pending_after_duplicate: u64,
    /// Priority jobs of shard 0, most urgent first: (priority, payload).
    pub by_priority: Vec<(u8, String)>,
}

/// Creates the table and the priority table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[QueuedJob::META, UserOrder::META]).await?;
    priority_db(db).create_table(&[PriorityJob::META]).await
}

fn order(number: usize) -> UserOrder {
    UserOrder {
        user_id: "u1".into(),
        order_id: format!("o{number}"),
        order_date: date!(2026 - 07 - 16),
        amount: Decimal::new(1000 + number as i64, 2),
        status: OrderStatus::Open,
    }
}

/// Puts `order` (if new) and its job in one transaction.
pub async fn enqueue(db: &Db, order: &UserOrder, at: OffsetDateTime) -> Result<Uuid, Error> {
    let id = uuid7::at(at);
    let job = QueuedJob {
        id,
        shard: Some(shard_of(id)),
        claim_shard: None,
        owner: None,
        claimed_until: None,
        payload: format!("ship {}/{}", order.user_id, order.order_id),
    };
    db.transact_write()
        .put_if_not_exists(order)
        .put(&job)
        .send()
        .await?;
    Ok(id)
}

/// Enqueues eight jobs with their orders, refuses a duplicate order, reads
/// the queue per shard and merged, then reads a priority shard.
pub async fn run(db: &Db) -> Result<Report, Error> {
    for n in 0..JOBS {
        enqueue(db, &order(n), START + Duration::seconds(n as i64)).await?;
    }
    let duplicate = match enqueue(db, &order(3), START + Duration::minutes(1)).await {
        Err(e) => e.to_string(),
        Ok(id) => format!("enqueued {id}"),
    };
    let pks = || {
        (0..SHARDS)
            .map(QueuedJob::gsi2_pk)
            .collect::<Result<Vec<_>, _>>()
    };
    let mut per_shard = Vec::new();
    for pk in pks()? {
        let jobs = db.query(pk).all().await?;
        per_shard.push(jobs.into_iter().map(|j| j.payload).collect());
    }
    let all_pending = db
        .query_many(pks()?)
        .all()
        .await?
        .into_iter()
        .map(|j| j.payload)
        .collect();
    let pending_after_duplicate = db.query_many(pks()?).count().await?;

    let prio = priority_db(db);
    let mut batch = prio.batch_write();
    for (i, priority) in [5u8, 1, 9, 1, 3].into_iter().enumerate() {
        batch = batch.put(&PriorityJob {
            id: uuid7::at(START + Duration::seconds(i as i64)),
            shard: Some(0),
            priority,
            payload: format!("job{i}"),
        });
    }
    super::adjacency::assert_written(batch.send().await?.unprocessed.len())?;
    let by_priority = prio
        .query(PriorityJob::gsi2_pk(0)?)
        .all()
        .await?
        .into_iter()
        .map(|j| (j.priority, j.payload))
        .collect();
    Ok(Report {
        per_shard,
        all_pending,
        duplicate,
        pending_after_duplicate,
        by_priority,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new(
            "GSI2 PENDING#<shard>, each in enqueue order",
            ["shard", "jobs"],
        );
        for (s, jobs) in self.per_shard.iter().enumerate() {
            t.push([format!("PENDING#{s}"), jobs.join(", ")]);
        }
        p.table(t);
        p.note(format!(
            "every shard, merged: {}",
            self.all_pending.join(", ")
        ));
        p.note(format!(
            "a second job for order o3: {} ({} jobs pending)",
            self.duplicate, self.pending_after_duplicate
        ));
        let mut t = Table::new("priority shard 0, most urgent first", ["priority", "job"]);
        for (prio, job) in &self.by_priority {
            t.push([prio.to_string(), job.clone()]);
        }
        p.table(t);
        p.fmt(f)
    }
}
