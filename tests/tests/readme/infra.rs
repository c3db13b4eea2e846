//! The README's table as infrastructure: one description for the test
//! table, the stack's export and the live check, and the golden test that
//! keeps the export current (`tests/infra/store.cfn.yaml`).

use std::path::Path;

use dynakey::prelude::*;
use dynakey::table::{export, Billing, Encryption, PointInTimeRecovery, TableOptions};
use dynakey_examples::seeds::{OrderInfo, Product, UserOrder, UserProfile};

// README: "The table as infrastructure", the table.
#[rustfmt::skip]
mod table {
use super::*;
#[derive(DynamoTable)]
#[dynamo(entities(UserProfile, UserOrder, OrderInfo, Product), stream = "NEW_AND_OLD_IMAGES")]
pub struct Store;
}
use table::Store;

fn production() -> TableOptions {
    // README: "The table as infrastructure", the options.
    #[rustfmt::skip]
let production = Store::options()                       // the stream the code consumes
    .billing(Billing::OnDemand { max_read: Some(4_000), max_write: Some(1_000) })
    .point_in_time_recovery(PointInTimeRecovery { recovery_period_days: Some(14) })
    .deletion_protection()
    .encryption(Encryption::Kms { key: Some("alias/store-table".into()) })
    .tag("team", "store");
    production
}

#[rustfmt::skip]
async fn three_ways(db: &Db) -> Result<(export::CloudFormation, export::Terraform), Box<dyn std::error::Error>> {
let production = production(); // not in the README
// Tests: the same table, on the embedded engine or any endpoint.
db.create_table_with(Store::ENTITIES, Store::options()).await?;

// Production: the stack's resource.
let cfn = Store::cloudformation("store", &production)?;   // cfn.json() or cfn.yaml()
let tf = Store::terraform("store", &production)?;         // tf.json(): a .tf.json file

// Both: the deployed table against the code.
let report = db.verify_table_with(Store::ENTITIES, &production).await?;
assert!(report.is_ok(), "{report}");
Ok((cfn, tf)) // not in the README
}

#[tokio::test]
async fn one_description_makes_the_test_table_the_export_and_the_live_check() {
    let (_backend, db) = super::fresh(&[]).await;
    let (cfn, tf) = three_ways(&db).await.unwrap();
    let props = &cfn.template()["Resources"][cfn.logical_id()]["Properties"];
    assert_eq!(
        props["StreamSpecification"]["StreamViewType"],
        "NEW_AND_OLD_IMAGES"
    );
    assert_eq!(
        props["PointInTimeRecoverySpecification"]["RecoveryPeriodInDays"],
        14
    );
    let r = &tf.document()["resource"]["aws_dynamodb_table"]["store"];
    assert_eq!(r["stream_view_type"], "NEW_AND_OLD_IMAGES");
    assert_eq!(r["deletion_protection_enabled"], true);
    // The test table lacks the production settings: listed, not failing.
    let report = db
        .verify_table_with(Store::ENTITIES, &production())
        .await
        .unwrap();
    assert!(report.is_ok() && !report.matches(), "{report}");
    assert!(report
        .differences
        .contains(&dynakey::table::verify::Difference::DeletionProtection));
}

// README: "The table as infrastructure", the golden test.
#[rustfmt::skip]
#[test]
fn infrastructure_is_current() {
    let cfn = Store::cloudformation("store", &production()).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("infra/store.cfn.yaml");
    export::check_file(&path, &cfn.yaml()).unwrap(); // Err says which line differs
}
