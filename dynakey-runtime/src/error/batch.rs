//! What a batch write hands back: the outcome of every request, held by
//! [`Error::BatchIncomplete`] when some were not written (so it lives here,
//! below the batch requests that make it).

use aws_sdk_dynamodb::types::WriteRequest;

use super::Error;

/// What a batch write did with every request: each one is written, handed
/// back unprocessed, or failed with its error, so
/// `written + unprocessed.len() + Σ failed[i].requests.len()` is the number
/// of requests sent.
///
/// [`BatchWrite::send`](crate::BatchWrite::send) returns it as `Ok` when every request was written,
/// and inside [`Error::BatchIncomplete`] otherwise (see the example on
/// [`BatchWrite`](crate::BatchWrite)).
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct BatchWriteOutcome {
    /// Requests written.
    pub written: usize,
    /// The requests still unprocessed after every retry (resubmit them with
    /// [`BatchWrite::requests`](crate::BatchWrite::requests)).
    pub unprocessed: Vec<WriteRequest>,
    /// Requests DynamoDB refused, with the error of the call that carried
    /// them (a call of up to 25 requests fails as a whole).
    pub failed: Vec<BatchFailure>,
    /// BatchWriteItem calls made.
    pub calls: u32,
    /// Why DynamoDB throttled the calls whose retries ran out while
    /// throttled (their requests are in `unprocessed`): the reasons of
    /// each such chunk's last call.
    pub throttled: Vec<super::Throttle>,
}

impl BatchWriteOutcome {
    /// Whether every request was written (always, when it comes back as
    /// `Ok`).
    pub fn is_complete(&self) -> bool {
        self.unprocessed.is_empty() && self.failed.is_empty()
    }

    /// Every request not written: the unprocessed and the failed ones.
    pub fn not_written(&self) -> impl Iterator<Item = &WriteRequest> {
        self.unprocessed
            .iter()
            .chain(self.failed.iter().flat_map(|f| f.requests.iter()))
    }
}

/// Requests of a batch that failed together, and why: an item of
/// [`BatchWriteOutcome::failed`], inside [`Error::BatchIncomplete`].
#[derive(Debug)]
#[non_exhaustive]
pub struct BatchFailure {
    /// The requests of the failed call (none of them is written).
    pub requests: Vec<WriteRequest>,
    /// The error.
    pub error: Error,
}
