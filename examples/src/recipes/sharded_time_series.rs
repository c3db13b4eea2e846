//! Seed 001 "Write-sharded time series": events of a device partitioned by
//! device and month (`DEVICE#device-7#2026-07`), so writes spread and a
//! window stays a key range. A month is one query; a quarter is three,
//! fanned out and merged. The timestamp is epoch milliseconds padded to 13
//! digits (`TS#<ts:d13>`).

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use super::adjacency::usage_row;
use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::DeviceEvent;

super::recipe!(
    "sharded_time_series",
    "001 Write-sharded time series",
    "DEVICE#<device>#<month> / TS#<ms:d13>: a month is one query, a quarter a merged fan-out of three"
);

/// The first event; one every 6 hours until the end of August.
pub const START: OffsetDateTime = datetime!(2026-06-01 00:00 UTC);
/// Events of device-7 (June to August, 4 a day).
pub const EVENTS: i64 = (30 + 31 + 31) * 4;

/// The month bucket of an instant: `2026-07`.
///
/// ```
/// use dynakey_examples::recipes::sharded_time_series::month_of;
/// assert_eq!(month_of(time::macros::datetime!(2026-07-31 23:59 UTC)), "2026-07");
/// ```
pub fn month_of(at: OffsetDateTime) -> String {
    format!("{:04}-{:02}", at.year(), u8::from(at.month()))
}

/// Epoch milliseconds.
pub fn millis(at: OffsetDateTime) -> u64 {
    (at.unix_timestamp_nanos() / 1_000_000) as u64
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// July: events read and the cost (one query).
    pub july: (usize, Usage),
    /// June to August: events read, whether in time order, the cost.
    pub quarter: (usize, bool, Usage),
    /// 10 to 12 July (a window inside one month): the readings.
    pub window: Vec<i32>,
    /// The stored keys of the first event.
    pub first_key: (String, String),
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[DeviceEvent::META]).await
}

fn event(device: &str, at: OffsetDateTime, reading: i32) -> DeviceEvent {
    DeviceEvent {
        device: device.into(),
        month: month_of(at),
        ts: millis(at),
        reading,
    }
}

/// Writes a quarter of events of device-7 (and some of device-8), then
/// reads a month, the quarter and a window.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write();
    for i in 0..EVENTS {
        batch = batch.put(&event("device-7", START + Duration::hours(6 * i), i as i32));
    }
    for i in 0..10 {
        batch = batch.put(&event(
            "device-8",
            datetime!(2026-07-10 00:00 UTC) + Duration::hours(i),
            -1,
        ));
    }
    batch.send().await?;

    let (metered, meter) = Meter::attach(db);
    let july = metered
        .query(DeviceEvent::pk("device-7", "2026-07")?)
        .all()
        .await?;
    let july = (july.len(), meter.take());
    let months = ["2026-06", "2026-07", "2026-08"]
        .map(|m| DeviceEvent::pk("device-7", m))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let quarter = metered.query_many(months).all().await?;
    let ordered = quarter.windows(2).all(|w| w[0].ts < w[1].ts);
    let quarter = (quarter.len(), ordered, meter.take());
    let from = datetime!(2026-07-10 00:00 UTC);
    let to = datetime!(2026-07-12 00:00 UTC);
    let window = db
        .query(DeviceEvent::pk("device-7", month_of(from))?)
        .sk(DeviceEvent::sk().between(millis(from), millis(to))?)
        .all()
        .await?
        .into_iter()
        .map(|e| e.reading)
        .collect();
    let k = event("device-7", START, 0).item_key()?;
    Ok(Report {
        july,
        quarter,
        window,
        first_key: (k.pk().to_owned(), k.sk().unwrap_or_default().to_owned()),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.note(format!(
            "first event stored at {} / {}",
            self.first_key.0, self.first_key.1
        ));
        p.table(
            Table::new(
                "device-7",
                [
                    "window",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("July (one partition)", &self.july.1))
            .row(usage_row(
                "June..August (3 partitions, merged)",
                &self.quarter.2,
            )),
        );
        p.note(format!(
            "quarter: {} events, in time order: {}",
            self.quarter.0, self.quarter.1
        ));
        p.note(format!("10..=12 July: readings {:?}", self.window));
        p.fmt(f)
    }
}
