//! Single-item operations: [`Put`], [`Get`], [`Delete`] and [`UpdateItem`],
//! started from a [`Db`](crate::Db) and sent by `.await` (or `.send()`).
//!
//! Every builder keeps what it has built as a `Result`: the first error
//! found while building (an entity that does not encode, a typed update
//! whose key does not format) is kept, and `send` returns it before
//! anything is sent. The same builders configure the actions of a write
//! transaction ([`TransactWrite::put_with`](crate::TransactWrite::put_with)
//! and its siblings), so a condition reads the same in both places.

mod delete;
mod get;
mod put;
mod update;
mod write;

use std::future::Future;
use std::pin::Pin;

pub use delete::Delete;
pub use get::Get;
pub use put::Put;
pub use update::UpdateItem;
pub(crate) use write::{build_err, render, write_error, Action, Write, WriteOpts};

/// A boxed future, what the operation builders resolve to with `.await`.
///
/// ```
/// use dynakey_runtime::ops::BoxFuture;
/// let f: BoxFuture<'static, u8> = Box::pin(async { 7 });
/// assert_eq!(tokio::runtime::Runtime::new().unwrap().block_on(f), 7);
/// ```
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// `impl IntoFuture` for a builder whose `send(self)` resolves to `$out`.
macro_rules! into_future {
    ($ty:ident<$e:ident>, $out:ty) => {
        impl<$e: crate::entity::Entity> std::future::IntoFuture for $ty<$e> {
            type Output = Result<$out, crate::error::Error>;
            type IntoFuture = crate::ops::BoxFuture<'static, Self::Output>;
            fn into_future(self) -> Self::IntoFuture {
                Box::pin(self.send())
            }
        }
    };
    ($ty:ident, $out:ty) => {
        impl std::future::IntoFuture for $ty {
            type Output = Result<$out, crate::error::Error>;
            type IntoFuture = crate::ops::BoxFuture<'static, Self::Output>;
            fn into_future(self) -> Self::IntoFuture {
                Box::pin(self.send())
            }
        }
    };
}
pub(crate) use into_future;

/// Sends a single-item request (`$req`, an SDK input builder) of `$db`
/// inside its span: records the consumed capacity, then makes the result
/// with `$ok` (given the span and the output) or the error with `$err`.
macro_rules! traced_send {
    ($op:literal, $db:expr, $entity:expr, $req:expr, |$span:ident, $out:ident| $ok:expr, $err:path) => {{
        let db = $db;
        let $span = crate::obs::Span::new($op, &db.table, None, Some($entity));
        let res = match $span.run($req.send_with(&db.client)).await {
            Ok($out) => {
                $span.capacity($out.consumed_capacity());
                $ok
            }
            Err(e) => Err($err(e, db.sdk_attempts())),
        };
        $span.end(res)
    }};
}
pub(crate) use traced_send;

/// `Some(map)` unless empty (DynamoDB answers "no item" with an empty map
/// on some backends).
pub(crate) fn non_empty(m: Option<&crate::codec::Item>) -> Option<&crate::codec::Item> {
    m.filter(|m| !m.is_empty())
}

/// Decodes an optional returned item.
pub(crate) fn decode_opt<E: crate::entity::Entity>(
    m: Option<&crate::codec::Item>,
) -> Result<Option<E>, crate::error::Error> {
    non_empty(m)
        .map(E::from_item)
        .transpose()
        .map_err(crate::error::Error::from)
}
