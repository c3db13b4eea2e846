//! Seed 003 "Write sharding": a hot key spread over shards by a suffix.
//! Votes go to a random shard, and a read fans out over every shard and
//! merges in sort-key order (time). Sessions go to the shard hashed from
//! their id with a stable hash, so a read finds one with one get.

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use super::adjacency::usage_row;
use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::{UserSession, Vote};

super::recipe!(
    "write_sharding",
    "003 Write sharding",
    "VOTES#<poll>#<shard:d2>: random shards read by a merged fan-out; sessions on a hashed shard, one get"
);

/// Shards of a poll's votes.
pub const VOTE_SHARDS: i32 = 4;
/// Shards of the sessions.
pub const SESSION_SHARDS: i32 = 4;
/// Votes written.
pub const VOTES: usize = 40;
/// When the first vote was cast; one a second.
pub const START: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);

/// 64-bit FNV-1a: the same in every process and on every machine (unlike
/// `std`'s `RandomState` hashes).
///
/// ```
/// use dynakey_examples::recipes::write_sharding::fnv1a64;
/// assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// MurmurHash3's 64-bit finalizer: every input bit moves every output
/// bit, so the first byte of FNV-1a's result spreads ids that differ only in
/// their last character (`session-1`, `session-2`, …).
///
/// ```
/// use dynakey_examples::recipes::write_sharding::fmix64;
/// assert_eq!(fmix64(0), 0);
/// assert_ne!(fmix64(1) >> 56, fmix64(2) >> 56);
/// ```
pub fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The shard of a session: the first byte of the id's stable hash
/// (FNV-1a, finalized by [`fmix64`]), modulo [`SESSION_SHARDS`].
pub fn session_shard(id: &str) -> i32 {
    i32::from(fmix64(fnv1a64(id.as_bytes())).to_be_bytes()[0]) % SESSION_SHARDS
}

/// A random shard (from a v4 uuid's random bits).
pub fn random_shard(shards: i32) -> i32 {
    i32::from(uuid::Uuid::new_v4().as_bytes()[0]) % shards
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Votes counted over every shard (`Select = COUNT` per shard).
    pub total: u64,
    /// Votes per shard.
    pub per_shard: Vec<u64>,
    /// Every vote, merged: their times, in the order read.
    pub merged: Vec<OffsetDateTime>,
    /// The fan-out read's cost.
    pub fan_out: Usage,
    /// The 5 newest votes across shards (descending, limit 5).
    pub newest: Vec<OffsetDateTime>,
    /// (session id, shard) of the sessions written.
    pub sessions: Vec<(String, i32)>,
    /// Session `session-1` found by one get on its hashed shard.
    pub found: Option<UserSession>,
    /// That get's cost.
    pub get: Usage,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Vote::META, UserSession::META]).await
}

/// Writes 40 votes on random shards and 8 sessions on hashed shards, then
/// reads the votes back across shards and one session by its shard.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write();
    for i in 0..VOTES {
        batch = batch.put(&Vote {
            poll: "best-pet".into(),
            shard: random_shard(VOTE_SHARDS),
            at: START + Duration::seconds(i as i64),
            vote_id: uuid::Uuid::new_v4(),
        });
    }
    let mut sessions = Vec::new();
    for n in 1..=8 {
        let id = format!("session-{n}");
        let shard = session_shard(&id);
        batch = batch.put(&UserSession {
            shard,
            id: id.clone(),
            user: format!("user{n}"),
        });
        sessions.push((id, shard));
    }
    batch.send().await?;

    let shards = || {
        (0..VOTE_SHARDS)
            .map(|s| Vote::pk("best-pet", s))
            .collect::<Result<Vec<_>, _>>()
    };
    let total = db.query_many(shards()?).count().await?;
    let mut per_shard = Vec::new();
    for pk in shards()? {
        per_shard.push(db.query(pk).count().await?);
    }
    let (metered, meter) = Meter::attach(db);
    let merged = metered
        .query_many(shards()?)
        .all()
        .await?
        .into_iter()
        .map(|v| v.at)
        .collect();
    let fan_out = meter.take();
    let newest = db
        .query_many(shards()?)
        .descending()
        .limit(5)
        .all()
        .await?
        .into_iter()
        .map(|v| v.at)
        .collect();
    let found = metered
        .get(UserSession::key(session_shard("session-1"), "session-1")?)
        .await?;
    let get = meter.take();
    Ok(Report {
        total,
        per_shard,
        merged,
        fan_out,
        newest,
        sessions,
        found,
        get,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new("votes of best-pet per random shard", ["shard", "votes"]);
        for (s, n) in self.per_shard.iter().enumerate() {
            t.push([format!("VOTES#best-pet#{s:02}"), n.to_string()]);
        }
        t.push([
            "all shards (fan-out count)".to_owned(),
            self.total.to_string(),
        ]);
        p.table(t);
        let hm =
            |v: &OffsetDateTime| format!("{:02}:{:02}:{:02}", v.hour(), v.minute(), v.second());
        p.note(format!(
            "merged fan-out: {} votes from {} to {}, in time order: {}",
            self.merged.len(),
            self.merged.first().map(hm).unwrap_or_default(),
            self.merged.last().map(hm).unwrap_or_default(),
            self.merged.windows(2).all(|w| w[0] <= w[1])
        ));
        p.note(format!(
            "newest 5 across shards: {:?}",
            self.newest.iter().map(hm).collect::<Vec<_>>()
        ));
        let mut t = Table::new(
            "sessions on the shard of their id (stable hash, first byte % 4)",
            ["id", "shard"],
        );
        for (id, s) in &self.sessions {
            t.push([id.clone(), format!("SESSIONS#{s:02}")]);
        }
        p.table(t);
        p.table(
            Table::new(
                "what a read costs",
                [
                    "read",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("every vote (4 shards)", &self.fan_out))
            .row(usage_row("session-1 (one get)", &self.get)),
        );
        p.note(format!(
            "session-1 -> {:?}",
            self.found.as_ref().map(|s| &s.user)
        ));
        p.fmt(f)
    }
}
