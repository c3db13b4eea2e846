//! `db.migrate(..)`: runs migrations as parallel scans, resumable from
//! checkpoints kept in the table, idempotent, and safe beside live writers.
//!
//! - Each step scans the table in segments. After each page a segment
//!   stores its checkpoint (the scan's position) in an item of the table
//!   (`pk = "_dynakey#migration"`, `sk = "<step>#<segment>"`), and a finished
//!   step a `done` mark: a killed run resumes where each segment stopped,
//!   and a second run skips finished steps.
//! - Every write is conditional, so re-applying a page after a kill changes
//!   nothing (the old item is gone, the attribute renamed, the default
//!   written) and a concurrent write of the new shape is never overwritten.
//! - `dry_run()` writes nothing: it runs the steps in order, each against
//!   what the steps before it would leave (see `dry_run.rs`), and counts
//!   what each would change, with an estimate of the write units.

use std::future::IntoFuture;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsInputBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;

use super::dry_run::Sim;
use super::marks::{Mark, Marks};
use super::migration::Migration;
use super::plan::{plan, Write};
use crate::codec::Item;
use crate::db::Db;
use crate::error::{Error, RefusedReason};
use crate::expr::{Condition, Placeholders};
use crate::send::{send, send_then, Sent, To};

/// Where a run is: sent to the `on_progress` callback after every page.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Progress {
    /// The step's name.
    pub step: &'static str,
    /// Items read so far by the step (the run's own checkpoints not
    /// counted).
    pub scanned: u64,
    /// Items changed so far by the step.
    pub written: u64,
}

/// What one step did (or, in a dry run, would do).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct StepReport {
    /// The step's name.
    pub name: &'static str,
    /// Finished by an earlier run: skipped.
    pub already_done: bool,
    /// Items read (the run's own checkpoints not counted).
    pub scanned: u64,
    /// Items the step changed (would change, in a dry run: counted against
    /// what the steps before it would leave, so exactly what the run
    /// changes when nothing else writes meanwhile).
    pub changed: u64,
    /// Items a concurrent writer changed first (a condition failed): left
    /// as the writer wrote them.
    pub raced: u64,
    /// Estimated write capacity units of the changes (1 KB per unit,
    /// transactions count twice).
    pub write_units: u64,
}

/// What a run did, step by step.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct MigrationReport {
    /// One report per step, in order.
    pub steps: Vec<StepReport>,
}

impl MigrationReport {
    /// Items changed by every step together.
    pub fn changed(&self) -> u64 {
        self.steps.iter().map(|s| s.changed).sum()
    }
}

type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// A migration run; `.await` it (or [`Migrate::send`]).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "USER")]
/// # #[pk("USER#<id>")] #[sk("USER")]
/// # struct User { id: String, email: String }
/// use dynakey_runtime::schema::Migration;
/// use dynakey_runtime::Entity;
/// const STEPS: &[Migration] = &[Migration::rename_attribute::<User>("mail-to-email", "mail", "email")];
/// let local = dynakey_runtime::local::memory().unwrap();
/// let db = local.db("users");
/// db.create_table(&[User::META]).await.unwrap();
/// let report = db.migrate(STEPS).await.unwrap();
/// assert_eq!(report.changed(), 0);
/// assert!(db.migrate(STEPS).await.unwrap().steps[0].already_done);
/// # });
/// ```
#[must_use = "a migration does nothing until awaited"]
pub struct Migrate {
    db: Db,
    steps: &'static [Migration],
    segments: i32,
    page_size: i32,
    dry_run: bool,
    progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Migrate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Migrate")
            .field(
                "steps",
                &self.steps.iter().map(Migration::name).collect::<Vec<_>>(),
            )
            .field("segments", &self.segments)
            .field("dry_run", &self.dry_run)
            .finish()
    }
}

#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
impl Db {
    /// Runs `steps` in order (see [`crate::schema`]): each as a parallel scan
    /// with checkpoints, skipping steps an earlier run finished.
    pub fn migrate(&self, steps: &'static [Migration]) -> Migrate {
        Migrate {
            db: self.clone(),
            steps,
            segments: 4,
            page_size: 100,
            dry_run: false,
            progress: None,
        }
    }
}

/// The table's key attribute names, and those of its indexes.
async fn key_attrs(db: &Db) -> Result<(String, Option<String>, Vec<String>), Error> {
    let to = To::table(db.client(), db.table_name());
    let out = send(
        &to,
        DescribeTableInput::builder().table_name(db.table_name()),
    )
    .await?;
    let mut pk = None;
    let mut sk = None;
    let table = out.table();
    for k in table.map(|t| t.key_schema()).unwrap_or_default() {
        match k.key_type() {
            aws_sdk_dynamodb::types::KeyType::Hash => pk = Some(k.attribute_name().to_owned()),
            _ => sk = Some(k.attribute_name().to_owned()),
        }
    }
    let mut index_attrs: Vec<String> = Vec::new();
    if let Some(t) = table {
        let globals = t.global_secondary_indexes().iter().map(|g| g.key_schema());
        let locals = t.local_secondary_indexes().iter().map(|l| l.key_schema());
        for k in globals.chain(locals).flatten() {
            let a = k.attribute_name();
            if Some(a) != pk.as_deref()
                && Some(a) != sk.as_deref()
                && !index_attrs.iter().any(|x| x == a)
            {
                index_attrs.push(a.to_owned());
            }
        }
    }
    pk.map(|pk| (pk, sk, index_attrs)).ok_or_else(|| {
        Error::refused(
            RefusedReason::TableDefinition,
            "the table has no partition key",
        )
    })
}

impl Migrate {
    /// Scan segments run at once (default 4).
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n.clamp(1, 1_000_000) as i32;
        self
    }

    /// Items read per scan request (default 100).
    pub fn page_size(mut self, n: u32) -> Self {
        self.page_size = n.max(1) as i32;
        self
    }

    /// Writes nothing, and reports what the run would change: the steps
    /// run in order, each against what the steps before it would leave (a
    /// `rename_attribute` then a `fill_default` of the renamed attribute
    /// counts the items the fill finds without it once renamed; a rekey's
    /// items are read by later steps at their new keys), skipping the
    /// steps and resuming the segments an earlier run finished, as the run
    /// would. It reads the table once per step, and holds in memory the
    /// items the steps would change. A writer racing the real run is what
    /// no dry run foresees (the run counts it as `raced`).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// #[derive(DynamoEntity)]
    /// #[dynamo(crate = "dynakey_runtime", entity = "USER")]
    /// #[pk("USER#<id>")] #[sk("USER")]
    /// struct User { id: String, email: String, #[dynamo(default)] tier: String }
    /// use dynakey_runtime::schema::Migration;
    /// use dynakey_runtime::Entity;
    /// const STEPS: &[Migration] = &[
    ///     Migration::rename_attribute::<User>("mail-to-email", "mail", "email"),
    ///     Migration::fill_default::<User>("tier", "tier"),
    /// ];
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("users");
    /// db.create_table(&[User::META]).await.unwrap();
    /// // Two users of the old shape: `mail`, and no `tier`.
    /// for id in ["ann", "bob"] {
    ///     let user = User { id: id.into(), email: format!("{id}@example.com"), tier: "free".into() };
    ///     let mut item = user.to_item().unwrap();
    ///     let email = item.remove("email").unwrap();
    ///     item.insert("mail".into(), email);
    ///     item.remove("tier");
    ///     db.client().put_item().table_name("users").set_item(Some(item)).send().await.unwrap();
    /// }
    /// // Today nobody reads as a `User` (no `email`); once renamed, both do.
    /// let dry = db.migrate(STEPS).dry_run().await.unwrap();
    /// let counts: Vec<u64> = dry.steps.iter().map(|s| s.changed).collect();
    /// assert_eq!(counts, [2, 2]);
    /// let run = db.migrate(STEPS).await.unwrap();
    /// assert_eq!(run.steps.iter().map(|s| s.changed).collect::<Vec<_>>(), counts);
    /// # });
    /// ```
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }

    /// Called after every page with where the run is.
    pub fn on_progress(mut self, f: impl Fn(&Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(f));
        self
    }

    /// Runs the steps.
    pub async fn send(self) -> Result<MigrationReport, Error> {
        let (pk, sk, index_attrs) = key_attrs(&self.db).await?;
        let marks = Marks {
            pk,
            sk,
            index_attrs,
        };
        let mut report = MigrationReport::default();
        let sim = self.dry_run.then(Sim::default);
        for step in self.steps {
            if marks.get(&self.db, step.name(), "done").await?.is_some() {
                report.steps.push(StepReport {
                    name: step.name(),
                    already_done: true,
                    ..StepReport::default()
                });
                continue;
            }
            let counts = Counts::default();
            // Items earlier steps would have created, read after the
            // table's (the ones this step creates are not read again).
            let created = sim.as_ref().map(Sim::created).unwrap_or_default();
            let run = Run {
                step,
                marks: &marks,
                counts: &counts,
                sim: sim.as_ref(),
            };
            let segments = (0..self.segments).map(|s| self.segment(&run, s));
            futures_util::future::try_join_all(segments).await?;
            for item in &created {
                self.visit(&run, item).await?;
            }
            if !self.dry_run {
                marks
                    .put(&self.db, step.name(), "done", &Mark::Done)
                    .await?;
            }
            report.steps.push(counts.report(step.name()));
        }
        Ok(report)
    }

    /// One item of a step: planned, and written (or, in a dry run,
    /// simulated).
    async fn visit(&self, run: &Run<'_>, item: &Item) -> Result<(), Error> {
        let counts = run.counts;
        counts.scanned.fetch_add(1, Ordering::Relaxed);
        if !run.step.reads(item) {
            return Ok(());
        }
        let Some(write) = plan(run.step, item, run.marks)? else {
            return Ok(());
        };
        counts
            .write_units
            .fetch_add(write.units(), Ordering::Relaxed);
        let changed = match run.sim {
            Some(sim) => sim.apply(&self.db, run.marks, write).await?,
            None => self.apply(write).await?,
        };
        let count = if changed {
            &counts.changed
        } else {
            &counts.raced
        };
        count.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn segment(&self, run: &Run<'_>, segment: i32) -> Result<(), Error> {
        let (step, marks, counts) = (run.step, run.marks, run.counts);
        let what = format!("segment{segment}");
        let mut start = None;
        // A dry run resumes where the run would (it reads the checkpoints,
        // and writes none).
        match marks.get(&self.db, step.name(), &what).await? {
            Some(Mark::Done) => return Ok(()),
            Some(Mark::At(k)) => start = Some(k),
            None => {}
        }
        loop {
            let req = ScanInput::builder()
                .table_name(self.db.table_name())
                .segment(segment)
                .total_segments(self.segments)
                .limit(self.page_size)
                .consistent_read(true)
                .set_exclusive_start_key(start.take());
            let out = send(&To::db(&self.db), req).await?;
            for item in out.items() {
                if marks.is_mark(item) {
                    continue;
                }
                match run.sim {
                    // What the earlier steps would have left here.
                    Some(sim) => {
                        if let Some(now) = sim.current(item, marks) {
                            self.visit(run, &now).await?;
                        }
                    }
                    None => self.visit(run, item).await?,
                }
            }
            let last = out.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            if !self.dry_run {
                let mark = match &last {
                    Some(k) => Mark::At(k.clone()),
                    None => Mark::Done,
                };
                marks.put(&self.db, step.name(), &what, &mark).await?;
            }
            if let Some(f) = &self.progress {
                f(&Progress {
                    step: step.name(),
                    scanned: counts.scanned.load(Ordering::Relaxed),
                    written: counts.changed.load(Ordering::Relaxed),
                });
            }
            match last {
                Some(k) => start = Some(k),
                None => return Ok(()),
            }
        }
    }

    /// Sends one write; `false` when a condition failed (a concurrent
    /// writer got there first, or a resumed run already wrote it).
    async fn apply(&self, w: Write) -> Result<bool, Error> {
        let db = &self.db;
        let failed = |e: &Error| {
            matches!(
                e,
                Error::ConditionFailed { .. } | Error::TransactionCanceled { .. }
            )
        };
        let r = match w {
            Write::Update {
                key, update, cond, ..
            } => {
                let mut cx = Placeholders::default();
                let text = update.render(&mut cx)?;
                let cond = cond.render(&mut cx)?;
                let req = UpdateItemInput::builder()
                    .table_name(db.table_name())
                    .set_key(Some(key))
                    .update_expression(text)
                    .condition_expression(cond)
                    .set_expression_attribute_names(cx.names())
                    .set_expression_attribute_values(cx.values());
                send(&To::db(db), req).await.map(drop)
            }
            Write::Delete { key, cond } => delete(db, key, cond).await,
            Write::Move { old, new } => {
                match move_item(db, &self_pk(&old), old.clone(), new).await? {
                    Moved::Done => Ok(()),
                    Moved::OldGone => return Ok(false),
                    Moved::NewThere => {
                        // The new shape is already there (a live writer): it
                        // wins, and the old item goes.
                        let cond = Condition::attr(self_pk(&old)).exists();
                        return match delete(db, old, cond).await {
                            Ok(()) => Ok(false),
                            Err(e) if failed(&e) => Ok(false),
                            Err(e) => Err(e),
                        };
                    }
                }
            }
        };
        match r {
            Ok(()) => Ok(true),
            Err(e) if failed(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// The partition key attribute of a key (the one that is not the sort key:
/// both are present; any attribute of a key works in `attribute_exists`).
fn self_pk(key: &Item) -> String {
    key.keys().next().cloned().unwrap_or_default()
}

enum Moved {
    Done,
    /// The old item is gone (a resumed run moved it already).
    OldGone,
    /// An item holds the new key already.
    NewThere,
}

/// Deletes `old` (if it exists) and puts `new` (where no item is) in one
/// transaction.
async fn move_item(db: &Db, attr: &str, old: Item, new: Item) -> Result<Moved, Error> {
    use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem};
    let build = |e: aws_sdk_dynamodb::error::BuildError| {
        Error::refused(
            RefusedReason::Unbuildable,
            format!("a migration write could not be built: {e}"),
        )
    };
    let names = std::collections::HashMap::from([("#k".to_owned(), attr.to_owned())]);
    let del = Delete::builder()
        .table_name(db.table_name())
        .set_key(Some(old))
        .condition_expression("attribute_exists(#k)")
        .set_expression_attribute_names(Some(names.clone()))
        .build()
        .map_err(build)?;
    let put = Put::builder()
        .table_name(db.table_name())
        .set_item(Some(new))
        .condition_expression("attribute_not_exists(#k)")
        .set_expression_attribute_names(Some(names))
        .build()
        .map_err(build)?;
    let req = TransactWriteItemsInput::builder()
        .transact_items(TransactWriteItem::builder().delete(del).build())
        .transact_items(TransactWriteItem::builder().put(put).build());
    send_then(&To::db(db), req, moved).await
}

/// What a migration's move did, from its transaction's answer.
fn moved(sent: Sent<TransactWriteItemsInputBuilder>, attempts: u32) -> Result<Moved, Error> {
    match sent {
        Ok(_) => Ok(Moved::Done),
        Err(e) => {
            use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
            if let Some(TransactWriteItemsError::TransactionCanceledException(c)) =
                e.as_service_error()
            {
                let code = |i: usize| {
                    c.cancellation_reasons()
                        .get(i)
                        .and_then(|r| r.code())
                        .unwrap_or("None")
                };
                let msg = c.message().unwrap_or_default();
                // Servers that leave the reasons out name them in the message.
                let (a, b) = if c.cancellation_reasons().is_empty() {
                    let codes: Vec<&str> = msg
                        .rsplit('[')
                        .next()
                        .unwrap_or("")
                        .trim_end_matches(']')
                        .split(',')
                        .map(str::trim)
                        .collect();
                    (
                        codes.first().copied().unwrap_or("None"),
                        codes.get(1).copied().unwrap_or("None"),
                    )
                } else {
                    (code(0), code(1))
                };
                if b == "ConditionalCheckFailed" {
                    return Ok(Moved::NewThere);
                }
                if a == "ConditionalCheckFailed" {
                    return Ok(Moved::OldGone);
                }
            }
            Err(Error::from_sdk(e, attempts))
        }
    }
}

async fn delete(db: &Db, key: Item, cond: Condition) -> Result<(), Error> {
    let mut cx = Placeholders::default();
    let cond = cond.render(&mut cx)?;
    let req = DeleteItemInput::builder()
        .table_name(db.table_name())
        .set_key(Some(key))
        .condition_expression(cond)
        .set_expression_attribute_names(cx.names())
        .set_expression_attribute_values(cx.values());
    send(&To::db(db), req).await.map(drop)
}

impl IntoFuture for Migrate {
    type Output = Result<MigrationReport, Error>;
    type IntoFuture = crate::ops::BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// One step of a run, as its segments see it.
struct Run<'a> {
    step: &'a Migration,
    marks: &'a Marks,
    counts: &'a Counts,
    /// A dry run's changes so far.
    sim: Option<&'a Sim>,
}

#[derive(Default)]
struct Counts {
    scanned: AtomicU64,
    changed: AtomicU64,
    raced: AtomicU64,
    write_units: AtomicU64,
}

impl Counts {
    fn report(&self, name: &'static str) -> StepReport {
        StepReport {
            name,
            already_done: false,
            scanned: self.scanned.load(Ordering::Relaxed),
            changed: self.changed.load(Ordering::Relaxed),
            raced: self.raced.load(Ordering::Relaxed),
            write_units: self.write_units.load(Ordering::Relaxed),
        }
    }
}
