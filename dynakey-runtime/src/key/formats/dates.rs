//! The text forms of dates and instants: `Date` as `YYYY-MM-DD`, `OffsetDateTime` as
//! UTC RFC 3339 with nine fraction digits, and its reverse form (newest first).

use time::{Date, Month, OffsetDateTime, UtcOffset};

use super::{parse_digits, push_digits, KeyPartError, KeyReverse, KeyText, REV_MAX};
use crate::error::KeyFormatReason;

fn push_2(out: &mut String, v: u8) {
    out.push((b'0' + v / 10) as char);
    out.push((b'0' + v % 10) as char);
}

fn write_date(d: Date, out: &mut String) -> Result<(), KeyPartError> {
    let year = d.year();
    if !(0..=9999).contains(&year) {
        return Err(KeyPartError::new(
            d.to_string(),
            KeyFormatReason::OutOfRange,
        ));
    }
    push_digits(out, year as u128, 4);
    out.push('-');
    push_2(out, d.month() as u8);
    out.push('-');
    push_2(out, d.day());
    Ok(())
}

fn num(s: &str, range: std::ops::Range<usize>, expected: &str) -> Result<u32, KeyPartError> {
    let part = s
        .get(range)
        .ok_or_else(|| KeyPartError::malformed(s, expected))?;
    if !part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(KeyPartError::malformed(s, expected));
    }
    part.parse()
        .map_err(|_| KeyPartError::malformed(s, expected))
}

fn parse_date(s: &str, expected: &str) -> Result<Date, KeyPartError> {
    let b = s.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(KeyPartError::malformed(s, expected));
    }
    let year = num(s, 0..4, expected)? as i32;
    let month = Month::try_from(num(s, 5..7, expected)? as u8)
        .map_err(|_| KeyPartError::malformed(s, expected))?;
    let day = num(s, 8..10, expected)? as u8;
    Date::from_calendar_date(year, month, day).map_err(|_| KeyPartError::malformed(s, expected))
}

#[diagnostic::do_not_recommend]
impl KeyText for Date {
    const WIDTH: Option<usize> = Some(10);
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        write_date(*self, out)
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        if s.len() != 10 {
            return Err(KeyPartError::malformed(s, "YYYY-MM-DD"));
        }
        parse_date(s, "YYYY-MM-DD")
    }
}

const INSTANT: &str = "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ";

/// Instants are written in UTC with nanoseconds, one fixed width (30 chars),
/// so two offsets of one instant give the same text and text order is time
/// order.
#[diagnostic::do_not_recommend]
impl KeyText for OffsetDateTime {
    const WIDTH: Option<usize> = Some(INSTANT.len());
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        // `to_offset` panics when the UTC date leaves the supported years
        // (9999-12-31T23:00-05:00 is in year 10000 in UTC).
        let utc = self
            .checked_to_offset(UtcOffset::UTC)
            .ok_or_else(|| KeyPartError::new(self.to_string(), KeyFormatReason::OutOfRange))?;
        write_date(utc.date(), out)?;
        out.push('T');
        push_2(out, utc.hour());
        out.push(':');
        push_2(out, utc.minute());
        out.push(':');
        push_2(out, utc.second());
        out.push('.');
        push_digits(out, utc.nanosecond() as u128, 9);
        out.push('Z');
        Ok(())
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        let b = s.as_bytes();
        if b.len() != INSTANT.len()
            || b[10] != b'T'
            || b[13] != b':'
            || b[16] != b':'
            || b[19] != b'.'
            || b[29] != b'Z'
        {
            return Err(KeyPartError::malformed(s, INSTANT));
        }
        let date = parse_date(s, INSTANT)?;
        let time = time::Time::from_hms_nano(
            num(s, 11..13, INSTANT)? as u8,
            num(s, 14..16, INSTANT)? as u8,
            num(s, 17..19, INSTANT)? as u8,
            num(s, 20..29, INSTANT)?,
        )
        .map_err(|_| KeyPartError::malformed(s, INSTANT))?;
        Ok(date.with_time(time).assume_utc())
    }
}

#[diagnostic::do_not_recommend]
impl KeyReverse for OffsetDateTime {
    fn write_reverse(&self, out: &mut String) -> Result<(), KeyPartError> {
        let ms = self.unix_timestamp_nanos().div_euclid(1_000_000);
        if !(0..=REV_MAX).contains(&ms) {
            return Err(KeyPartError::new(
                self.to_string(),
                KeyFormatReason::OutOfRange,
            ));
        }
        push_digits(out, (REV_MAX - ms) as u128, 13);
        Ok(())
    }
    fn parse_reverse(s: &str) -> Result<Self, KeyPartError> {
        let n = parse_digits(s, 13)? as i128;
        OffsetDateTime::from_unix_timestamp_nanos((REV_MAX - n) * 1_000_000)
            .map_err(|_| KeyPartError::malformed(s, "13 digits of reversed epoch milliseconds"))
    }
}
