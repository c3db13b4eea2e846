//! The committed files the guide tells a user to keep current with a test
//! (its Schema evolution and The table as infrastructure pages), kept
//! current here the way it shows: the shop table's schema snapshot,
//! `tests/dynakey/Shop.schema`, and the store table's CloudFormation
//! export, `tests/infra/store.cfn.yaml`. The guide's own examples run as
//! doctests of `dynakey`, where no such file sits beside them.

use std::path::Path;

use dynakey::prelude::*;
use dynakey::schema::Migration;
use dynakey::table::{export, Billing, Encryption, PointInTimeRecovery, TableOptions};
use dynakey_examples::recipes::schema_evolution::{Order, OrderV1, User};
use dynakey_examples::seeds::{OrderInfo, Product, UserOrder, UserProfile};

/// The guide's migrations, on the `schema_evolution` recipe's shop.
pub const MIGRATIONS: &[Migration] = &[
    Migration::rekey::<OrderV1, Order>("orders-sk-d6"),
    Migration::rename_attribute::<User>("users-mail-to-email", "mail", "email"),
    Migration::backfill::<User>("users-by-email"),
    Migration::fill_default::<User>("users-tier", "tier"),
];

#[derive(DynamoTable)]
#[dynamo(entities(Order, User), migrations = MIGRATIONS)]
pub struct Shop;

#[test]
fn schema_is_current() {
    Shop::check_schema().unwrap(); // Err says which line differs
}

#[test]
fn the_migrations_are_named_and_ordered() {
    let names: Vec<&str> = MIGRATIONS.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        [
            "orders-sk-d6",
            "users-mail-to-email",
            "users-by-email",
            "users-tier"
        ]
    );
}

/// The store of the seeds' users, orders and products, whose code
/// consumes its changes.
#[derive(DynamoTable)]
#[dynamo(
    entities(UserProfile, UserOrder, OrderInfo, Product),
    stream = "NEW_AND_OLD_IMAGES"
)]
pub struct Store;

/// The guide's production settings of the store.
fn production() -> TableOptions {
    Store::options()
        .billing(Billing::OnDemand {
            max_read: Some(4_000),
            max_write: Some(1_000),
        })
        .point_in_time_recovery(PointInTimeRecovery {
            recovery_period_days: Some(14),
        })
        .deletion_protection()
        .encryption(Encryption::Kms {
            key: Some("alias/store-table".into()),
        })
        .tag("team", "store")
}

#[test]
fn infrastructure_is_current() {
    let cfn = Store::cloudformation("store", &production()).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("infra/store.cfn.yaml");
    export::check_file(&path, &cfn.yaml()).unwrap(); // Err says which line differs
}
