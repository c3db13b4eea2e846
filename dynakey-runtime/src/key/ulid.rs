//! ULIDs kept as strings. A ULID's first 10 characters are its creation
//! time in milliseconds (Crockford base32), so ULID strings sort by time like
//! v7 uuids, and the bounds of a millisecond are its 10 time characters
//! followed by sixteen `0` or sixteen `Z`:
//!
//! ```
//! use dynakey_runtime::key::ulid;
//! let at = time::macros::datetime!(2026-07-16 09:12:00.123 UTC);
//! let (lo, hi) = (ulid::first(at), ulid::last(at));
//! assert_eq!(lo.len(), 26);
//! assert!(lo < hi && hi < ulid::first(at + time::Duration::milliseconds(1)));
//! assert_eq!(ulid::time_of(&hi), Some(at));
//! ```

use time::OffsetDateTime;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

fn millis(at: OffsetDateTime) -> u64 {
    // 48 bits of Unix milliseconds; earlier times clamp to 0.
    at.unix_timestamp_nanos()
        .div_euclid(1_000_000)
        .clamp(0, (1i128 << 48) - 1) as u64
}

fn time_part(at: OffsetDateTime) -> String {
    let ms = millis(at);
    (0..10)
        .rev()
        .map(|i| ALPHABET[((ms >> (5 * i)) & 31) as usize] as char)
        .collect()
}

/// The lowest ULID of the millisecond of `at`.
pub fn first(at: OffsetDateTime) -> String {
    time_part(at) + "0000000000000000"
}

/// The highest ULID of the millisecond of `at`.
pub fn last(at: OffsetDateTime) -> String {
    time_part(at) + "ZZZZZZZZZZZZZZZZ"
}

/// The millisecond a ULID string was made in; `None` if it is not one.
pub fn time_of(ulid: &str) -> Option<OffsetDateTime> {
    if ulid.len() != 26 {
        return None;
    }
    let mut ms: u64 = 0;
    for b in ulid.bytes().take(10) {
        let d = ALPHABET.iter().position(|a| *a == b.to_ascii_uppercase())? as u64;
        ms = ms.checked_mul(32)? + d;
    }
    if ms >= 1 << 48 {
        return None;
    }
    OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000).ok()
}
