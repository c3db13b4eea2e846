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
mod patch;
mod put;
mod update;

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::codec::Item;
use crate::entity::Entity;
use crate::error::Error;

use crate::write::{
    build_err, decode_opt, non_empty, render, write_error, Action, Write, WriteOpts,
};
pub use delete::Delete;
pub use get::{Get, GetProjected};
pub use patch::{PatchFuture, PatchItem};
pub use put::Put;
pub use update::UpdateItem;

/// A boxed future, what the operation builders resolve to with `.await`.
///
/// ```
/// use dynakey_runtime::BoxFuture;
/// let f: BoxFuture<'static, u8> = Box::pin(async { 7 });
/// assert_eq!(tokio::runtime::Runtime::new().unwrap().block_on(f), 7);
/// ```
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a single-item request ([`Get`], [`Put`], [`Delete`],
/// [`UpdateItem`]) resolves to: the request runs as a future that does not
/// depend on the entity, so one copy of it serves every entity type a
/// program uses (what keeps a crate of many entities quick to compile),
/// and the item it returns is decoded as `E` when it is ready.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::{Decoding, Entity};
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// let get: Decoding<Note> = db.get(Note::key("ann", 1).unwrap()).send();
/// assert_eq!(get.await.unwrap(), None);
/// # });
/// ```
#[must_use = "a request does nothing until awaited"]
pub struct Decoding<E> {
    raw: BoxFuture<'static, Result<Option<Item>, Error>>,
    _entity: PhantomData<fn() -> E>,
}

impl<E: Entity> Decoding<E> {
    pub(crate) fn new(raw: BoxFuture<'static, Result<Option<Item>, Error>>) -> Self {
        Self {
            raw,
            _entity: PhantomData,
        }
    }

    /// A request that fails before anything is sent.
    pub(crate) fn failed(e: Error) -> Self {
        Self::new(Box::pin(std::future::ready(Err(e))))
    }
}

impl<E: Entity> Future for Decoding<E> {
    type Output = Result<Option<E>, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.raw.as_mut().poll(cx) {
            Poll::Ready(r) => Poll::Ready(r.and_then(|item| decode_opt(item.as_ref()))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<E: Entity> fmt::Debug for Decoding<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoding")
            .field("entity", &E::META.type_name)
            .finish_non_exhaustive()
    }
}

/// `impl IntoFuture` for a builder whose `send(self)` is a [`Decoding`].
macro_rules! into_decoding {
    ($ty:ident<$e:ident>) => {
        impl<$e: crate::entity::Entity> std::future::IntoFuture for $ty<$e> {
            type Output = Result<Option<$e>, crate::error::Error>;
            type IntoFuture = crate::ops::Decoding<$e>;
            fn into_future(self) -> Self::IntoFuture {
                self.send()
            }
        }
    };
}
pub(crate) use into_decoding;

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

/// The options [`Put`], [`Delete`] and [`UpdateItem`] share, written once:
/// each holds a `WriteOpts` in `opts`, which these methods set, in a
/// `Db` request and in a transaction's action alike.
macro_rules! write_options {
    ($ty:ident, if_exists = $exists:literal, return_old = $old:literal) => {
        impl<E: crate::entity::Entity> $ty<E> {
            #[doc = $exists]
            #[must_use = "a write does nothing until awaited"]
            pub fn if_exists(self) -> Self {
                self.condition(crate::expr::Condition::attr(E::META.pk.attr).exists())
            }

            /// Only when `cond` holds (and-ed with any condition already set).
            #[must_use = "a write does nothing until awaited"]
            pub fn condition(mut self, cond: crate::expr::Condition) -> Self {
                self.opts.and(cond);
                self
            }

            #[doc = $old]
            #[must_use = "a write does nothing until awaited"]
            pub fn return_old(mut self) -> Self {
                self.opts.ret = Some(aws_sdk_dynamodb::types::ReturnValue::AllOld);
                self
            }

            /// On a failed condition, put the item as it was into
            /// [`Error::ConditionFailed`](crate::Error::ConditionFailed).
            #[must_use = "a write does nothing until awaited"]
            pub fn return_old_on_fail(mut self) -> Self {
                self.opts.old_on_fail = true;
                self
            }
        }
    };
}

write_options!(
    Put,
    if_exists = "Only when an item has this key (replace, never create).",
    return_old = "Resolve to the replaced item (`ReturnValues = ALL_OLD`; not in a transaction)."
);
write_options!(
    Delete,
    if_exists = "Only when the item exists.",
    return_old = "Resolve to the deleted item (not in a transaction)."
);
write_options!(
    UpdateItem,
    if_exists = "Only when the item exists (a raw update otherwise creates it; a typed patch already carries this condition).",
    return_old = "Resolve to the item before the update (not in a transaction)."
);

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
