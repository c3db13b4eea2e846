//! A get of one item by its key.

use std::fmt;

use super::{decode_opt, into_future, non_empty};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Error;
use crate::expr::Placeholders;
use crate::key::Key;
use crate::query::Projection;

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

    /// Sends the get.
    pub async fn send(self) -> Result<Option<E>, Error> {
        let out = self
            .db
            .client
            .get_item()
            .table_name(&*self.db.table)
            .set_key(Some(self.key.to_attributes()))
            .set_consistent_read(self.consistent.then_some(true))
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, self.db.sdk_attempts()))?;
        decode_opt(out.item())
    }

    /// Reads only the fields of the projection `P` (a
    /// `ProjectionExpression` of its attributes; see
    /// [`Projection`](crate::query::Projection)).
    pub async fn project<P: Projection<Entity = E>>(self) -> Result<Option<P>, Error> {
        let mut cx = Placeholders::default();
        let names: Vec<String> = P::attrs().into_iter().map(|a| cx.name(a)).collect();
        let out = self
            .db
            .client
            .get_item()
            .table_name(&*self.db.table)
            .set_key(Some(self.key.to_attributes()))
            .set_consistent_read(self.consistent.then_some(true))
            .projection_expression(names.join(", "))
            .set_expression_attribute_names(cx.names())
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, self.db.sdk_attempts()))?;
        non_empty(out.item())
            .map(P::from_item)
            .transpose()
            .map_err(Error::from)
    }
}

into_future!(Get<E>, Option<E>);
