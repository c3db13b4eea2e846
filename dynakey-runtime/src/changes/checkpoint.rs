//! Where a change feed has got to: the last sequence number handled per
//! shard, and the shards read to their end. The caller stores it (any
//! serde format, or [`Checkpoint::to_json`]) and resumes from it.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::error::Error;

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

impl Checkpoint {
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
        serde_json::from_str(text).map_err(|e| Error::Refused {
            message: format!("not a change-feed checkpoint: {e}"),
        })
    }
}
