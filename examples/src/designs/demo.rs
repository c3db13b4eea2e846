//! Data for the live view and the served engine: the recipes written into
//! tables named as the catalogue names them, and a few items of the kind
//! the live view exists to find.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::codec::Item;
use dynakey::local::Backend;
use dynakey::{Db, Entity, Error};

use super::values::{user_order, user_profile};
use crate::recipes::{Recipe, ALL as RECIPES};
use crate::seeds::{UserOrder, UserProfile};

/// The recipes to run for `names` (catalogue or recipe names), each once,
/// in the order given; every recipe, in the tour's order, when empty.
///
/// ```
/// use dynakey_examples::designs::demo::{recipes_for, table_of};
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
        let recipe = super::find(n)
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
    super::find(recipe.name).map_or(recipe.name, |e| e.name)
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

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

/// Three items of the kind the live view points out, written into the
/// shop table the way a buggy script or another client would: one whose
/// discriminator no entity has, one that does not decode (a profile
/// without its email), and an order whose sort key disagrees with its
/// `order_id` (drift: `to_item()` would write another key).
///
/// ```
/// use dynakey_examples::designs::{demo, find};
/// let shop = (find("shop").unwrap().build)().unwrap();
/// let view = shop.inspect(demo::problem_items());
/// assert_eq!(view.problems().count(), 3);
/// ```
pub fn problem_items() -> Vec<Item> {
    let disc = UserProfile::META.discriminator_attr;
    let cart: Item = [
        ("pk", s("USER#u2")),
        ("sk", s("CART#current")),
        (disc, s("LEGACY_CART")),
        ("items", AttributeValue::N("3".into())),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let mut no_email = user_profile().to_item().unwrap_or_default();
    no_email.insert("pk".into(), s("USER#u3"));
    no_email.insert("user_id".into(), s("u3"));
    no_email.remove("email");
    let mut drifted = UserOrder {
        order_id: "o7".into(),
        ..user_order()
    }
    .to_item()
    .unwrap_or_default();
    drifted.insert("sk".into(), s("ORDER#O7"));
    vec![cart, no_email, drifted]
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
