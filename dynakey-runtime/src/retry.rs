//! The backoff of batch retries: what DynamoDB leaves unprocessed (and
//! throttled batch calls) is sent again after a bounded, jittered delay.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// Bounded, jittered exponential backoff for batch retries.
///
/// ```
/// use std::time::Duration;
/// let p = dynakey_runtime::RetryPolicy::default();
/// for attempt in 1..20 {
///     assert!(p.delay(attempt) <= p.max_delay);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Calls per chunk, the first included.
    pub max_attempts: u32,
    /// The delay before the second call (before jitter).
    pub base_delay: Duration,
    /// The largest delay.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 8,
            base_delay: Duration::from_millis(25),
            max_delay: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// The delay after failed attempt `attempt` (from 1): a random duration
    /// up to `min(max_delay, base_delay * 2^(attempt-1))` ("full jitter", so
    /// that concurrent chunks spread out instead of retrying together).
    ///
    /// ```
    /// use std::time::Duration;
    /// let p = dynakey_runtime::RetryPolicy { max_attempts: 3, base_delay: Duration::ZERO, max_delay: Duration::ZERO };
    /// assert_eq!(p.delay(1), Duration::ZERO);
    /// ```
    pub fn delay(&self, attempt: u32) -> Duration {
        let exp = self
            .base_delay
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(20))
            .min(self.max_delay);
        let nanos = exp.as_nanos() as u64;
        if nanos == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(random_u64() % (nanos + 1))
    }
}

/// A random number from the standard library's hasher keys (jitter needs
/// no quality, and this needs no dependency).
pub(crate) fn random_u64() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    h.finish()
}
