//! Seed 001 "Sparse index by absence": most documents carry no
//! `review_flag`; the few waiting for review do, so GSI1 (keyed by the flag
//! and the submission time) is the review queue and reading it costs only
//! its members. Leaving the queue is writing the document without the flag.

use std::fmt;

use dynakey::{Condition, Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use super::adjacency::usage_row;
use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::Document;

super::recipe!(
    "sparse_by_absence",
    "001 Sparse index by absence",
    "only flagged documents carry GSI1 keys: the review queue costs its members, not the table"
);

/// Documents written.
pub const DOCUMENTS: usize = 100;
/// The documents waiting for review, in the order they were submitted.
pub const PENDING: [usize; 3] = [42, 7, 99];
/// When the first pending document was submitted; the next ones a minute
/// apart.
pub const SUBMITTED: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);

/// The id of document `i`: `doc-007`.
pub fn doc_id(i: usize) -> String {
    format!("doc-{i:03}")
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// GSI1 `REVIEW#pending`: the queue, oldest submission first.
    pub queue: Vec<String>,
    /// Reading the queue: only its members are read.
    pub queue_usage: Usage,
    /// The same question as a scan with a filter: every document is read.
    pub scan_usage: Usage,
    /// The queue after `doc-042` was written again without the flag.
    pub queue_after: Vec<String>,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Document::META]).await
}

/// Writes 100 documents, 3 flagged, reads the queue, then takes one out.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write();
    for i in 0..DOCUMENTS {
        let submitted_at = PENDING
            .iter()
            .position(|p| *p == i)
            .map(|n| SUBMITTED + Duration::minutes(n as i64));
        batch = batch.put(&Document {
            doc_id: doc_id(i),
            title: format!("Document {i}"),
            review_flag: submitted_at.map(|_| "pending".to_owned()),
            submitted_at,
        });
    }
    batch.send().await?;

    let (metered, meter) = Meter::attach(db);
    let queue = metered.query(Document::gsi1_pk("pending")?).all().await?;
    let queue_usage = meter.take();
    metered
        .scan::<Document>()
        .filter(Condition::attr("review_flag").eq("pending"))
        .all()
        .await?;
    let scan_usage = meter.take();

    db.put(&Document {
        doc_id: doc_id(42),
        title: "Document 42".into(),
        review_flag: None,
        submitted_at: None,
    })
    .await?;
    let queue_after = db.query(Document::gsi1_pk("pending")?).all().await?;
    let ids = |v: Vec<Document>| v.into_iter().map(|d| d.doc_id).collect();
    Ok(Report {
        queue: ids(queue),
        queue_usage,
        scan_usage,
        queue_after: ids(queue_after),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.note(format!("GSI1 REVIEW#pending: {:?}", self.queue));
        p.note(format!(
            "after doc-042 was written without the flag: {:?}",
            self.queue_after
        ));
        p.table(
            Table::new(
                format!("\"which documents wait for review?\" over {DOCUMENTS} documents"),
                [
                    "read",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("query the sparse GSI1", &self.queue_usage))
            .row(usage_row("scan + filter", &self.scan_usage)),
        );
        p.fmt(f)
    }
}
