//! Every recipe of `dynakey-examples` against the backend: the embedded
//! engine by default, or the server at `DYNAKEY_ENDPOINT` (moto in
//! `scripts/test`). Each test runs its recipe on a table of its own and
//! asserts the items, order and counts the seed describes, and the shape of
//! the stored items (key attributes present or absent).

mod evolution;
mod in_place;
mod keys_and_time;
mod laptop;
mod native;
mod single_table;
mod vector;

use dynakey::codec::Item;
use dynakey::local::{self, Backend};
use dynakey::{Db, Key};
use dynakey_examples::recipes::Recipe;

/// A recipe's table(s), created, on the backend; keep it alive for the
/// test (dropping it stops the embedded engine).
pub struct Fixture {
    pub local: Backend,
    pub db: Db,
    recipe: Recipe,
}

impl Fixture {
    /// Deletes the tables on an external endpoint.
    pub async fn done(self) {
        let tables = (self.recipe.tables)(&self.db);
        dynakey_examples::finish(&self.local, &tables.iter().collect::<Vec<_>>())
            .await
            .expect("delete tables");
    }
}

/// A fresh, uniquely named table for `recipe`, not yet created.
pub fn fixture(recipe: Recipe) -> Fixture {
    let local = local::from_env().expect("backend");
    let db = local.db(dynakey_examples::table_name(recipe.name));
    Fixture { local, db, recipe }
}

/// The stored item at `key`; panics when absent.
pub async fn stored<E>(db: &Db, key: Key<E>) -> Item {
    dynakey_examples::raw_item(db, &key)
        .await
        .expect("get")
        .unwrap_or_else(|| panic!("no item at {key:?}"))
}

/// A string attribute of a stored item, `None` when absent.
pub fn s<'a>(item: &'a Item, name: &str) -> Option<&'a str> {
    dynakey_examples::attr_s(item, name)
}

#[test]
fn every_recipe_is_listed_once_with_an_example() {
    let names: Vec<&str> = dynakey_examples::recipes::ALL
        .iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(names.len(), 21);
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/examples");
    for n in names {
        assert!(dir.join(format!("{n}.rs")).is_file(), "no example {n}.rs");
    }
}
