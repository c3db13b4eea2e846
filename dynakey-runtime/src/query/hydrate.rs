//! `.hydrate()`: the whole items behind a read of an index, in its order.

use std::collections::HashMap;

use super::{Query, Typed};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Error;
use crate::key::{Key, KeyKind};

/// The whole items behind an index read, in index order, and the keys the
/// index named whose item is gone (deleted since, or the index lags).
#[derive(Debug)]
#[non_exhaustive]
pub struct Hydrated<E> {
    /// The items, in the index's order.
    pub items: Vec<E>,
    /// Keys the index returned with no item behind them, in index order.
    pub missing: Vec<Key<E>>,
    /// Keys still unprocessed after the batch get's retries.
    pub unprocessed: Vec<Key<E>>,
}

impl<E: Entity, K: KeyKind> Query<E, K, Typed<E>> {
    /// Reads the keys this query selects (through any index, whatever it
    /// projects), then the whole items behind them with consistent batch
    /// gets, in the query's order: the way to read entities through a
    /// `KEYS_ONLY` or `INCLUDE` index (DYNA402).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
    /// #[pk("TASK#<id>")]
    /// #[gsi("GSI1", pk = "OWNER#<owner>", sk = "TASK#<id>", projection = "KEYS_ONLY")]
    /// struct Task { id: String, owner: String, body: String }
    ///
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("tasks");
    /// db.create_table(&[Task::META]).await.unwrap();
    /// for id in ["b", "a", "c"] {
    ///     db.put(&Task { id: id.into(), owner: "ann".into(), body: id.repeat(3) }).await.unwrap();
    /// }
    /// let h = db.query(Task::gsi1_pk("ann").unwrap()).hydrate().await.unwrap();
    /// let ids: Vec<&str> = h.items.iter().map(|t| t.id.as_str()).collect();
    /// assert_eq!(ids, ["a", "b", "c"]);
    /// assert_eq!(h.items[0].body, "aaa");
    /// assert!(h.missing.is_empty());
    /// // db.query(Task::gsi1_pk("ann").unwrap()).all() does not compile: DYNA402.
    /// # });
    /// ```
    pub async fn hydrate(&self) -> Result<Hydrated<E>, Error> {
        let keys = self.clone().keys_only().all().await?;
        self.db.hydrate(keys).await
    }
}

impl Db {
    /// The items at `keys`, in their order, with consistent batch gets:
    /// what [`Query::hydrate`] does with the keys an index read returned
    /// (a key whose item is gone is in [`Hydrated::missing`]).
    pub async fn hydrate<E: Entity>(&self, keys: Vec<Key<E>>) -> Result<Hydrated<E>, Error> {
        hydrate_keys(self, keys).await
    }
}

async fn hydrate_keys<E: Entity>(db: &Db, keys: Vec<Key<E>>) -> Result<Hydrated<E>, Error> {
    let id = |k: &Key<E>| (k.pk().to_owned(), k.sk().map(str::to_owned));
    let out = db
        .batch_get(keys.iter().cloned())
        .consistent()
        .send()
        .await?;
    let unprocessed: Vec<_> = out.unprocessed.iter().map(id).collect();
    let mut found = HashMap::new();
    for item in out.items {
        found.insert(id(&item.item_key()?), item);
    }
    let mut h = Hydrated {
        items: Vec::with_capacity(keys.len()),
        missing: Vec::new(),
        unprocessed: out.unprocessed,
    };
    for k in keys {
        let i = id(&k);
        match found.remove(&i) {
            Some(item) => h.items.push(item),
            None if unprocessed.contains(&i) => {}
            None => h.missing.push(k),
        }
    }
    Ok(h)
}
