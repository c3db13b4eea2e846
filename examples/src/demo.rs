//! Data for the live view and the served engine: the recipes written into
//! tables named as the catalogue names them, and a few items of the kind
//! the live view exists to find.

use dynakey::local::Backend;
use dynakey::{Db, Error};

use crate::designs::values::problem_items;
use crate::recipes::{Recipe, ALL as RECIPES};

/// The recipes to run for `names` (catalogue or recipe names), each once,
/// in the order given; every recipe, in the tour's order, when empty.
///
/// ```
/// use dynakey_examples::demo::{recipes_for, table_of};
/// let r = recipes_for(&["shop".into(), "users_orders_products".into()]).unwrap();
/// assert_eq!((r.len(), r[0].name, table_of(r[0])), (1, "users_orders_products", "shop"));
/// assert!(recipes_for(&["nope".into()]).is_err());
/// ```
pub fn recipes_for(names: &[String]) -> Result<Vec<&'static Recipe>, String> {
    if names.is_empty() {
        return Ok(RECIPES.iter().collect());
    }
    let mut out: Vec<&'static Recipe> = Vec::new();
    for n in names {
        let recipe = crate::designs::find(n)
            .and_then(|e| e.recipe)
            .ok_or_else(|| format!("no recipe writes a table named {n:?}"))?;
        let r = RECIPES
            .iter()
            .find(|r| r.name == recipe)
            .ok_or_else(|| format!("no recipe named {recipe:?}"))?;
        if !out.iter().any(|x| x.name == r.name) {
            out.push(r);
        }
    }
    Ok(out)
}

/// The table a recipe writes: the catalogue's name for it (`shop` for
/// `users_orders_products`; see the example on [`recipes_for`]).
pub fn table_of(recipe: &Recipe) -> &'static str {
    crate::designs::find(recipe.name).map_or(recipe.name, |e| e.name)
}

/// Runs `recipe` on `backend` into its catalogue table (and the tables it
/// keeps beside it, `<table>-legacy`, `<table>-priority`, ...); returns the
/// names of the tables written.
pub async fn write_recipe(backend: &Backend, recipe: &Recipe) -> Result<Vec<String>, Error> {
    let db = backend.db(table_of(recipe));
    (recipe.run)(db.clone()).await?;
    Ok((recipe.tables)(&db)
        .iter()
        .map(|t| t.table_name().to_owned())
        .collect())
}

/// Writes [`problem_items`] into `db` (the shop table) with plain puts.
pub async fn write_problems(db: &Db) -> Result<(), Error> {
    for item in problem_items() {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .map_err(|e| Error::Sdk(Box::new(e)))?;
    }
    Ok(())
}
