//! Seed 000 "Queue over a sparse index", the whole recipe.
//!
//! A job is put with its shard in the transaction of the order it belongs
//! to, so there is no job without its order and no order without its job. A
//! pending job sits in GSI2 `PENDING#<shard>` under its v7 id (the shard is
//! a stable hash of the id), so a shard reads in enqueue order. A worker
//! claims a job with a conditional update that removes `shard` (the job
//! leaves GSI2) and sets `claim_shard`, `owner` (a new id per claim) and
//! `claimed_until` (the job enters GSI1 `CLAIMED#<shard>`, keyed by the end
//! of its claim), on condition that `shard` still exists: two workers that
//! read the same pending job cannot both claim it. Completing the job
//! deletes it on condition that `owner` is still this claim. A reaper reads
//! the claims that ran out (`gsi1_sk < now`) and puts each back, on
//! condition that its owner did not change since the read.
//!
//! [`work`] runs it for real: [`WORKLOAD`] jobs enqueued at once, worked by
//! several workers (tokio tasks) concurrently, one of which "crashes" after
//! claiming some jobs, and a reaper that puts those back; every loop is
//! bounded by a deadline. The priority variant keys `<priority:d2>#<id>`,
//! so a claim takes the most urgent job first.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

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
    "000 Queue over a sparse index",
    "enqueue with the order in one transaction; conditional claims by 4 workers; reaper puts back a crashed worker's jobs",
    |db| vec![db.clone(), priority_db(db), workers_db(db)]
);

/// Shards of the pending index.
pub const SHARDS: i32 = 4;
/// When the first job was enqueued; one a second.
pub const START: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);
/// Jobs enqueued by the walk-through.
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

/// The table of the worker run next to `db`, so the run starts from an
/// empty queue.
pub fn workers_db(db: &Db) -> Db {
    Db::new(db.client().clone(), format!("{}-workers", db.table_name()))
}

/// How the worker run is set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Workload {
    /// Jobs enqueued before the workers start.
    pub jobs: usize,
    /// Workers, tokio tasks running at once.
    pub workers: usize,
    /// The last worker claims this many jobs, then "crashes": it never
    /// completes them and stops.
    pub crash_after: usize,
    /// How long a claim holds (`claimed_until = now + claim_for`).
    pub claim_for: std::time::Duration,
    /// Pending jobs a worker reads from a shard at a time.
    pub page: u32,
    /// How often the reaper looks for claims that ran out.
    pub reap_every: std::time::Duration,
    /// Every loop of the run stops at this deadline, done or not.
    pub deadline: std::time::Duration,
}

/// The worker run of the recipe: 200 jobs, 4 workers (one crashes after 5
/// claims), claims of 500 ms, a minute at most.
pub const WORKLOAD: Workload = Workload {
    jobs: 200,
    workers: 4,
    crash_after: 5,
    claim_for: std::time::Duration::from_millis(500),
    page: 10,
    reap_every: std::time::Duration::from_millis(100),
    deadline: std::time::Duration::from_secs(60),
};

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
    /// Two workers read the same pending job before either claims.
    pub stale_read: StaleRead,
    /// The reaper, step by step.
    pub reaper: ReaperDemo,
    /// Priority jobs of shard 0 as read, most urgent first: (priority,
    /// payload).
    pub by_priority: Vec<(u8, String)>,
    /// The order in which one worker claimed the priority jobs.
    pub priority_claims: Vec<String>,
    /// The concurrent run.
    pub work: WorkRun,
}

/// Two workers read the same pending job, then both claim it.
#[derive(Debug, Clone, PartialEq)]
pub struct StaleRead {
    /// The job both read (its payload).
    pub job: String,
    /// Whether each worker's read of the shard held the job.
    pub seen: [bool; 2],
    /// Each worker's claim: `Ok` or the error's name.
    pub claims: [Result<(), String>; 2],
    /// Completing with the winning claim.
    pub completed: bool,
    /// Completing with the losing worker's claim id (it never held one):
    /// the error's name.
    pub loser_completes: Result<(), String>,
}

/// The reaper on a shard with one claim that ran out and one that holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ReaperDemo {
    /// The payloads of the claims that ran out, as the reaper read them.
    pub stale: Vec<String>,
    /// Claims put back / claims that changed before the put-back.
    pub put_back: u64,
    /// See `put_back`.
    pub raced: u64,
    /// The shard's pending payloads after the reaper.
    pub pending_after: Vec<String>,
    /// The shard's claimed payloads after the reaper.
    pub claimed_after: Vec<String>,
    /// The crashed worker completing its put-back job late: the error's
    /// name.
    pub late_completion: Result<(), String>,
}

/// One worker of the concurrent run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkerStats {
    /// `w0`, `w1`, …
    pub name: String,
    /// Whether this is the worker that crashed.
    pub crashed: bool,
    /// Pending pages read.
    pub reads: u64,
    /// Claims that succeeded.
    pub claims: u64,
    /// Claims refused because another worker claimed the job first.
    pub conflicts: u64,
    /// Jobs completed (deleted under this worker's claim).
    pub completed: u64,
    /// Completions refused because the claim had been put back.
    pub late: u64,
}

/// The concurrent run.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkRun {
    /// How it was set up.
    pub workload: Workload,
    /// The ids of the jobs enqueued.
    pub enqueued: Vec<Uuid>,
    /// Orders written with the jobs.
    pub orders: u64,
    /// Jobs pending per shard when the workers started.
    pub pending_per_shard: Vec<u64>,
    /// Successful completions per job id.
    pub completions: BTreeMap<Uuid, u32>,
    /// The jobs the crashed worker claimed and never completed.
    pub abandoned: Vec<Uuid>,
    /// Per worker.
    pub workers: Vec<WorkerStats>,
    /// Claims the reaper put back.
    pub reaper_put_back: u64,
    /// Claims that changed between the reaper's read and its put-back.
    pub reaper_raced: u64,
    /// Jobs left in GSI2 (pending), GSI1 (claimed) and the table after the
    /// run.
    pub left: [u64; 3],
    /// Whether the deadline stopped the run.
    pub timed_out: bool,
    /// How long the workers ran, in milliseconds.
    pub elapsed_ms: u128,
}

impl WorkRun {
    /// Whether every enqueued job completed exactly once and nothing is
    /// left.
    pub fn exactly_once(&self) -> bool {
        self.completions.len() == self.enqueued.len()
            && self
                .enqueued
                .iter()
                .all(|id| self.completions.get(id) == Some(&1))
            && self.left == [0, 0, 0]
    }
}

/// Creates the tables.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[QueuedJob::META, UserOrder::META]).await?;
    workers_db(db)
        .create_table(&[QueuedJob::META, UserOrder::META])
        .await?;
    priority_db(db).create_table(&[PriorityJob::META]).await
}

fn order(user: &str, id: String, number: usize) -> UserOrder {
    UserOrder {
        user_id: user.into(),
        order_id: id,
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
        .put_with(order, |p| p.if_not_exists())
        .put(&job)
        .send()
        .await?;
    Ok(id)
}

/// Claims job `id` read from pending shard `shard` until `until`: it leaves
/// GSI2 and enters GSI1 `CLAIMED#<shard>`, on condition that it is still
/// pending. Returns the claim's id (new for every claim).
pub async fn claim(db: &Db, id: Uuid, shard: i32, until: OffsetDateTime) -> Result<String, Error> {
    let claim = Uuid::new_v4().simple().to_string();
    db.update(
        QueuedJob::update(id)
            .remove_shard()
            .set_claim_shard(shard)
            .set_owner(claim.as_str())
            .set_claimed_until(until)
            .condition(QueuedJob::attrs().shard.exists()),
    )
    .await?;
    Ok(claim)
}

/// Completes job `id`: deletes it, only while `claim` still holds it.
pub async fn complete(db: &Db, id: Uuid, claim: &str) -> Result<(), Error> {
    db.delete(QueuedJob::key(id)?)
        .condition(QueuedJob::attrs().owner.eq(claim))
        .await?;
    Ok(())
}

/// What one pass of the reaper did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reaped {
    /// The claims that ran out, as read.
    pub stale: Vec<QueuedJob>,
    /// Claims put back.
    pub put_back: u64,
    /// Claims completed or put back between the read and the put-back.
    pub raced: u64,
}

/// One pass of the reaper: every shard's claims that ran out before `now`
/// go back to their pending shard, each on condition that its owner did
/// not change since the read.
pub async fn reap(db: &Db, now: OffsetDateTime) -> Result<Reaped, Error> {
    let mut out = Reaped::default();
    for shard in 0..SHARDS {
        let stale = db
            .query(QueuedJob::gsi1_pk(shard)?)
            .sk(QueuedJob::gsi1_sk().lt(now)?)
            .all()
            .await?;
        for job in stale {
            let Some(owner) = job.owner.clone() else {
                continue;
            };
            let put_back = db
                .update(
                    QueuedJob::update(job.id)
                        .remove_owner()
                        .remove_claim_shard()
                        .remove_claimed_until()
                        .set_shard(shard)
                        .condition(QueuedJob::attrs().owner.eq(owner)),
                )
                .await;
            match put_back {
                Ok(_) => out.put_back += 1,
                Err(Error::ConditionFailed { .. }) => out.raced += 1,
                Err(e) => return Err(e),
            }
            out.stale.push(job);
        }
    }
    Ok(out)
}

fn err_name(e: Error) -> String {
    match e {
        Error::ConditionFailed { .. } => "ConditionFailed".to_owned(),
        Error::TransactionCanceled { .. } => "TransactionCanceled".to_owned(),
        Error::Validation { .. } => "Validation".to_owned(),
        other => format!("other: {other}"),
    }
}

fn pending_pks() -> Result<Vec<dynakey::PartitionKey<QueuedJob, impl dynakey::WholeItems>>, Error> {
    Ok((0..SHARDS)
        .map(QueuedJob::gsi2_pk)
        .collect::<Result<Vec<_>, _>>()?)
}

/// The walk-through (eight jobs with their orders, a refused duplicate, a
/// stale read, the reaper, the priority variant), then the concurrent run
/// of [`WORKLOAD`].
pub async fn run(db: &Db) -> Result<Report, Error> {
    for n in 0..JOBS {
        let o = order("u1", format!("o{n}"), n);
        enqueue(db, &o, START + Duration::seconds(n as i64)).await?;
    }
    let duplicate = match enqueue(
        db,
        &order("u1", "o3".into(), 3),
        START + Duration::minutes(1),
    )
    .await
    {
        Err(e) => e.to_string(),
        Ok(id) => format!("enqueued {id}"),
    };
    let mut per_shard = Vec::new();
    for pk in pending_pks()? {
        let jobs = db.query(pk).all().await?;
        per_shard.push(jobs.into_iter().map(|j| j.payload).collect());
    }
    let pending = db.query_many(pending_pks()?).all().await?;
    let all_pending = pending.iter().map(|j| j.payload.clone()).collect();
    let pending_after_duplicate = db.query_many(pending_pks()?).count().await?;

    let stale_read = stale_read(db, &pending[0]).await?;
    let reaper = reaper_demo(db, &pending[1], &pending[2]).await?;
    let (by_priority, priority_claims) = priority(db).await?;
    let work = work(&workers_db(db), WORKLOAD).await?;
    Ok(Report {
        per_shard,
        all_pending,
        duplicate,
        pending_after_duplicate,
        stale_read,
        reaper,
        by_priority,
        priority_claims,
        work,
    })
}

/// Two workers read `job`'s shard before either claims: both see it; both
/// claim it; exactly one claim holds.
pub async fn stale_read(db: &Db, job: &QueuedJob) -> Result<StaleRead, Error> {
    let shard = job.shard.unwrap_or_default();
    let read = || async {
        let v = db.query(QueuedJob::gsi2_pk(shard)?).all().await?;
        Ok::<bool, Error>(v.iter().any(|j| j.id == job.id))
    };
    let seen = [read().await?, read().await?];
    let until = OffsetDateTime::now_utc() + Duration::minutes(5);
    // Both claim on what they read; B's read is stale by then. (One after
    // the other: moto does not make a conditional write atomic against a
    // concurrent one, and the point here is the stale read.)
    let a = claim(db, job.id, shard, until).await;
    let b = claim(db, job.id, shard, until).await;
    let winner = a.as_ref().ok().or(b.as_ref().ok()).cloned();
    let loser = Uuid::new_v4().simple().to_string();
    let claims = [
        a.map(|_| ()).map_err(err_name),
        b.map(|_| ()).map_err(err_name),
    ];
    let loser_completes = complete(db, job.id, &loser).await.map_err(err_name);
    let completed = match winner {
        Some(c) => complete(db, job.id, &c).await.is_ok(),
        None => false,
    };
    Ok(StaleRead {
        job: job.payload.clone(),
        seen,
        claims,
        completed,
        loser_completes,
    })
}

/// A crashed worker's claim that ran out (`stale`) and a claim that holds
/// (`held`), on their shards; one pass of the reaper.
pub async fn reaper_demo(
    db: &Db,
    stale: &QueuedJob,
    held: &QueuedJob,
) -> Result<ReaperDemo, Error> {
    let now = OffsetDateTime::now_utc();
    let (s1, s2) = (
        stale.shard.unwrap_or_default(),
        held.shard.unwrap_or_default(),
    );
    let crashed = claim(db, stale.id, s1, now - Duration::minutes(1)).await?;
    claim(db, held.id, s2, now + Duration::minutes(5)).await?;
    let r = reap(db, now).await?;
    let payloads = |v: Vec<QueuedJob>| v.into_iter().map(|j| j.payload).collect::<Vec<_>>();
    let pending_after = payloads(db.query_many(pending_pks()?).all().await?);
    let claimed_pks = (0..SHARDS)
        .map(QueuedJob::gsi1_pk)
        .collect::<Result<Vec<_>, _>>()?;
    let claimed_after = payloads(db.query_many(claimed_pks).all().await?);
    let late_completion = complete(db, stale.id, &crashed).await.map_err(err_name);
    Ok(ReaperDemo {
        stale: payloads(r.stale),
        put_back: r.put_back,
        raced: r.raced,
        pending_after,
        claimed_after,
        late_completion,
    })
}

/// Five priority jobs on shard 0, read most urgent first, then claimed one
/// at a time from the head of the shard (claim = remove `shard` on
/// condition that it exists; then delete).
pub async fn priority(db: &Db) -> Result<(Vec<(u8, String)>, Vec<String>), Error> {
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
    batch.send().await?;
    let by_priority = prio
        .query(PriorityJob::gsi2_pk(0)?)
        .all()
        .await?
        .into_iter()
        .map(|j| (j.priority, j.payload))
        .collect();
    let mut claims = Vec::new();
    for _ in 0..10 {
        let head = prio.query(PriorityJob::gsi2_pk(0)?).limit(1).all().await?;
        let Some(job) = head.into_iter().next() else {
            break;
        };
        prio.update(
            PriorityJob::update(job.id)
                .remove_shard()
                .condition(PriorityJob::attrs().shard.exists()),
        )
        .await?;
        prio.delete(PriorityJob::key(job.id)?).await?;
        claims.push(job.payload);
    }
    Ok((by_priority, claims))
}

/// Completions per job id, shared by the workers.
#[derive(Default)]
struct Done {
    completions: Mutex<BTreeMap<Uuid, u32>>,
    total: usize,
}

impl Done {
    fn record(&self, id: Uuid) {
        let mut m = self
            .completions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *m.entry(id).or_default() += 1;
    }
    fn all(&self) -> bool {
        self.completions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
            >= self.total
    }
}

/// One worker: reads a page of each pending shard in turn (its own first),
/// claims what it read, completes what it claimed. With `crash_after`, it
/// stops after that many claims without completing any.
async fn worker(
    db: Db,
    w: usize,
    load: Workload,
    crash_after: Option<usize>,
    done: Arc<Done>,
    stop: tokio::time::Instant,
) -> Result<(WorkerStats, Vec<Uuid>), Error> {
    let mut stats = WorkerStats {
        name: format!("w{w}"),
        crashed: crash_after.is_some(),
        ..WorkerStats::default()
    };
    let mut abandoned = Vec::new();
    let claim_for = Duration::try_from(load.claim_for).unwrap_or(Duration::SECOND);
    while tokio::time::Instant::now() < stop && !done.all() {
        let mut found = false;
        for s in 0..SHARDS {
            let shard = (w as i32 + s) % SHARDS;
            let page = db
                .query(QueuedJob::gsi2_pk(shard)?)
                .page_size(load.page)
                .page(None)
                .await?;
            stats.reads += 1;
            for job in page.items {
                found = true;
                let until = OffsetDateTime::now_utc() + claim_for;
                let claimed = match claim(&db, job.id, shard, until).await {
                    Ok(c) => c,
                    Err(Error::ConditionFailed { .. }) => {
                        stats.conflicts += 1;
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                stats.claims += 1;
                if let Some(n) = crash_after {
                    abandoned.push(job.id);
                    if abandoned.len() >= n {
                        return Ok((stats, abandoned));
                    }
                    continue;
                }
                // Run the job (nothing to do here), then complete it.
                match complete(&db, job.id, &claimed).await {
                    Ok(()) => {
                        stats.completed += 1;
                        done.record(job.id);
                    }
                    Err(Error::ConditionFailed { .. }) => stats.late += 1,
                    Err(e) => return Err(e),
                }
            }
        }
        if !found {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    Ok((stats, abandoned))
}

/// The reaper of the run: a pass every `reap_every` until every job is
/// done or the deadline.
async fn reaper(
    db: Db,
    load: Workload,
    done: Arc<Done>,
    stop: tokio::time::Instant,
) -> Result<(u64, u64), Error> {
    let (mut put_back, mut raced) = (0, 0);
    while tokio::time::Instant::now() < stop && !done.all() {
        let r = reap(&db, OffsetDateTime::now_utc()).await?;
        put_back += r.put_back;
        raced += r.raced;
        tokio::time::sleep(load.reap_every).await;
    }
    Ok((put_back, raced))
}

/// Enqueues `load.jobs` jobs (each with its order, in one transaction),
/// then runs `load.workers` workers and the reaper at once until every job
/// completed or the deadline; counts completions per job and what is left.
pub async fn work(db: &Db, load: Workload) -> Result<WorkRun, Error> {
    // One transaction at a time: moto's TransactWriteItems is not safe to
    // run concurrently (it deep-copies the table while others write to it).
    let mut enqueued = Vec::with_capacity(load.jobs);
    for n in 0..load.jobs {
        let o = order("u2", format!("w{n:03}"), n);
        enqueued.push(enqueue(db, &o, OffsetDateTime::now_utc()).await?);
    }
    let orders = db.query(UserOrder::pk("u2")?).count().await?;
    let mut pending_per_shard = Vec::new();
    for pk in pending_pks()? {
        pending_per_shard.push(db.query(pk).count().await?);
    }

    let done = Arc::new(Done {
        completions: Mutex::default(),
        total: load.jobs,
    });
    let started = tokio::time::Instant::now();
    let stop = started + load.deadline;
    let mut tasks = Vec::new();
    for w in 0..load.workers {
        let crash = (w + 1 == load.workers).then_some(load.crash_after);
        tasks.push(tokio::spawn(worker(
            db.clone(),
            w,
            load,
            crash,
            Arc::clone(&done),
            stop,
        )));
    }
    let reaper = tokio::spawn(reaper(db.clone(), load, Arc::clone(&done), stop));
    let mut workers = Vec::new();
    let mut abandoned = Vec::new();
    for t in tasks {
        let (stats, a) = t.await.map_err(|e| Error::Sdk(Box::new(e)))??;
        workers.push(stats);
        abandoned.extend(a);
    }
    let (reaper_put_back, reaper_raced) = reaper.await.map_err(|e| Error::Sdk(Box::new(e)))??;
    let elapsed_ms = started.elapsed().as_millis();
    let timed_out = !done.all();

    let pending_left = db.query_many(pending_pks()?).count().await?;
    let claimed_pks = (0..SHARDS)
        .map(QueuedJob::gsi1_pk)
        .collect::<Result<Vec<_>, _>>()?;
    let claimed_left = db.query_many(claimed_pks).count().await?;
    let jobs_left = db.scan::<QueuedJob>().consistent().count().await?;
    let completions = done
        .completions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    Ok(WorkRun {
        workload: load,
        enqueued,
        orders,
        pending_per_shard,
        completions,
        abandoned,
        workers,
        reaper_put_back,
        reaper_raced,
        left: [pending_left, claimed_left, jobs_left],
        timed_out,
        elapsed_ms,
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
        let s = &self.stale_read;
        p.table(
            Table::new(
                format!("stale read: workers A and B both read {}", s.job),
                ["step", "A", "B"],
            )
            .row([
                "read the pending shard: job seen".to_owned(),
                s.seen[0].to_string(),
                s.seen[1].to_string(),
            ])
            .row([
                "claim (condition: shard exists)".to_owned(),
                crate::report::outcome(&s.claims[0]),
                crate::report::outcome(&s.claims[1]),
            ]),
        );
        p.note(format!(
            "completion with the winning claim: {}; with another claim id: {}",
            s.completed,
            crate::report::outcome(&s.loser_completes)
        ));
        let r = &self.reaper;
        p.table(
            Table::new("reaper: one claim ran out, one holds", ["step", "result"])
                .row([
                    "GSI1 CLAIMED#<shard>, gsi1sk < now".to_owned(),
                    r.stale.join(", "),
                ])
                .row([
                    "put back / raced".to_owned(),
                    format!("{} / {}", r.put_back, r.raced),
                ])
                .row(["pending after".to_owned(), r.pending_after.join(", ")])
                .row(["claimed after".to_owned(), r.claimed_after.join(", ")])
                .row([
                    "the crashed worker completes late".to_owned(),
                    crate::report::outcome(&r.late_completion),
                ]),
        );
        let mut t = Table::new(
            "priority shard 0, most urgent first",
            ["priority", "job", "claimed"],
        );
        for (prio, job) in &self.by_priority {
            let nth = self
                .priority_claims
                .iter()
                .position(|c| c == job)
                .map_or("-".to_owned(), |n| format!("#{}", n + 1));
            t.push([prio.to_string(), job.clone(), nth]);
        }
        p.table(t);

        let w = &self.work;
        let l = &w.workload;
        p.note(format!(
            "concurrent run: {} jobs enqueued with {} orders (pending per shard {:?}), {} workers, \
             claims of {} ms, w{} crashes after {} claims",
            w.enqueued.len(),
            w.orders,
            w.pending_per_shard,
            l.workers,
            l.claim_for.as_millis(),
            l.workers.saturating_sub(1),
            l.crash_after
        ));
        let mut t = Table::new(
            "workers",
            [
                "worker",
                "reads",
                "claims",
                "conflicts",
                "completed",
                "late",
            ],
        );
        for s in &w.workers {
            let name = if s.crashed {
                format!("{} (crashed)", s.name)
            } else {
                s.name.clone()
            };
            t.push([
                name,
                s.reads.to_string(),
                s.claims.to_string(),
                s.conflicts.to_string(),
                s.completed.to_string(),
                s.late.to_string(),
            ]);
        }
        p.table(t);
        let once = w.completions.values().filter(|n| **n == 1).count();
        let more = w.completions.values().filter(|n| **n > 1).count();
        let missing = w
            .enqueued
            .iter()
            .filter(|id| !w.completions.contains_key(id))
            .count();
        p.note(format!(
            "reaper put back {} claim(s) ({} raced); completed once: {once}, more than once: {more}, \
             never: {missing}; left pending/claimed/in table: {:?}; {} ms{}",
            w.reaper_put_back,
            w.reaper_raced,
            w.left,
            w.elapsed_ms,
            if w.timed_out { " (DEADLINE)" } else { "" }
        ));
        p.fmt(f)
    }
}
