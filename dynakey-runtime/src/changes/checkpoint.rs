//! Where a change feed has got to: the last sequence number handled per
//! shard, and the shards read to their end. The caller stores it (any
//! serde format, or [`Checkpoint::to_json`]) and resumes from it.
//!
//! Stored with the version of its format ([`Checkpoint::VERSION`]), so a
//! newer dynakey reads what an older one stored:
//!
//! - **1**: `{"stream_arn": .., "shards": {..}, "finished": [..]}`, no
//!   version (read as version 1).
//! - **2**: the same with `"version": 2`.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::error::{Error, RefusedReason};

/// A feed's position: every change up to and including these sequence
/// numbers has been handed out, and these shards are done.
///
/// ```
/// use dynakey_runtime::changes::Checkpoint;
/// let mut c = Checkpoint::default();
/// c.shards.insert("shard-1".into(), "000000000000000000042".into());
/// c.finished.insert("shard-0".into());
/// let back = Checkpoint::from_json(&c.to_json()).unwrap();
/// assert_eq!(back, c);
/// assert_eq!(back.position("shard-1"), Some("000000000000000000042"));
/// assert!(back.is_finished("shard-0") && !back.is_finished("shard-1"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Stored", try_from = "Stored")]
#[non_exhaustive]
pub struct Checkpoint {
    /// The stream the positions belong to. A feed that finds the table on
    /// another stream (disabled and enabled again) starts that one from
    /// its oldest record.
    pub stream_arn: Option<String>,
    /// Shard id → the sequence number of the last change handed out.
    pub shards: BTreeMap<String, String>,
    /// Shards read to their end (closed, every record handed out).
    pub finished: BTreeSet<String>,
}

/// A checkpoint as stored: its fields and its format's version (absent
/// in version 1).
#[derive(Serialize, Deserialize)]
struct Stored {
    #[serde(default = "Stored::unversioned")]
    version: u32,
    stream_arn: Option<String>,
    shards: BTreeMap<String, String>,
    finished: BTreeSet<String>,
}

impl Stored {
    fn unversioned() -> u32 {
        1
    }
}

impl From<Checkpoint> for Stored {
    fn from(c: Checkpoint) -> Self {
        Stored {
            version: Checkpoint::VERSION,
            stream_arn: c.stream_arn,
            shards: c.shards,
            finished: c.finished,
        }
    }
}

impl TryFrom<Stored> for Checkpoint {
    type Error = String;

    /// Versions 1 and 2 hold the same facts; a later one is a newer
    /// dynakey's, which this one cannot know it reads right.
    fn try_from(s: Stored) -> Result<Self, String> {
        if let Some(why) = dynakey_core::format::newer(s.version, Checkpoint::VERSION) {
            return Err(format!("a checkpoint in {why}"));
        }
        Ok(Checkpoint {
            stream_arn: s.stream_arn,
            shards: s.shards,
            finished: s.finished,
        })
    }
}

impl Checkpoint {
    /// The version of the format a checkpoint is stored in (its
    /// `version`); every earlier one reads.
    pub const VERSION: u32 = 2;

    /// The last sequence number handed out from `shard`.
    pub fn position(&self, shard: &str) -> Option<&str> {
        self.shards.get(shard).map(String::as_str)
    }

    /// Whether `shard` was read to its end.
    pub fn is_finished(&self, shard: &str) -> bool {
        self.finished.contains(shard)
    }

    /// The checkpoint as JSON text (see the example on [`Checkpoint`]).
    pub fn to_json(&self) -> String {
        // Strings and maps of strings always serialize.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A checkpoint from [`Checkpoint::to_json`]'s text.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let stored: Stored = serde_json::from_str(text).map_err(|e| {
            let why = format!("not a change-feed checkpoint: {e}");
            Error::refused(RefusedReason::Unreadable, why)
        })?;
        Checkpoint::try_from(stored).map_err(|why| Error::refused(RefusedReason::NewerFormat, why))
    }
}

#[cfg(test)]
mod tests {
    use super::{Checkpoint, Error, RefusedReason};

    #[test]
    fn a_checkpoint_carries_its_version_and_the_unversioned_one_reads() {
        let mut c = Checkpoint::default();
        c.shards.insert("shard-1".into(), "42".into());
        assert!(
            c.to_json().starts_with("{\"version\":2,"),
            "{}",
            c.to_json()
        );
        let v1 = Checkpoint::from_json(include_str!("../../fixtures/formats/checkpoint-v1.json"))
            .unwrap();
        assert!(v1
            .stream_arn
            .unwrap()
            .ends_with("/stream/2026-11-30T12:00:00.000"));
        assert_eq!(v1.shards.len(), 2);
        assert_eq!(v1.shards["shardId-00000002"], "000000000000000000107");
        assert!(v1.finished.contains("shardId-00000000"));
        let newer = c.to_json().replace("\"version\":2", "\"version\":3");
        let err = Checkpoint::from_json(&newer).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Refused {
                    reason: RefusedReason::NewerFormat,
                    ..
                }
            ),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(
            err.contains("format 3, which a newer dynakey writes"),
            "{err}"
        );
        let garbled = Checkpoint::from_json("{").unwrap_err();
        assert!(
            matches!(
                garbled,
                Error::Refused {
                    reason: RefusedReason::Unreadable,
                    ..
                }
            ),
            "{garbled:?}"
        );
    }
}
