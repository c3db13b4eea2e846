//! Seed 003 "Time-bucketed partitions": samples of a metric in partitions
//! of a fixed span of time (`METRIC#cpu#<bucket:d10>`), the bucket being the
//! time divided by the bucket size: a setting, not part of the template. A
//! range asks every bucket it touches and merges them.

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::MetricSample;

super::recipe!(
    "time_buckets",
    "003 Time-bucketed partitions",
    "METRIC#<metric>#<bucket:d10>, bucket = time / size: a 24 h range reads every bucket it touches"
);

/// The size of a bucket. A reader must use the size the items were
/// written with, so keep it with the data's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BucketSize(pub Duration);

impl BucketSize {
    /// The bucket of an instant: whole sizes since the epoch.
    ///
    /// ```
    /// use dynakey_examples::recipes::time_buckets::BucketSize;
    /// let six_hours = BucketSize(time::Duration::hours(6));
    /// let at = time::macros::datetime!(1970-01-02 05:59 UTC);
    /// assert_eq!(six_hours.of(at), 4); // 29 h 59 min: the fifth bucket
    /// ```
    pub fn of(&self, at: OffsetDateTime) -> i64 {
        let size = self.0.whole_nanoseconds().max(1);
        at.unix_timestamp_nanos().div_euclid(size) as i64
    }

    /// Every bucket from the one of `from` to the one of `to`.
    pub fn range(&self, from: OffsetDateTime, to: OffsetDateTime) -> std::ops::RangeInclusive<i64> {
        self.of(from)..=self.of(to)
    }
}

/// The first sample; one every 30 minutes for three days.
pub const START: OffsetDateTime = datetime!(2026-07-15 00:00 UTC);
/// Samples per metric.
pub const SAMPLES: i64 = 3 * 48;
/// The range read: 24 hours from 09:00, both ends included.
pub const FROM: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);
/// The end of the range read.
pub const TO: OffsetDateTime = datetime!(2026-07-17 09:00 UTC);

/// One metric written and read with one bucket size.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The metric.
    pub metric: String,
    /// The bucket size.
    pub size: Duration,
    /// The partitions the range touched.
    pub partitions: Vec<String>,
    /// The samples' values, in time order.
    pub values: Vec<i32>,
    /// The fan-out's cost (a query per bucket).
    pub usage: Usage,
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// `cpu` in 6-hour buckets, `mem` in 1-hour buckets.
    pub reads: Vec<Read>,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[MetricSample::META]).await
}

/// Writes [`SAMPLES`] samples of `metric` in buckets of `size`.
pub async fn write(db: &Db, metric: &str, size: BucketSize) -> Result<(), Error> {
    let mut batch = db.batch_write();
    for i in 0..SAMPLES {
        let at = START + Duration::minutes(30 * i);
        batch = batch.put(&MetricSample {
            metric: metric.into(),
            bucket: size.of(at),
            at,
            value: i as i32,
        });
    }
    batch.send().await.map(drop)
}

/// Reads `metric` between [`FROM`] and [`TO`]: one query per bucket,
/// merged by time.
pub async fn read(db: &Db, metric: &str, size: BucketSize) -> Result<Read, Error> {
    let pks = size
        .range(FROM, TO)
        .map(|b| MetricSample::pk(metric, b))
        .collect::<Result<Vec<_>, _>>()?;
    let partitions = pks.iter().map(|p| p.value().to_owned()).collect();
    let (metered, meter) = Meter::attach(db);
    let samples = metered
        .query_many(pks)
        .sk(MetricSample::sk().between(FROM, TO)?)
        .all()
        .await?;
    Ok(Read {
        metric: metric.into(),
        size: size.0,
        partitions,
        values: samples.into_iter().map(|s| s.value).collect(),
        usage: meter.take(),
    })
}

/// Writes `cpu` with 6-hour buckets and `mem` with 1-hour buckets, and
/// reads the same 24 hours of each.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut reads = Vec::new();
    for (metric, hours) in [("cpu", 6), ("mem", 1)] {
        let size = BucketSize(Duration::hours(hours));
        write(db, metric, size).await?;
        reads.push(read(db, metric, size).await?);
    }
    Ok(Report { reads })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let hm = |t: OffsetDateTime| format!("{} {:02}:{:02}", t.date(), t.hour(), t.minute());
        p.note(format!(
            "{SAMPLES} samples per metric, one every 30 min; read {} ..= {} UTC",
            hm(FROM),
            hm(TO)
        ));
        let mut t = Table::new(
            "one range, two bucket sizes",
            [
                "metric",
                "bucket",
                "partitions",
                "first .. last",
                "samples",
                "requests",
                "capacity",
            ],
        );
        for r in &self.reads {
            t.push([
                r.metric.clone(),
                format!("{} h", r.size.whole_hours()),
                r.partitions.len().to_string(),
                format!(
                    "{} .. {}",
                    r.partitions.first().map_or("", String::as_str),
                    r.partitions.last().map_or("", String::as_str)
                ),
                r.values.len().to_string(),
                r.usage.requests.to_string(),
                r.usage.capacity_text(),
            ]);
        }
        p.table(t);
        p.fmt(f)
    }
}
