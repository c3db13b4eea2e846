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
//! - `dry_run()` writes nothing and counts what each step would change,
//!   with an estimate of the write units.

use std::future::IntoFuture;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use aws_sdk_dynamodb::types::AttributeValue;

use super::marks::{decode_start, encode_start, Marks};
use super::migration::{Kind, Migration, Rekeyed};
use crate::changes::same_value;
use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;
use crate::expr::{Condition, Placeholders, Update};

/// Where a run is: sent to the `on_progress` callback after every page.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Progress {
    /// The step's name.
    pub step: &'static str,
    /// Items read so far by the step.
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
    /// Items read.
    pub scanned: u64,
    /// Items the step changed (would change, in a dry run).
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

/// The table's key attribute names.
async fn key_attrs(db: &Db) -> Result<(String, Option<String>), Error> {
    let out = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await
        .map_err(|e| Error::from_sdk(e, 1))?;
    let mut pk = None;
    let mut sk = None;
    for k in out.table().map(|t| t.key_schema()).unwrap_or_default() {
        match k.key_type() {
            aws_sdk_dynamodb::types::KeyType::Hash => pk = Some(k.attribute_name().to_owned()),
            _ => sk = Some(k.attribute_name().to_owned()),
        }
    }
    pk.map(|pk| (pk, sk))
        .ok_or_else(|| Error::refused("the table has no partition key"))
}

fn units(item: &Item) -> u64 {
    (crate::size::item_size(item) as u64).div_ceil(1024).max(1)
}

/// One write a step makes for one item.
enum Write {
    Update {
        key: Item,
        update: Update,
        cond: Condition,
    },
    Delete {
        key: Item,
        cond: Condition,
    },
    Move {
        old: Item,
        new: Item,
    },
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

    /// Counts what each step would change, writing nothing.
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
        let (pk, sk) = key_attrs(&self.db).await?;
        let marks = Marks { pk, sk };
        let mut report = MigrationReport::default();
        for step in self.steps {
            if !self.dry_run && marks.get(&self.db, step.name(), "done").await?.is_some() {
                report.steps.push(StepReport {
                    name: step.name(),
                    already_done: true,
                    ..StepReport::default()
                });
                continue;
            }
            let counts = Counts::default();
            let segments = (0..self.segments).map(|s| self.segment(step, &marks, s, &counts));
            futures_util::future::try_join_all(segments).await?;
            if !self.dry_run {
                marks
                    .put(
                        &self.db,
                        step.name(),
                        "done",
                        Item::from([("done".to_owned(), AttributeValue::Bool(true))]),
                    )
                    .await?;
            }
            report.steps.push(counts.report(step.name()));
        }
        Ok(report)
    }

    async fn segment(
        &self,
        step: &Migration,
        marks: &Marks,
        segment: i32,
        counts: &Counts,
    ) -> Result<(), Error> {
        let what = format!("segment{segment}");
        let mut start = None;
        if !self.dry_run {
            if let Some(m) = marks.get(&self.db, step.name(), &what).await? {
                if m.contains_key("done") {
                    return Ok(());
                }
                start = m
                    .get("last")
                    .and_then(|v| v.as_s().ok())
                    .and_then(|s| decode_start(s));
            }
        }
        loop {
            let out = self
                .db
                .client()
                .scan()
                .table_name(self.db.table_name())
                .segment(segment)
                .total_segments(self.segments)
                .limit(self.page_size)
                .consistent_read(true)
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .map_err(|e| Error::from_sdk(e, 1))?;
            for item in out.items() {
                counts.scanned.fetch_add(1, Ordering::Relaxed);
                if marks.is_mark(item) || !step.reads(item) {
                    continue;
                }
                let Some(write) = plan(step, item, marks)? else {
                    continue;
                };
                counts
                    .write_units
                    .fetch_add(write.units(), Ordering::Relaxed);
                if self.dry_run || self.apply(write).await? {
                    counts.changed.fetch_add(1, Ordering::Relaxed);
                } else {
                    counts.raced.fetch_add(1, Ordering::Relaxed);
                }
            }
            let last = out.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            if !self.dry_run {
                let mark = match &last {
                    Some(k) => {
                        Item::from([("last".to_owned(), AttributeValue::S(encode_start(k)))])
                    }
                    None => Item::from([("done".to_owned(), AttributeValue::Bool(true))]),
                };
                marks.put(&self.db, step.name(), &what, mark).await?;
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
            Write::Update { key, update, cond } => {
                let mut cx = Placeholders::default();
                let text = update.render(&mut cx)?;
                let cond = cond.render(&mut cx)?;
                db.client()
                    .update_item()
                    .table_name(db.table_name())
                    .set_key(Some(key))
                    .update_expression(text)
                    .condition_expression(cond)
                    .set_expression_attribute_names(cx.names())
                    .set_expression_attribute_values(cx.values())
                    .send()
                    .await
                    .map(drop)
                    .map_err(|e| Error::from_sdk(e, db.sdk_attempts()))
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
        Error::refused(format!("a migration write could not be built: {e}"))
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
    let r = db
        .client()
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().delete(del).build())
        .transact_items(TransactWriteItem::builder().put(put).build())
        .send()
        .await;
    match r {
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
            Err(Error::from_sdk(e, db.sdk_attempts()))
        }
    }
}

async fn delete(db: &Db, key: Item, cond: Condition) -> Result<(), Error> {
    let mut cx = Placeholders::default();
    let cond = cond.render(&mut cx)?;
    db.client()
        .delete_item()
        .table_name(db.table_name())
        .set_key(Some(key))
        .condition_expression(cond)
        .set_expression_attribute_names(cx.names())
        .set_expression_attribute_values(cx.values())
        .send()
        .await
        .map(drop)
        .map_err(|e| Error::from_sdk(e, db.sdk_attempts()))
}

impl IntoFuture for Migrate {
    type Output = Result<MigrationReport, Error>;
    type IntoFuture = crate::ops::BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
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

impl Write {
    fn units(&self) -> u64 {
        match self {
            Write::Update { key, .. } | Write::Delete { key, .. } => units(key),
            Write::Move { old, new } => 2 * (units(old) + units(new)),
        }
    }
}

/// The key attributes of a stored item.
fn key_of(item: &Item, marks: &Marks) -> Item {
    let mut k = Item::new();
    for a in std::iter::once(&marks.pk).chain(marks.sk.iter()) {
        if let Some(v) = item.get(a) {
            k.insert(a.clone(), v.clone());
        }
    }
    k
}

/// "`attr` still holds what was read": equal, or still absent.
fn unchanged(item: &Item, attr: &str) -> Condition {
    match item.get(attr) {
        Some(v) => Condition::attr(attr).eq(v.clone()),
        None => Condition::attr(attr).not_exists(),
    }
}

/// What `step` writes for `item`, if anything.
fn plan(step: &Migration, item: &Item, marks: &Marks) -> Result<Option<Write>, Error> {
    let key = key_of(item, marks);
    Ok(match step.kind {
        Kind::Rekey { convert, .. } => match convert(item)? {
            Rekeyed::Old(new) => Some(Write::Move { old: key, new }),
            Rekeyed::Skip => None,
        },
        Kind::Backfill { entity, reencode } => {
            let Some(want) = reencode(item)? else {
                return Ok(None);
            };
            let mut update = Update::new();
            let mut cond = Condition::attr(marks.pk.as_str()).exists();
            let mut any = false;
            for ix in entity.indexes {
                for k in std::iter::once(&ix.pk).chain(ix.sk.iter()) {
                    if matches!(ix.kind, crate::entity::IndexKind::Local) && std::ptr::eq(k, &ix.pk)
                    {
                        continue;
                    }
                    match (item.get(k.attr), want.get(k.attr)) {
                        // By value: an index key another client wrote as
                        // `1E+2` needs no rewrite to `100`.
                        (a, Some(b)) if !a.is_some_and(|a| same_value(a, b)) => {
                            update = update.set_value(k.attr, b.clone());
                            any = true;
                        }
                        (Some(_), None) => {
                            update = update.remove(k.attr);
                            any = true;
                        }
                        _ => {}
                    }
                    // The inputs read are still the stored ones.
                    for name in k.fields {
                        if let Some(f) = entity.fields.iter().find(|f| f.name == *name) {
                            cond = cond.and(unchanged(item, f.attr));
                        }
                    }
                }
            }
            any.then_some(Write::Update { key, update, cond })
        }
        Kind::Rename { from, to, .. } => {
            let Some(value) = item.get(from) else {
                return Ok(None);
            };
            if item.contains_key(to) {
                // A newer write holds the new name: the old one goes.
                let cond = Condition::attr(from)
                    .exists()
                    .and(Condition::attr(to).exists());
                Some(Write::Update {
                    key,
                    update: Update::new().remove(from),
                    cond,
                })
            } else {
                let cond = unchanged(item, from).and(Condition::attr(to).not_exists());
                Some(Write::Update {
                    key,
                    update: Update::new().set_value(to, value.clone()).remove(from),
                    cond,
                })
            }
        }
        Kind::FillDefault { attr, reencode, .. } => {
            if item.contains_key(attr) {
                return Ok(None);
            }
            let Some(value) = reencode(item)?.and_then(|mut i| i.remove(attr)) else {
                return Ok(None);
            };
            Some(Write::Update {
                key,
                update: Update::new().set_value(attr, value),
                cond: Condition::attr(attr)
                    .not_exists()
                    .and(Condition::attr(marks.pk.as_str()).exists()),
            })
        }
        Kind::Drop {
            discriminator,
            attr,
        } => Some(Write::Delete {
            key,
            cond: Condition::attr(attr).eq(discriminator),
        }),
    })
}
