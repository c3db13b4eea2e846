//! Native index keys in the design view, the NoSQL Workbench model and the
//! live view: an index is drawn by its own attributes and their types, the
//! Workbench model holds what its format can (one partition and one sort
//! attribute, typed) and says what it leaves out, and a native key
//! attribute stored in another form than `to_item()`'s is drift.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::design::{ItemStatus, KeyDrift, TableDesign};
use dynakey::Entity;
use dynakey_examples::designs::{self, values::native_orders};
use serde_json::Value;

fn build(name: &str) -> TableDesign {
    (designs::find(name).unwrap().build)().unwrap()
}

#[test]
fn the_design_draws_a_native_index_by_its_attributes() {
    let d = build("native_orders");
    let md = d.markdown();
    for line in [
        "`ByCourier` (global, native), `ByRegion` (global, native)",
        "A global index on native key `tenant` S + `region` S / `status` S + `placed_at` S, \
         projecting every attribute",
        "A global index on native key `courier` S / `total` N,",
        "| NativeOrder | `tenant` + `region` | `status` + `placed_at` | every item |",
        "| NativeOrder | `courier` | `total` | sparse: items with `courier` set |",
        "| ByCourier sk | `total` | native (N): the field's own attribute, a number, ordered by value | `4200` |",
        "| ByRegion sk | `placed_at` | native (S): the field's own attribute, a string, ordered by \
         its bytes | `2026-07-16T09:12:00.000000000Z` |",
        "| `courier` | `courier` | yes | ByCourier pk (native) |",
        "An item whose `courier` is `None` is not in it",
    ] {
        assert!(md.contains(line), "{line}\n{md}");
    }
    // No template analysis applies to a native index: no collection, no
    // overlap is drawn for it.
    assert!(!md.contains("index ByRegion ·"), "{md}");
    let html = d.html();
    assert!(
        html.contains("native key <code>tenant</code> S + <code>region</code> S"),
        "{html}"
    );
    assert!(
        html.contains("native (N): the field&#39;s own attribute"),
        "{html}"
    );
}

#[test]
fn the_workbench_model_keeps_what_its_format_holds() {
    let d = build("native_orders");
    let wb: Value = serde_json::from_str(&d.workbench()).unwrap();
    let table = &wb["DataModel"][0];
    let gsis = table["GlobalSecondaryIndexes"].as_array().unwrap();
    let names: Vec<&str> = gsis
        .iter()
        .map(|g| g["IndexName"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ByCourier"]);
    let keys = &gsis[0]["KeyAttributes"];
    assert_eq!(keys["PartitionKey"]["AttributeName"], "courier");
    assert_eq!(keys["PartitionKey"]["AttributeType"], "S");
    assert_eq!(keys["SortKey"]["AttributeName"], "total");
    assert_eq!(keys["SortKey"]["AttributeType"], "N");
    let description = wb["ModelMetadata"]["Description"].as_str().unwrap();
    assert!(
        description.contains(
            "Index ByRegion is keyed by native key tenant S + region S / status S + placed_at S"
        ),
        "{description}"
    );
    let total = table["NonKeyAttributes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["AttributeName"] == "total")
        .unwrap();
    assert_eq!(total["AttributeType"], "N");
    // The recipe's index has one partition and two sort attributes: out.
    let wb: Value = serde_json::from_str(&build("native_keys").workbench()).unwrap();
    assert!(wb["DataModel"][0]["GlobalSecondaryIndexes"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn a_native_key_in_another_form_is_drift_and_a_number_in_another_form_is_not() {
    let d = build("native_orders");
    let good = native_orders()[0].to_item().unwrap();
    // The same instant with an offset, as another client writes it: it
    // decodes, but the index orders it as text, so it sorts apart from the
    // items to_item() writes.
    let mut offset = good.clone();
    offset.insert(
        "placed_at".into(),
        AttributeValue::S("2026-07-16T11:12:00+02:00".into()),
    );
    offset.insert(
        "id".into(),
        AttributeValue::S("019f6a32-7700-700a-8000-00000000000b".into()),
    );
    offset.insert(
        "sk".into(),
        AttributeValue::S("ORDER#019f6a32-7700-700a-8000-00000000000b".into()),
    );
    let mut number = good.clone();
    number.insert("total".into(), AttributeValue::N("4.2E+3".into()));
    number.insert(
        "id".into(),
        AttributeValue::S("019f6a32-7700-700a-8000-00000000000c".into()),
    );
    number.insert(
        "sk".into(),
        AttributeValue::S("ORDER#019f6a32-7700-700a-8000-00000000000c".into()),
    );
    let view = d.inspect(vec![good, offset, number]);
    let status: Vec<&ItemStatus> = view.items().iter().map(|i| &i.status).collect();
    assert_eq!(status[0], &ItemStatus::Sound);
    assert_eq!(
        status[1],
        &ItemStatus::Drift {
            keys: vec![KeyDrift {
                attr: "placed_at".into(),
                stored: Some("2026-07-16T11:12:00+02:00".into()),
                expected: Some("2026-07-16T09:12:00.000000000Z".into()),
            }]
        }
    );
    assert_eq!(status[2], &ItemStatus::Sound);
    // The live view's index columns show each native key's values.
    let md = view.markdown();
    assert!(md.contains("bob / 4200"), "{md}");
    assert!(
        md.contains("acme + Eu / open + 2026-07-16T09:12:00.000000000Z"),
        "{md}"
    );
}
