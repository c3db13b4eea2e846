//! Data rules on every backend (the embedded engine, and the server at
//! `DYNAKEY_ENDPOINT`): validation before every write path, timestamps
//! kept by puts, updates and upserts, and unique values held by guard items.

mod stamps;
mod unique;
mod unique_scoped;
mod validate;

use dynakey::local::{self, Backend};
use dynakey::{Db, DynamoEntity, Item};
use time::OffsetDateTime;
use uuid::Uuid;

pub struct Fixture {
    _local: Backend,
    pub db: Db,
}

pub async fn fixture(metas: &[&'static dynakey::EntityMeta]) -> Fixture {
    let local = local::from_env().expect("backend");
    let db = local.db(format!("r_{}", Uuid::new_v4().simple()));
    db.create_table(metas).await.expect("create table");
    Fixture { _local: local, db }
}

/// Every item of the table, as stored.
pub async fn scan(db: &Db) -> Vec<Item> {
    let out = db
        .client()
        .scan()
        .table_name(db.table_name())
        .consistent_read(true)
        .send()
        .await
        .expect("scan");
    out.items().to_vec()
}

pub fn email(v: &str) -> Result<(), String> {
    if v.contains('@') {
        Ok(())
    } else {
        Err(format!("{v:?} has no @"))
    }
}

pub fn nick(v: &str) -> Result<(), &'static str> {
    if v.len() <= 8 {
        Ok(())
    } else {
        Err("at most 8 characters")
    }
}

pub fn account(a: &Account) -> Result<(), &'static str> {
    if a.credit <= a.limit {
        Ok(())
    } else {
        Err("credit over the limit")
    }
}

/// Validated fields (a plain one and an optional one) and the entity.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ACCOUNT", validate = account)]
#[pk("ACCOUNT#<id>")]
#[sk("PROFILE")]
pub struct Account {
    pub id: String,
    #[dynamo(validate = email)]
    pub email: String,
    #[dynamo(validate = nick)]
    pub nick: Option<String>,
    pub credit: u32,
    pub limit: u32,
}

/// Timestamps, the optional form and the plain form.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[sk("V")]
pub struct Doc {
    pub id: String,
    pub title: String,
    #[dynamo(created_at)]
    pub created: Option<OffsetDateTime>,
    #[dynamo(updated_at)]
    pub updated: OffsetDateTime,
}

/// A unique email (and an optional unique handle) per user.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
#[sk("PROFILE")]
pub struct User {
    pub id: String,
    #[dynamo(unique, validate = email)]
    pub email: String,
    #[dynamo(unique)]
    pub handle: Option<String>,
    pub name: String,
}
