//! When a change was made, from every form AWS writes it in:
//! `ApproximateCreationDateTime` as epoch seconds (the Streams API's JSON,
//! Lambda's DynamoDB event; a number or text), as ISO 8601 text with any
//! offset (the AWS CLI v2 prints `2024-11-14T08:00:37-08:00`), as epoch
//! milliseconds or microseconds (Kinesis Data Streams for DynamoDB, by the
//! table's `ApproximateCreationDateTimePrecision`), and an incremental
//! export's `WriteTimestampMicros`.
//!
//! The unit of a number is, in order: the one the record states
//! (`ApproximateCreationDateTimePrecision`: `MILLISECOND` or
//! `MICROSECOND`); else the one the source documents (seconds for the
//! Streams API and Lambda, milliseconds for Kinesis, microseconds for an
//! export); and, as the last resort, its magnitude, when the documented
//! unit would date the change after the year 5138 (10¹¹ seconds): below
//! 10¹⁴ it is milliseconds, below 10¹⁷ microseconds, beyond that no time.
//! The bands cannot be confused for any date from 1973 to 5138.
//!
//! Numbers are converted from their decimal text, exactly to the
//! nanosecond (no float on the way): `1700000000.123456789` keeps every
//! digit.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use time::format_description::well_known::Iso8601;
use time::{OffsetDateTime, PrimitiveDateTime};

use crate::error::change::ChangeError;

/// Where a record comes from: what unit its numbers are documented in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The Streams API and Lambda's DynamoDB event: epoch seconds.
    Streams,
    /// Kinesis Data Streams for DynamoDB: epoch milliseconds unless the
    /// record says microseconds.
    Kinesis,
    /// A table export's `WriteTimestampMicros`: epoch microseconds.
    Export,
}

/// Powers of ten from a unit to nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Seconds = 9,
    Millis = 6,
    Micros = 3,
}

impl Source {
    fn unit(self) -> Unit {
        match self {
            Source::Streams => Unit::Seconds,
            Source::Kinesis => Unit::Millis,
            Source::Export => Unit::Micros,
        }
    }
}

/// The time in `v` (absent or `null`: none), read as [`Source`] documents
/// it, with the record's stated precision if any; `field` names it in
/// errors. A value that is there but is no time is an error, not `None`.
pub(crate) fn read(
    v: Option<&Value>,
    source: Source,
    precision: Option<&Value>,
    field: &str,
) -> Result<Option<SystemTime>, ChangeError> {
    let bad = |why: &str| {
        ChangeError::malformed(format!(
            "{field}: {} is not a time: {why}",
            v.map_or_else(String::new, Value::to_string)
        ))
    };
    let stated = match precision {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) if p == "MILLISECOND" => Some(Unit::Millis),
        Some(Value::String(p)) if p == "MICROSECOND" => Some(Unit::Micros),
        Some(other) => {
            return Err(ChangeError::malformed(format!(
                "{field}Precision: {other} is neither MILLISECOND nor MICROSECOND"
            )))
        }
    };
    let number = |text: &str| epoch(text, stated, source).map_err(&bad);
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => number(&n.to_string()).map(Some),
        // An export writes `{"N": "1699999999999999"}` (DynamoDB JSON).
        Some(Value::Object(o)) => match o.get("N") {
            Some(Value::String(s)) if o.len() == 1 => number(s).map(Some),
            _ => Err(bad("expected a number, text or {\"N\": \"..\"}")),
        },
        Some(Value::String(s)) if crate::number::parse(s).is_some() => number(s).map(Some),
        Some(Value::String(s)) => iso8601(s)
            .map(Some)
            .ok_or_else(|| bad("neither epoch time nor ISO 8601 (as 2024-11-14T08:00:37-08:00)")),
        Some(_) => Err(bad("expected a number or text")),
    }
}

/// ISO 8601 / RFC 3339 text with any offset; without one, UTC (what AWS's
/// tools mean by a bare time; they print offsets or `Z`).
fn iso8601(s: &str) -> Option<SystemTime> {
    let t = OffsetDateTime::parse(s, &Iso8601::DEFAULT)
        .or_else(|_| PrimitiveDateTime::parse(s, &Iso8601::DEFAULT).map(|p| p.assume_utc()))
        .ok()?;
    let nanos = t.unix_timestamp_nanos();
    let nanos = u128::try_from(nanos).ok()?;
    since_epoch(nanos)
}

fn since_epoch(nanos: u128) -> Option<SystemTime> {
    let secs = u64::try_from(nanos / 1_000_000_000).ok()?;
    let sub = u32::try_from(nanos % 1_000_000_000).ok()?;
    UNIX_EPOCH.checked_add(Duration::new(secs, sub))
}

/// Epoch time from number text in `stated` or `source`'s unit (see the
/// module docs for the last resort).
fn epoch(text: &str, stated: Option<Unit>, source: Source) -> Result<SystemTime, &'static str> {
    let d = crate::number::parse(text).ok_or("not a number")?;
    if d.digits.is_empty() {
        return Ok(UNIX_EPOCH);
    }
    if d.negative {
        return Err("before 1970");
    }
    // The value is 0.d1d2… × 10^exp, so it is below 10^n when exp <= n.
    let below = |n: i64| d.exp <= n;
    let unit = match stated {
        Some(u) => u,
        None => {
            let unit = source.unit();
            // In `unit`, the value is below 10^11 seconds when it is below
            // 10^(11 + 9 - unit).
            if below(11 + 9 - unit as i64) {
                unit
            } else if below(14) {
                Unit::Millis
            } else if below(17) {
                Unit::Micros
            } else {
                return Err("too large for epoch seconds, milliseconds or microseconds");
            }
        }
    };
    // Nanoseconds: the digits before the point of 0.d1d2… × 10^(exp + k).
    let point = d.exp + unit as i64;
    if point > 38 {
        return Err("too far in the future");
    }
    let mut nanos: u128 = 0;
    for i in 0..point.max(0) as usize {
        let digit = d.digits.get(i).copied().unwrap_or(0);
        nanos = nanos * 10 + u128::from(digit);
    }
    since_epoch(nanos).ok_or("too far in the future")
}

/// A Lambda event's time: `aws_lambda_events` fills a record without one
/// with the epoch itself, which no change can carry (DynamoDB began in
/// 2012), so the epoch is "no time".
#[cfg(feature = "lambda")]
pub(crate) fn unless_epoch(t: SystemTime) -> Option<SystemTime> {
    (t != UNIX_EPOCH).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ms(t: SystemTime) -> u128 {
        t.duration_since(UNIX_EPOCH).unwrap().as_millis()
    }

    fn at(v: Value, source: Source, precision: Option<Value>) -> Option<SystemTime> {
        read(Some(&v), source, precision.as_ref(), "t").unwrap()
    }

    #[test]
    fn epoch_seconds_as_number_or_text_exactly() {
        let t = at(json!(1700000000.5), Source::Streams, None).unwrap();
        assert_eq!(ms(t), 1_700_000_000_500);
        let t = at(json!("1700000000.123456789"), Source::Streams, None).unwrap();
        let d = t.duration_since(UNIX_EPOCH).unwrap();
        assert_eq!(
            (d.as_secs(), d.subsec_nanos()),
            (1_700_000_000, 123_456_789)
        );
        assert_eq!(
            at(json!("1.7E9"), Source::Streams, None),
            at(json!(1700000000), Source::Streams, None)
        );
    }

    #[test]
    fn iso_8601_with_any_offset() {
        let pst = at(json!("2024-11-14T08:00:37-08:00"), Source::Streams, None).unwrap();
        let utc = at(json!("2024-11-14T16:00:37Z"), Source::Streams, None).unwrap();
        assert_eq!(pst, utc);
        assert_eq!(ms(utc), 1_731_600_037_000);
        let frac = at(
            json!("2024-11-14T16:00:37.250+00:00"),
            Source::Streams,
            None,
        )
        .unwrap();
        assert_eq!(ms(frac), 1_731_600_037_250);
        let bare = at(json!("2024-11-14T16:00:37"), Source::Streams, None).unwrap();
        assert_eq!(bare, utc, "no offset is UTC");
    }

    #[test]
    fn kinesis_milliseconds_and_microseconds() {
        let millis = at(json!(1731600037123u64), Source::Kinesis, None).unwrap();
        assert_eq!(ms(millis), 1_731_600_037_123);
        let stated = at(
            json!(1731600037123456u64),
            Source::Kinesis,
            Some(json!("MICROSECOND")),
        )
        .unwrap();
        assert_eq!(
            stated.duration_since(UNIX_EPOCH).unwrap().as_micros(),
            1_731_600_037_123_456
        );
        // Unstated microseconds: milliseconds would be the year 56,000.
        assert_eq!(
            at(json!(1731600037123456u64), Source::Kinesis, None),
            Some(stated)
        );
        // A Kinesis time handed to the Streams decoder: seconds would be
        // the year 56,800; its magnitude says milliseconds.
        assert_eq!(
            at(json!(1731600037123u64), Source::Streams, None),
            Some(millis)
        );
        let stated_ms = at(
            json!(1731600037123u64),
            Source::Kinesis,
            Some(json!("MILLISECOND")),
        );
        assert_eq!(stated_ms, Some(millis));
    }

    #[test]
    fn export_micros_in_every_written_form() {
        let want = at(json!(1699999999999999u64), Source::Export, None).unwrap();
        assert_eq!(
            at(json!("1699999999999999"), Source::Export, None),
            Some(want)
        );
        assert_eq!(
            at(json!({"N": "1699999999999999"}), Source::Export, None),
            Some(want)
        );
        assert_eq!(
            want.duration_since(UNIX_EPOCH).unwrap().as_micros(),
            1_699_999_999_999_999
        );
    }

    #[test]
    fn absent_is_none_and_nonsense_is_an_error() {
        assert_eq!(read(None, Source::Streams, None, "t").unwrap(), None);
        assert_eq!(
            read(Some(&Value::Null), Source::Kinesis, None, "t").unwrap(),
            None
        );
        for bad in [
            json!("yesterday"),
            json!(-5),
            json!(true),
            json!("1e40"),
            json!({"S": "1"}),
        ] {
            let e = read(
                Some(&bad),
                Source::Streams,
                None,
                "dynamodb.ApproximateCreationDateTime",
            )
            .unwrap_err();
            assert!(e.to_string().contains("ApproximateCreationDateTime"), "{e}");
        }
        let e = read(
            Some(&json!(1)),
            Source::Kinesis,
            Some(&json!("NANOSECOND")),
            "t",
        )
        .unwrap_err();
        assert!(e.to_string().contains("NANOSECOND"), "{e}");
    }
}
