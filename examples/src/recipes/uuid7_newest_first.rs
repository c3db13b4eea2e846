//! Seed 003 "Newest first with version-7 GUID sort keys": a v7 uuid starts
//! with its millisecond, so its lowercase text sorts by time; newest first
//! is a backward read, and a range of time is a range of ids
//! (`uuid7::first(from)` to `uuid7::last(to)`).

use std::fmt;

use dynakey::{uuid7, Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::report::{Printout, Table};
use crate::seeds::ChatMessage;

super::recipe!(
    "uuid7_newest_first",
    "003 Newest first with version-7 GUID sort keys",
    "ROOM#<room> / <v7 uuid>: newest 20 by a backward read, the last hour as an id range"
);

/// When the first message of the recipe was sent; one every 5 minutes.
pub const START: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);
/// Messages written to room `ann`.
pub const MESSAGES: usize = 30;

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Descending, limit 20, first page: the texts, newest first.
    pub newest: Vec<String>,
    /// Whether that page has a cursor (more messages follow).
    pub newest_has_more: bool,
    /// The hour before the last message (`between`), oldest first.
    pub last_hour: Vec<String>,
    /// The day before the last message (`ge`), counted.
    pub since_yesterday: u64,
    /// The stored sort key and the time it encodes, of the newest message.
    pub newest_key: (String, OffsetDateTime),
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[ChatMessage::META]).await
}

/// The time of message `i`.
pub fn sent_at(i: usize) -> OffsetDateTime {
    START + Duration::minutes(5 * i as i64)
}

/// Writes 30 messages to room ann (and one to room bob), then reads newest
/// first and by time range.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write().put(&ChatMessage {
        room: "bob".into(),
        id: uuid7::at(sent_at(3)),
        text: "other room".into(),
    });
    for i in 0..MESSAGES {
        batch = batch.put(&ChatMessage {
            room: "ann".into(),
            id: uuid7::at(sent_at(i)),
            text: format!("m{i:02}"),
        });
    }
    batch.send().await?;

    let ann = || ChatMessage::pk("ann");
    let page = db
        .query(ann()?)
        .descending()
        .page_size(20)
        .page(None)
        .await?;
    let to = sent_at(MESSAGES - 1);
    let last_hour = db
        .query(ann()?)
        .sk(ChatMessage::sk().between(uuid7::first(to - Duration::hours(1)), uuid7::last(to))?)
        .all()
        .await?;
    let since_yesterday = db
        .query(ann()?)
        .sk(ChatMessage::sk().ge(uuid7::first(to - Duration::days(1)))?)
        .count()
        .await?;
    let newest = page.items.first().ok_or_else(|| Error::Refused {
        reason: dynakey::RefusedReason::Other,
        message: "room ann is empty".into(),
    })?;
    let key = newest.item_key()?.sk().unwrap_or_default().to_owned();
    let at = uuid7::time_of(newest.id).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let texts = |v: &[ChatMessage]| v.iter().map(|m| m.text.clone()).collect();
    Ok(Report {
        newest: texts(&page.items),
        newest_has_more: !page.is_last(),
        last_hour: texts(&last_hour),
        since_yesterday,
        newest_key: (key, at),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.table(
            Table::new("ROOM#ann", ["read", "result"])
                .row([
                    "descending, limit 20".to_owned(),
                    format!(
                        "{} .. {} ({} items, more: {})",
                        self.newest.first().map_or("", String::as_str),
                        self.newest.last().map_or("", String::as_str),
                        self.newest.len(),
                        self.newest_has_more
                    ),
                ])
                .row([
                    "between first(to-1h) and last(to)".to_owned(),
                    format!("{:?}", self.last_hour),
                ])
                .row([
                    "ge first(to-1d) (count)".to_owned(),
                    self.since_yesterday.to_string(),
                ]),
        );
        p.note(format!(
            "newest sort key {} encodes {}",
            self.newest_key.0, self.newest_key.1
        ));
        p.fmt(f)
    }
}
