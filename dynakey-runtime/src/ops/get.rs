//! A get of one item by its key.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::get_item::builders::GetItemInputBuilder;
use aws_sdk_dynamodb::operation::get_item::GetItemInput;

use super::Decoding;
use crate::codec::Item;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Error;
use crate::explain::Explain;
use crate::expr::Placeholders;
use crate::key::Key;
use crate::query::Projection;
use crate::send::{send, To};
use crate::write::{build_err, non_empty};

/// A get; `.await` it for `Option<E>`.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// assert_eq!(db.get(Note::key("ann", 9).unwrap()).consistent().await.unwrap(), None);
/// # });
/// ```
#[must_use = "a get does nothing until awaited"]
pub struct Get<E> {
    pub(crate) db: Db,
    pub(crate) key: Key<E>,
    pub(crate) consistent: bool,
}

impl<E> Clone for Get<E> {
    fn clone(&self) -> Self {
        Get {
            db: self.db.clone(),
            key: self.key.clone(),
            consistent: self.consistent,
        }
    }
}

impl<E: Entity> fmt::Debug for Get<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Get")
            .field("table", &self.db.table)
            .field("key", &self.key)
            .field("consistent", &self.consistent)
            .finish()
    }
}

impl<E: Entity> Get<E> {
    /// A strongly consistent read.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    fn request(&self) -> GetItemInputBuilder {
        get_request(&self.db, self.key.to_attributes(), self.consistent)
    }

    /// The SDK input this get sends, without sending it.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let input = db.get(Note::key("ann", 1).unwrap()).consistent().to_input().unwrap();
    /// assert_eq!(input.consistent_read(), Some(true));
    /// ```
    pub fn to_input(&self) -> Result<GetItemInput, Error> {
        self.request().build().map_err(build_err)
    }

    /// The get in readable form, without sending it.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let x = db.get(Note::key("ann", 1).unwrap()).explain().unwrap();
    /// assert_eq!((x.operation.as_str(), x.key.len()), ("GetItem", 2));
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        Ok(Explain::from(&self.to_input()?))
    }

    /// Sends the get.
    pub fn send(self) -> Decoding<E> {
        let req = self.request();
        Decoding::new(Box::pin(get_item(self.db, E::META.type_name, req)))
    }

    /// Reads only the fields of the projection `P` (a
    /// `ProjectionExpression` of its attributes; see
    /// [`Projection`](crate::query::Projection)): a step, as on a query,
    /// sent by `.await` (or `.send()`).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::{DynamoEntity, DynamoProjection};
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// #[derive(DynamoProjection, Debug, Clone, PartialEq)]
    /// #[dynamo(crate = "dynakey_runtime", of = Note)]
    /// struct Text { text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// db.create_table(&[Note::META]).await.unwrap();
    /// db.put(&Note { user: "ann".into(), id: 1, text: "hi".into() }).await.unwrap();
    /// let get = db.get(Note::key("ann", 1).unwrap()).project::<Text>();
    /// assert_eq!(get.to_input().unwrap().projection_expression(), Some("#n0"));
    /// assert_eq!(get.await.unwrap(), Some(Text { text: "hi".into() }));
    /// # });
    /// ```
    pub fn project<P: Projection<Entity = E>>(self) -> GetProjected<E, P> {
        GetProjected {
            get: self,
            _p: PhantomData,
        }
    }
}

impl<E: Entity> std::future::IntoFuture for Get<E> {
    type Output = Result<Option<E>, Error>;
    type IntoFuture = Decoding<E>;
    fn into_future(self) -> Decoding<E> {
        self.send()
    }
}

/// A [`Get`] that reads only the fields of the projection `P`: made by
/// [`Get::project`], sent by `.await` (or `.send()`).
#[must_use = "a get does nothing until awaited"]
pub struct GetProjected<E, P> {
    get: Get<E>,
    _p: PhantomData<fn() -> P>,
}

impl<E, P> Clone for GetProjected<E, P> {
    fn clone(&self) -> Self {
        GetProjected {
            get: self.get.clone(),
            _p: PhantomData,
        }
    }
}

impl<E: Entity, P> fmt::Debug for GetProjected<E, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GetProjected")
            .field("get", &self.get)
            .field("projection", &std::any::type_name::<P>())
            .finish()
    }
}

impl<E: Entity, P: Projection<Entity = E>> GetProjected<E, P> {
    /// Read with strong consistency.
    pub fn consistent(mut self) -> Self {
        self.get = self.get.consistent();
        self
    }

    /// The SDK input this get sends, without sending it.
    pub fn to_input(&self) -> Result<GetItemInput, Error> {
        self.request().build().map_err(build_err)
    }

    /// The get in readable form, without sending it.
    pub fn explain(&self) -> Result<Explain, Error> {
        Ok(Explain::from(&self.to_input()?))
    }

    /// The request: the get's, with the projection's attributes.
    fn request(&self) -> GetItemInputBuilder {
        let mut cx = Placeholders::default();
        let names: Vec<String> = P::attrs().into_iter().map(|a| cx.name(a)).collect();
        self.get
            .request()
            .projection_expression(names.join(", "))
            .set_expression_attribute_names(cx.names())
    }

    /// Sends the get.
    pub async fn send(self) -> Result<Option<P>, Error> {
        let to = To::db(&self.get.db).entity(E::META.type_name);
        let out = send(&to, self.request()).await?;
        non_empty(out.item())
            .map(P::from_item)
            .transpose()
            .map_err(Error::from)
    }
}

impl<E: Entity, P: Projection<Entity = E>> std::future::IntoFuture for GetProjected<E, P> {
    type Output = Result<Option<P>, Error>;
    type IntoFuture = crate::ops::BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// The GetItem request of a key. Not generic: one copy for every entity.
fn get_request(db: &Db, key: Item, consistent: bool) -> GetItemInputBuilder {
    GetItemInput::builder()
        .table_name(&*db.table)
        .set_key(Some(key))
        .set_consistent_read(consistent.then_some(true))
}

/// A strongly consistent read of the item at `key` (its attributes), of
/// the entity named `entity`: the read of a patch.
pub(super) fn read_item(
    db: Db,
    entity: &'static str,
    key: Item,
) -> crate::ops::BoxFuture<'static, Result<Option<Item>, Error>> {
    let req = get_request(&db, key, true);
    Box::pin(async move { Ok(get_item(db, entity, req).await?.filter(|i| !i.is_empty())) })
}

/// Sends a get and hands back the item, for any entity (an empty one is
/// "none" when [`Decoding`] decodes it).
async fn get_item(
    db: Db,
    entity: &'static str,
    req: GetItemInputBuilder,
) -> Result<Option<Item>, Error> {
    Ok(send(&To::db(&db).entity(entity), req).await?.item)
}

impl Db {
    /// Reads the item at `key`; see [`Get`].
    pub fn get<E: Entity>(&self, key: Key<E>) -> Get<E> {
        Get {
            db: self.clone(),
            key,
            consistent: false,
        }
    }
}
