//! Version-7 uuids as time-ordered sort keys.
//!
//! A v7 uuid starts with its creation time in milliseconds, so its lowercase
//! text sorts by time and a time range is an id range:
//!
//! ```
//! use dynakey_runtime::uuid7;
//! let at = time::macros::datetime!(2026-07-16 09:12:00.123 UTC);
//! let id = uuid7::at(at);
//! assert!(uuid7::first(at) <= id && id <= uuid7::last(at));
//! assert_eq!(uuid7::time_of(id), Some(at));
//! ```

use time::OffsetDateTime;
use uuid::Uuid;

fn millis(at: OffsetDateTime) -> u64 {
    // v7 holds 48 bits of Unix milliseconds; times before 1970 clamp to 0.
    let ms = at.unix_timestamp_nanos().div_euclid(1_000_000);
    ms.clamp(0, (1i128 << 48) - 1) as u64
}

fn with_millis(ms: u64, rest_ones: bool) -> Uuid {
    let mut b = if rest_ones { [0xffu8; 16] } else { [0u8; 16] };
    b[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
    b[6] = (b[6] & 0x0f) | 0x70; // version 7
    b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
    Uuid::from_bytes(b)
}

/// The lowest v7 uuid of the millisecond of `at`.
pub fn first(at: OffsetDateTime) -> Uuid {
    with_millis(millis(at), false)
}

/// The highest v7 uuid of the millisecond of `at`.
pub fn last(at: OffsetDateTime) -> Uuid {
    with_millis(millis(at), true)
}

/// A new v7 uuid for the time `at` (random below the millisecond).
pub fn at(at: OffsetDateTime) -> Uuid {
    let ms = millis(at);
    let ts =
        uuid::Timestamp::from_unix(uuid::NoContext, ms / 1000, ((ms % 1000) * 1_000_000) as u32);
    Uuid::new_v7(ts)
}

/// A new v7 uuid for now.
pub fn now() -> Uuid {
    Uuid::now_v7()
}

/// The millisecond a v7 uuid was made in; `None` for other versions.
pub fn time_of(id: Uuid) -> Option<OffsetDateTime> {
    if id.get_version_num() != 7 {
        return None;
    }
    let b = id.as_bytes();
    let mut ms = [0u8; 8];
    ms[2..].copy_from_slice(&b[..6]);
    let ms = u64::from_be_bytes(ms) as i128;
    OffsetDateTime::from_unix_timestamp_nanos(ms * 1_000_000).ok()
}
