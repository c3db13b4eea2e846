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
use crate::write::decode_opt;
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
