//! Seed 000 "Soft delete": a deleted note stays in the table with a mark.
//! The delete is an update that sets `deleted_at` and removes `live_since`
//! on condition that `deleted_at` does not exist yet, so the note leaves the
//! sparse GSI2 of live notes (the list needs no filter) and a second delete
//! fails its condition, keeping the first time. A restore removes the mark
//! and sets `live_since` (`if_exists`, so it never creates a note): the
//! owner comes with the table key, so both index keys are written again.
//! The bare-owner variant ([`OwnedNote`], GSI2 pk `<owner>`) restores with
//! `SET gsi2pk = owner`, and a note without an owner fails its restore with
//! `Error::Validation` instead of staying out of the list silently.

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::report::{Printout, Table};
use crate::seeds::{Note, OwnedNote};

super::recipe!(
    "soft_delete",
    "000 Soft delete",
    "delete = set deleted_at + remove live_since (once); restore writes both index keys again"
);

/// When note n1 went live; the next ones a day apart.
pub const START: OffsetDateTime = datetime!(2026-07-01 00:00 UTC);
/// When n3 is deleted.
pub const DELETED_AT: OffsetDateTime = datetime!(2026-07-10 08:00 UTC);
/// When the second delete of n3 is tried.
pub const DELETED_AGAIN_AT: OffsetDateTime = datetime!(2026-07-11 08:00 UTC);
/// When n2 is restored.
pub const RESTORED_AT: OffsetDateTime = datetime!(2026-07-12 08:00 UTC);

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// GSI2 `OWNER#ann`: live notes, oldest first, as written.
    pub live: Vec<String>,
    /// The table partition `OWNER#ann` as written: every note, with its mark.
    pub table: Vec<(String, bool)>,
    /// GSI2 `OWNER#bob`.
    pub bob_live: Vec<String>,
    /// GSI2 `OWNER#ann` after n3 was deleted by an update.
    pub live_after_delete: Vec<String>,
    /// n3 as the table holds it after the delete (a get still finds it).
    pub n3_after_delete: Option<Note>,
    /// The second delete of n3: its error.
    pub second_delete: Result<(), String>,
    /// n3's `deleted_at` after the second delete (still the first time).
    pub n3_deleted_at: Option<OffsetDateTime>,
    /// GSI2 `OWNER#ann` after n2 was restored.
    pub live_after_restore: Vec<String>,
    /// A restore of a note that does not exist (`if_exists`): its error.
    pub restore_missing: Result<(), String>,
    /// Whether that restore created an item (it must not).
    pub missing_created: bool,
    /// Bare owner: GSI2 `ann` after the put, the delete and the restore of
    /// o1.
    pub owned_live: [u64; 3],
    /// Bare owner: the restore of o2, a note without an owner.
    pub owned_orphan_restore: Result<(), String>,
    /// o2 after that restore: restored, and out of GSI2 for want of an
    /// owner.
    pub o2_after: Option<OwnedNote>,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Note::META, OwnedNote::META]).await
}

fn note(owner: &str, id: &str, day: i64, deleted: bool) -> Note {
    let at = START + Duration::days(day);
    Note {
        owner: owner.into(),
        id: id.into(),
        live_since: (!deleted).then_some(at),
        deleted_at: deleted.then_some(at + Duration::hours(1)),
    }
}

/// The soft delete of a note: mark it and take it out of the live index,
/// once.
pub async fn soft_delete(db: &Db, owner: &str, id: &str, at: OffsetDateTime) -> Result<(), Error> {
    db.update(
        Note::update(owner, id)
            .set_deleted_at(at)
            .remove_live_since()
            .condition(Note::attrs().deleted_at.not_exists()),
    )
    .await?;
    Ok(())
}

/// The restore of a soft-deleted note: both index keys are written again.
pub async fn restore(db: &Db, owner: &str, id: &str, at: OffsetDateTime) -> Result<(), Error> {
    db.update(
        Note::update(owner, id)
            .remove_deleted_at()
            .set_live_since(at),
    )
    .if_exists()
    .await?;
    Ok(())
}

fn outcome(r: Result<(), Error>) -> Result<(), String> {
    r.map_err(|e| match e {
        Error::ConditionFailed { .. } => "ConditionFailed".to_owned(),
        Error::Validation { .. } => "Validation".to_owned(),
        other => format!("other: {other}"),
    })
}

/// Writes four notes of ann (one deleted) and one of bob, reads the live
/// list and the table; deletes n3 (twice), restores n2, restores a missing
/// note; then the bare-owner variant.
pub async fn run(db: &Db) -> Result<Report, Error> {
    db.batch_write()
        .put(&note("ann", "n3", 2, false))
        .put(&note("ann", "n1", 0, false))
        .put(&note("ann", "n2", 1, true))
        .put(&note("ann", "n4", 3, false))
        .put(&note("bob", "n9", 0, false))
        .send()
        .await?;
    let live = || async {
        let v = db.query(Note::gsi2_pk("ann")?).all().await?;
        Ok::<Vec<String>, Error>(v.into_iter().map(|n| n.id).collect())
    };
    let live_before = live().await?;
    let table = db
        .query(Note::pk("ann")?)
        .sk(Note::sk().begins_with()?)
        .all()
        .await?
        .into_iter()
        .map(|n| (n.id, n.deleted_at.is_some()))
        .collect();
    let bob_live = db
        .query(Note::gsi2_pk("bob")?)
        .all()
        .await?
        .into_iter()
        .map(|n| n.id)
        .collect();

    soft_delete(db, "ann", "n3", DELETED_AT).await?;
    let live_after_delete = live().await?;
    let n3_after_delete = db.get(Note::key("ann", "n3")?).consistent().await?;
    let second_delete = outcome(soft_delete(db, "ann", "n3", DELETED_AGAIN_AT).await);
    let n3_deleted_at = db
        .get(Note::key("ann", "n3")?)
        .consistent()
        .await?
        .and_then(|n| n.deleted_at);

    restore(db, "ann", "n2", RESTORED_AT).await?;
    let live_after_restore = live().await?;
    let restore_missing = outcome(restore(db, "ann", "n7", RESTORED_AT).await);
    let missing_created = db
        .get(Note::key("ann", "n7")?)
        .consistent()
        .await?
        .is_some();

    // The bare-owner variant: GSI2 pk is `<owner>` alone.
    let owned_count = || async { db.query(OwnedNote::gsi2_pk("ann")?).count().await };
    db.put(&OwnedNote {
        id: "o1".into(),
        owner: Some("ann".into()),
        live_since: Some(START),
        deleted_at: None,
    })
    .await?;
    db.put(&OwnedNote {
        id: "o2".into(),
        owner: None,
        live_since: None,
        deleted_at: Some(START),
    })
    .await?;
    let put = owned_count().await?;
    db.update(
        OwnedNote::update("o1")
            .set_deleted_at(DELETED_AT)
            .remove_live_since()
            .condition(OwnedNote::attrs().deleted_at.not_exists()),
    )
    .await?;
    let deleted = owned_count().await?;
    // The restore rewrites the index sort key only: the owner's key
    // attribute never changed, so it needs no read and no Set of the owner.
    db.update(
        OwnedNote::update("o1")
            .remove_deleted_at()
            .set_live_since(RESTORED_AT),
    )
    .if_exists()
    .await?;
    let restored = owned_count().await?;
    let owned_orphan_restore = outcome(
        db.update(
            OwnedNote::update("o2")
                .remove_deleted_at()
                .set_live_since(RESTORED_AT),
        )
        .if_exists()
        .await
        .map(|_| ()),
    );
    let o2_after = db.get(OwnedNote::key("o2")?).consistent().await?;

    Ok(Report {
        live: live_before,
        table,
        bob_live,
        live_after_delete,
        n3_after_delete,
        second_delete,
        n3_deleted_at,
        live_after_restore,
        restore_missing,
        missing_created,
        owned_live: [put, deleted, restored],
        owned_orphan_restore,
        o2_after,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new("table OWNER#ann, begins_with NOTE#", ["note", "deleted"]);
        for (id, deleted) in &self.table {
            t.push([id.clone(), deleted.to_string()]);
        }
        p.table(t);
        p.table(
            Table::new(
                "the live list, GSI2 OWNER#ann (no filter)",
                ["after", "live notes"],
            )
            .row(["the puts".to_owned(), self.live.join(" ")])
            .row([
                "delete n3 (set deleted_at, remove live_since)".to_owned(),
                self.live_after_delete.join(" "),
            ])
            .row([
                "restore n2 (remove deleted_at, set live_since)".to_owned(),
                self.live_after_restore.join(" "),
            ]),
        );
        p.note(format!("GSI2 OWNER#bob: {:?}", self.bob_live));
        p.table(
            Table::new("conditions", ["action", "result"])
                .row([
                    "delete n3 again (deleted_at not_exists)".to_owned(),
                    format!(
                        "{}; deleted_at stays {}",
                        crate::report::outcome(&self.second_delete),
                        self.n3_deleted_at
                            .map(|t| t.to_string())
                            .unwrap_or_default()
                    ),
                ])
                .row([
                    "restore n7, which does not exist (if_exists)".to_owned(),
                    format!(
                        "{}; item created: {}",
                        crate::report::outcome(&self.restore_missing),
                        self.missing_created
                    ),
                ]),
        );
        let [put, deleted, restored] = self.owned_live;
        p.table(
            Table::new("bare owner: GSI2 pk = <owner>", ["step", "result"])
                .row(["GSI2 ann after the put of o1".to_owned(), put.to_string()])
                .row(["after deleting o1".to_owned(), deleted.to_string()])
                .row([
                    "after restoring o1 (SET gsi2sk only)".to_owned(),
                    restored.to_string(),
                ])
                .row([
                    "restore o2, which has no owner (stays out of GSI2)".to_owned(),
                    crate::report::outcome(&self.owned_orphan_restore),
                ]),
        );
        p.fmt(f)
    }
}
