//! Seed 000 "Soft delete", its put and query half: a deleted note stays in
//! the table with a mark and without `live_since`, so it is out of the
//! sparse GSI2 of live notes and the list needs no filter; the table still
//! holds it, so a table reader checks `deleted_at`. (Deleting and
//! restoring in place are conditional updates; they come with the typed
//! update builder.)

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use super::adjacency::assert_written;
use crate::report::{Printout, Table};
use crate::seeds::Note;

super::recipe!(
    "soft_delete",
    "000 Soft delete (put and query; delete and restore need updates)",
    "a deleted note keeps its item but leaves the sparse GSI2 of live notes"
);

/// When note n1 went live; the next ones a day apart.
pub const START: OffsetDateTime = datetime!(2026-07-01 00:00 UTC);

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// GSI2 `OWNER#ann`: live notes, oldest first.
    pub live: Vec<String>,
    /// The table partition `OWNER#ann`: every note, with its mark.
    pub table: Vec<(String, bool)>,
    /// GSI2 `OWNER#bob`.
    pub bob_live: Vec<String>,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Note::META]).await
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

/// Writes four notes of ann (one deleted) and one of bob, then reads the
/// live list and the table.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let out = db
        .batch_write()
        .put(&note("ann", "n3", 2, false))
        .put(&note("ann", "n1", 0, false))
        .put(&note("ann", "n2", 1, true))
        .put(&note("ann", "n4", 3, false))
        .put(&note("bob", "n9", 0, false))
        .send()
        .await?;
    assert_written(out.unprocessed.len())?;
    let ids = |v: Vec<Note>| v.into_iter().map(|n| n.id).collect();
    let live = ids(db.query(Note::gsi2_pk("ann")?).all().await?);
    let table = db
        .query(Note::pk("ann")?)
        .sk(Note::sk().begins_with()?)
        .all()
        .await?
        .into_iter()
        .map(|n| (n.id, n.deleted_at.is_some()))
        .collect();
    let bob_live = ids(db.query(Note::gsi2_pk("bob")?).all().await?);
    Ok(Report {
        live,
        table,
        bob_live,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.note(format!("GSI2 OWNER#ann (live notes): {:?}", self.live));
        let mut t = Table::new("table OWNER#ann, begins_with NOTE#", ["note", "deleted"]);
        for (id, deleted) in &self.table {
            t.push([id.clone(), deleted.to_string()]);
        }
        p.table(t);
        p.note(format!("GSI2 OWNER#bob: {:?}", self.bob_live));
        p.fmt(f)
    }
}
