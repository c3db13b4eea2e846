//! The one way a request reaches the SDK, as the SDK's orchestrator is the
//! one way an operation reaches the wire: every operation of the runtime,
//! data or table admin, is an SDK input builder implementing
//! [`Operation`], sent by [`send`] (or [`send_then`], or [`call`] inside a
//! span of the caller's), which
//!
//! 1. opens the request's span (`dynakey.request`, see [`crate::obs`]),
//! 2. asks for consumed capacity (the `Db`'s `ReturnConsumedCapacity`;
//!    an operation that reports none, such as `CreateTable`, asks nothing),
//! 3. sends the input through the client, inside the span,
//! 4. records the capacity and item counts the output reports, and
//! 5. maps the SDK's error to an [`Error`] (the operation's own mapping:
//!    a failed condition of a write carries the old item), recording it on
//!    the span.
//!
//! Adding an operation is one `impl Operation for XInputBuilder` in
//! [`data`] (an operation that reads or writes items: name, capacity,
//! output's capacity) or one line of [`admin`] (one that does not: its
//! name alone); nothing else changes. Nothing else in the runtime calls
//! the SDK's `.send()`: a unit test (`direct_sends`) scans the source for
//! one, with the list of the runtime's own builders that are sent so.

mod admin;
mod data;
#[cfg(test)]
mod direct_sends;
#[cfg(feature = "streams")]
mod streams;

use std::future::Future;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_types::retry::RetryConfig;

use crate::db::Db;
use crate::error::Error;
use crate::obs::Span;

/// What an operation's send resolves to: its output, or the SDK's error.
pub(crate) type Sent<O> =
    Result<<O as Operation>::Output, SdkError<<O as Operation>::Error, HttpResponse>>;

/// One SDK operation, as its input builder: what the send path needs to
/// know of it. The provided methods fit an operation that reports no
/// capacity and no counts, and whose errors need no mapping of their own.
pub(crate) trait Operation: Send + Sized {
    /// The operation's name (`db.operation.name`): `PutItem`, `Query`, …
    const NAME: &'static str;
    /// The client that sends it (DynamoDB's, or the Streams API's).
    type Client: Sync;
    /// Its output.
    type Output: Send;
    /// Its error.
    type Error: aws_sdk_dynamodb::error::ProvideErrorMetadata
        + std::error::Error
        + Send
        + Sync
        + 'static;

    /// Sends the input through `client` (the SDK's `send_with`).
    fn call(self, client: &Self::Client) -> impl Future<Output = Sent<Self>> + Send;

    /// The input asking for consumed capacity `c` (an operation that
    /// reports none is left as it is).
    fn ask_capacity(self, _c: ReturnConsumedCapacity) -> Self {
        self
    }

    /// The capacity its output reports.
    fn consumed(_out: &Self::Output) -> &[ConsumedCapacity] {
        &[]
    }

    /// Vector indexes' bytes its output reports apart from any
    /// `ConsumedCapacity` (a search's `VectorCapacity`).
    fn vector_bytes(_out: &Self::Output) -> Option<f64> {
        None
    }

    /// Items returned and read, when the output says.
    fn counts(_out: &Self::Output) -> Option<(i32, i32)> {
        None
    }

    /// The index it reads.
    fn index(&self) -> Option<&str> {
        None
    }

    /// Actions of a transaction, requests of a batch.
    fn actions(&self) -> Option<usize> {
        None
    }

    /// Its error as the runtime reports it; `attempts` is how many tries
    /// the SDK made (for [`Error::Throttled`]).
    fn error(e: SdkError<Self::Error, HttpResponse>, attempts: u32) -> Error {
        Error::from_sdk(e, attempts)
    }
}

/// Where a request goes and what its span says: the client, the table,
/// the capacity to ask for, and the entity it reads or writes.
#[derive(Debug)]
pub(crate) struct To<'a, C = Client> {
    client: &'a C,
    table: &'a str,
    capacity: Option<&'a ReturnConsumedCapacity>,
    entity: Option<&'static str>,
    attempts: u32,
}

impl<'a> To<'a> {
    /// A request of `db`: its client and table, asking for its capacity.
    pub(crate) fn db(db: &'a Db) -> Self {
        Self {
            client: &db.client,
            table: &db.table,
            capacity: Some(&db.capacity),
            entity: None,
            attempts: attempts(db.client.config().retry_config()),
        }
    }

    /// A request about table `table` through `client` (table admin).
    pub(crate) fn table(client: &'a Client, table: &'a str) -> Self {
        Self::asking_nothing(client, table, client.config().retry_config())
    }
}

impl<'a, C> To<'a, C> {
    /// A request through `client` (whose retry settings are `retry`) that
    /// asks for no capacity.
    fn asking_nothing(client: &'a C, table: &'a str, retry: Option<&RetryConfig>) -> Self {
        Self {
            client,
            table,
            capacity: None,
            entity: None,
            attempts: attempts(retry),
        }
    }

    /// The same, for an item of the entity whose Rust type is `entity`.
    pub(crate) fn entity(self, entity: &'static str) -> Self {
        Self {
            entity: Some(entity),
            ..self
        }
    }
}

/// How many tries a client's retry settings make (3, the SDK's default,
/// when it has none).
fn attempts(retry: Option<&RetryConfig>) -> u32 {
    retry.map_or(3, RetryConfig::max_attempts)
}

/// Sends `req` in a span of its own; its error mapped by the operation.
pub(crate) async fn send<O: Operation>(to: &To<'_, O::Client>, req: O) -> Result<O::Output, Error> {
    send_then(to, req, |sent, attempts| {
        sent.map_err(|e| O::error(e, attempts))
    })
    .await
}

/// Sends `req` like [`send`], answering `None` where the service's error is
/// one `expected` accepts (a table not there yet, an operation the backend
/// lacks).
pub(crate) async fn send_or_none<O: Operation>(
    to: &To<'_, O::Client>,
    req: O,
    expected: impl FnOnce(&O::Error) -> bool,
) -> Result<Option<O::Output>, Error> {
    send_then(to, req, |sent, attempts| match sent {
        Ok(out) => Ok(Some(out)),
        Err(e) if e.as_service_error().is_some_and(expected) => Ok(None),
        Err(e) => Err(O::error(e, attempts)),
    })
    .await
}

/// Sends `req` in a span of its own, and makes the result with `then`
/// (given the SDK's answer and the SDK's tries): for a caller that reads
/// the SDK's error (a cancelled transaction's reasons, a table already
/// there). The span records the error `then` returns, if any.
pub(crate) async fn send_then<O: Operation, T>(
    to: &To<'_, O::Client>,
    req: O,
    then: impl FnOnce(Sent<O>, u32) -> Result<T, Error>,
) -> Result<T, Error> {
    let span = open(to, &req);
    let res = then(call(&span, to, req).await, to.attempts);
    span.end(res)
}

/// `req`'s error as the runtime reports it, for a caller that sends
/// through [`call`] inside a span of its own.
pub(crate) fn error_of<O: Operation>(
    to: &To<'_, O::Client>,
    e: SdkError<O::Error, HttpResponse>,
) -> Error {
    O::error(e, to.attempts)
}

/// The span of a request like `req` (a caller that sends several calls in
/// one span, such as a batch chunk with its retries, opens it here).
pub(crate) fn open<O: Operation>(to: &To<'_, O::Client>, req: &O) -> Span {
    let span = Span::new(O::NAME, to.table, req.index(), to.entity);
    if let Some(n) = req.actions() {
        span.actions(n);
    }
    span
}

/// One call of `req` inside `span`: asks for the capacity, sends, and
/// records what the output reports; the SDK's answer as it came.
pub(crate) async fn call<O: Operation>(span: &Span, to: &To<'_, O::Client>, req: O) -> Sent<O> {
    let req = match to.capacity {
        Some(c) => req.ask_capacity(c.clone()),
        None => req,
    };
    // Boxed: the SDK's request future is deeply nested, and a caller's
    // future holding it unboxed passes rustc's default recursion limit.
    let sent = span.run(Box::pin(req.call(to.client))).await;
    span.last_code(
        sent.as_ref()
            .err()
            .and_then(SdkError::as_service_error)
            .and_then(|e| e.code()),
    );
    if let Ok(out) = &sent {
        span.capacity(O::consumed(out));
        if let Some(b) = O::vector_bytes(out) {
            span.vector_bytes(b);
        }
        if let Some((count, scanned)) = O::counts(out) {
            span.counts(count, scanned);
        }
    }
    sent
}
