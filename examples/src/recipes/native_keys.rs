//! Seed 000 "Status-keyed index" redone with a native multi-attribute key,
//! and the move of a live table onto it.
//!
//! The seed's GSI1 is `OWNER#<owner>` / `<status>#<v7 id>`: two synthetic
//! attributes each item carries and each update must rewrite. A native
//! index keys the same query on the items' own attributes,
//! `#[gsi("ByOwner", pk(owner), sk(status, id))]`: DynamoDB builds the key
//! itself, so "ann's open items, oldest first" and "opened this week" (a
//! v7 id range) are one query each, and closing an item moves it with
//! nothing else to write.
//!
//! The move, on a table that keeps taking writes: `sync_table` adds the
//! native index (DynamoDB fills it from the attributes items already
//! hold), then the migration `Migration::drop_index` removes the old
//! synthetic `gsi1pk`/`gsi1sk` from every item. Writers with the new code
//! run all the way through (they write no synthetic keys, and removing
//! stale ones races with nothing). Nothing is lost: every item ends as its
//! last writer left it, and none holds the old keys.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use dynakey::schema::Migration;
use dynakey::{uuid7, Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use tokio::sync::Mutex;
use uuid::Uuid;

use crate::seeds::{WorkItem as TemplateItem, WorkStatus};

super::recipe!(
    "native_keys",
    "000 Status-keyed index, natively",
    "ByOwner pk(owner) sk(status, id): the seed's query on the items' own attributes, and a live table moved onto it"
);

/// The work item with a native index in place of GSI1 (declared with the
/// designs, which draw it).
pub use crate::designs::native_keys::WorkItem;

/// The move's one step: the old index's `gsi1pk`/`gsi1sk` removed from
/// every item (the new code writes none, and an update of it leaves
/// them as they are).
pub const MIGRATIONS: &[Migration] = &[Migration::drop_index::<TemplateItem>(
    "work-items-drop-gsi1",
    "GSI1",
)];

/// "Now" of the work items.
pub const NOW: OffsetDateTime = datetime!(2026-07-16 12:00 UTC);

/// The items of the recipe: (owner, status, days before [`NOW`]).
pub const WORK: [(&str, WorkStatus, i64); 5] = [
    ("ann", WorkStatus::Open, 10),
    ("ann", WorkStatus::Open, 3),
    ("ann", WorkStatus::Closed, 2),
    ("ann", WorkStatus::Open, 1),
    ("bob", WorkStatus::Open, 1),
];

/// Items written with the template index before the move.
pub const BEFORE: usize = 60;

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Ann's open items through the native index, oldest first (days ago).
    pub ann_open: Vec<i64>,
    /// Ann's items opened in the week before [`NOW`] (an id range on the
    /// second sort attribute, status fixed), days ago.
    pub ann_this_week: Vec<i64>,
    /// Ann's open items after the 3-day-old one was closed (one attribute
    /// set; the item moved in the index by itself).
    pub ann_open_after_close: Vec<i64>,
    /// The indexes `sync_table` added.
    pub added: Vec<&'static str>,
    /// Items the migration changed, and those a writer changed first.
    pub migrated: (u64, u64),
    /// Writes the concurrent writers made during the move.
    pub concurrent_writes: usize,
    /// Items after the move, and how many differ from their last writer's.
    pub items: (usize, usize),
    /// Items still holding `gsi1pk` or `gsi1sk` after the move.
    pub leftover_synthetic: usize,
    /// Every item found through the native index under its owner and
    /// status (items, found).
    pub native_found: (usize, usize),
}

/// Creates the table as the seed had it: the template index only.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[TemplateItem::META]).await
}

fn days_ago(id: &Uuid, ids: &[(Uuid, i64)]) -> i64 {
    ids.iter().find(|(i, _)| i == id).map_or(-1, |(_, d)| *d)
}

/// Ann's items of `status` through the native index, oldest first (v7
/// ids sort by time), as days ago.
async fn ann(db: &Db, status: WorkStatus, ids: &[(Uuid, i64)]) -> Result<Vec<i64>, Error> {
    let items = db
        .query(WorkItem::by_owner_pk("ann")?)
        .sk(WorkItem::by_owner_sk().status(status).eq()?)
        .all()
        .await?;
    Ok(items.iter().map(|w| days_ago(&w.id, ids)).collect())
}

/// Writes the seed's items and [`BEFORE`] more with the template index,
/// moves the table onto the native one under concurrent writers, then
/// reads the seed's queries natively.
pub async fn run(db: &Db) -> Result<Report, Error> {
    // What each item's last writer left, to compare with after the move.
    let model: Arc<Mutex<BTreeMap<Uuid, WorkItem>>> = Arc::default();
    let mut ids = Vec::new();
    for (owner, status, days) in WORK {
        let id = uuid7::at(NOW - Duration::days(days));
        ids.push((id, days));
        let old = TemplateItem {
            id,
            owner: owner.into(),
            status,
        };
        db.put(&old).await?;
        model.lock().await.insert(
            id,
            WorkItem {
                id,
                owner: owner.into(),
                status,
            },
        );
    }
    for i in 0..BEFORE {
        let id = uuid7::at(NOW - Duration::days(30) + Duration::minutes(i as i64));
        let owner = ["cid", "dan", "eve"][i % 3].to_owned();
        db.put(&TemplateItem {
            id,
            owner: owner.clone(),
            status: WorkStatus::Open,
        })
        .await?;
        model.lock().await.insert(
            id,
            WorkItem {
                id,
                owner,
                status: WorkStatus::Open,
            },
        );
    }

    // Writers with the new code, through the whole move: each closes an
    // item and opens a new one, in turn.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut writers = Vec::new();
    for w in 0..2u8 {
        let (db, model, stop) = (db.clone(), model.clone(), stop.clone());
        writers.push(tokio::spawn(async move {
            let mut writes = 0usize;
            let mut n = 0i64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && writes < 400 {
                let target = {
                    let m = model.lock().await;
                    m.values()
                        .filter(|x| x.owner != "ann" && x.owner != "bob")
                        .nth((n as usize * 7 + usize::from(w)) % m.len().max(1))
                        .cloned()
                };
                if let Some(t) = target {
                    let mut m = model.lock().await;
                    db.update(WorkItem::update(t.id).set_status(WorkStatus::Closed))
                        .await?;
                    m.insert(
                        t.id,
                        WorkItem {
                            status: WorkStatus::Closed,
                            ..t
                        },
                    );
                    writes += 1;
                }
                let id = uuid7::at(NOW + Duration::minutes(n * 2 + i64::from(w)));
                let fresh = WorkItem {
                    id,
                    owner: format!("writer-{w}"),
                    status: WorkStatus::Open,
                };
                {
                    let mut m = model.lock().await;
                    db.put(&fresh).await?;
                    m.insert(id, fresh);
                }
                writes += 1;
                n += 1;
                tokio::task::yield_now().await;
            }
            Ok::<usize, Error>(writes)
        }));
    }

    let added = db.sync_table(&[WorkItem::META]).await?;
    let first = db.migrate(MIGRATIONS).page_size(10).await?;
    let step = &first.steps[0];
    let migrated = (step.changed, step.raced);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut concurrent_writes = 0;
    for w in writers {
        concurrent_writes += w.await.map_err(|e| Error::Refused {
            reason: dynakey::RefusedReason::Other,
            message: format!("a writer panicked: {e}"),
        })??;
    }

    // Every item as its last writer left it, none with the old keys, each
    // found natively.
    let model = model.lock().await.clone();
    let stored: Vec<WorkItem> = db.scan::<WorkItem>().all().await?;
    let differ = stored
        .iter()
        .filter(|s| model.get(&s.id) != Some(*s))
        .count()
        + model.len().saturating_sub(stored.len());
    let raw = db
        .client()
        .scan()
        .table_name(db.table_name())
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| Error::Refused {
            reason: dynakey::RefusedReason::Other,
            message: format!("scan: {e}"),
        })?;
    let leftover_synthetic = raw
        .items()
        .iter()
        .filter(|i| i.contains_key("gsi1pk") || i.contains_key("gsi1sk"))
        .count();
    let mut found = 0;
    for item in model.values() {
        let hits = db
            .query(WorkItem::by_owner_pk(&item.owner)?)
            .sk(WorkItem::by_owner_sk()
                .status(item.status)
                .id(item.id)
                .eq()?)
            .all()
            .await?;
        found += usize::from(hits == [item.clone()]);
    }

    let ann_open = ann(db, WorkStatus::Open, &ids).await?;
    let week = db
        .query(WorkItem::by_owner_pk("ann")?)
        .sk(WorkItem::by_owner_sk()
            .status(WorkStatus::Open)
            .between(uuid7::first(NOW - Duration::days(7)), uuid7::last(NOW))?)
        .all()
        .await?;
    let ann_this_week = week.iter().map(|w| days_ago(&w.id, &ids)).collect();
    let three = ids.iter().find(|(_, d)| *d == 3).expect("seeded").0;
    db.update(WorkItem::update(three).set_status(WorkStatus::Closed))
        .await?;
    let ann_open_after_close = ann(db, WorkStatus::Open, &ids).await?;
    Ok(Report {
        ann_open,
        ann_this_week,
        ann_open_after_close,
        added,
        migrated,
        concurrent_writes,
        items: (stored.len(), differ),
        leftover_synthetic,
        native_found: (model.len(), found),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "ann's open items, oldest first (days ago): {:?}",
            self.ann_open
        )?;
        writeln!(f, "opened in the last week: {:?}", self.ann_this_week)?;
        writeln!(
            f,
            "open after closing the 3-day-old one: {:?}",
            self.ann_open_after_close
        )?;
        writeln!(f, "sync_table added: {:?}", self.added)?;
        writeln!(
            f,
            "migration: {} items lost gsi1pk/gsi1sk, {} changed first by a writer",
            self.migrated.0, self.migrated.1
        )?;
        writeln!(
            f,
            "concurrent writes during the move: {}",
            self.concurrent_writes
        )?;
        writeln!(
            f,
            "items after the move: {}, unlike their last write: {}",
            self.items.0, self.items.1
        )?;
        writeln!(
            f,
            "items still holding gsi1pk/gsi1sk: {}",
            self.leftover_synthetic
        )?;
        write!(
            f,
            "found through ByOwner under owner and status: {} of {}",
            self.native_found.1, self.native_found.0
        )
    }
}
