//! The NoSQL Workbench models have what the Workbench's import format
//! requires, checked for every table of the catalogue.
//!
//! The format's published description:
//! - Amazon DynamoDB Developer Guide, "Editing an existing data model"
//!   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/workbench.Modeler.Edit.html;
//!   `doc_source/workbench.Modeler.Edit.md` in `awsdocs/amazon-dynamodb-developer-guide`):
//!   `ModelName`; `DataModel` tables with `TableName`, `KeyAttributes`
//!   (`PartitionKey`, `SortKey`: `AttributeName`, `AttributeType`),
//!   `NonKeyAttributes`; `TableFacets`, each with a `FacetName` "unique
//!   across the model", a `KeyAttributeAlias` with `PartitionKeyAlias`
//!   and (only when the table has a sort key) `SortKeyAlias`, and
//!   `NonKeyAttributes` whose names "must map to the attribute names that
//!   are defined for the table".
//! - The models AWS publishes as Workbench exports (format "3.0"),
//!   `aws-samples/aws-dynamodb-examples`, `schema_design/SchemaExamples/*/*Schema.json`:
//!   `ModelMetadata` (`Author`, `DateCreated`, `DateLastModified`,
//!   `Description`, `AWSService`, `Version`), `GlobalSecondaryIndexes`
//!   (`IndexName`, `KeyAttributes`, `Projection.ProjectionType`),
//!   `TableData` items in DynamoDB JSON, `DataAccess`, `BillingMode`.

use std::collections::BTreeSet;

use dynakey_examples::designs;
use serde_json::{json, Value};

const TYPES: &[&str] = &["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];

fn s<'a>(v: &'a Value, at: &str, field: &str, errs: &mut Vec<String>) -> &'a str {
    match v.get(field).and_then(Value::as_str) {
        Some(x) => x,
        None => {
            errs.push(format!("{at}: `{field}` must be a string"));
            ""
        }
    }
}

fn arr<'a>(v: &'a Value, at: &str, field: &str, errs: &mut Vec<String>) -> &'a [Value] {
    match v.get(field).and_then(Value::as_array) {
        Some(x) => x,
        None => {
            errs.push(format!("{at}: `{field}` must be an array"));
            &[]
        }
    }
}

/// An `{AttributeName, AttributeType}`; its name.
fn attribute(v: &Value, at: &str, key: bool, errs: &mut Vec<String>) -> String {
    let name = s(v, at, "AttributeName", errs);
    let ty = s(v, at, "AttributeType", errs);
    let allowed: &[&str] = if key { &["S", "N", "B"] } else { TYPES };
    if !allowed.contains(&ty) {
        errs.push(format!(
            "{at}: AttributeType {ty:?} is not one of {allowed:?}"
        ));
    }
    if name.is_empty() {
        errs.push(format!("{at}: empty AttributeName"));
    }
    name.to_owned()
}

/// `KeyAttributes`: the partition key's and sort key's names.
fn key_attributes(v: &Value, at: &str, errs: &mut Vec<String>) -> (String, Option<String>) {
    let Some(k) = v.get("KeyAttributes") else {
        errs.push(format!("{at}: no KeyAttributes"));
        return (String::new(), None);
    };
    let pk = match k.get("PartitionKey") {
        Some(p) => attribute(p, &format!("{at}.PartitionKey"), true, errs),
        None => {
            errs.push(format!("{at}: no PartitionKey"));
            String::new()
        }
    };
    let sk = k
        .get("SortKey")
        .map(|p| attribute(p, &format!("{at}.SortKey"), true, errs));
    (pk, sk)
}

/// A value in DynamoDB JSON: `{"S": "x"}` and the like.
fn dynamo_value(v: &Value, at: &str, errs: &mut Vec<String>) -> Option<&'static str> {
    let Some(o) = v.as_object().filter(|o| o.len() == 1) else {
        errs.push(format!("{at}: not a one-key DynamoDB JSON value: {v}"));
        return None;
    };
    let (tag, body) = o.iter().next()?;
    let ok = match tag.as_str() {
        "S" => body.is_string(),
        "N" => body.as_str().is_some_and(|n| n.parse::<f64>().is_ok()),
        "B" => body.is_string(),
        "BOOL" => body.is_boolean(),
        "NULL" => body == &Value::Bool(true),
        "SS" | "BS" => body
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        "NS" => body.as_array().is_some_and(|a| {
            a.iter()
                .all(|n| n.as_str().is_some_and(|n| n.parse::<f64>().is_ok()))
        }),
        "L" => body.as_array().is_some_and(|a| {
            a.iter()
                .enumerate()
                .all(|(i, x)| dynamo_value(x, &format!("{at}[{i}]"), errs).is_some())
        }),
        "M" => body.as_object().is_some_and(|m| {
            m.iter()
                .all(|(k, x)| dynamo_value(x, &format!("{at}.{k}"), errs).is_some())
        }),
        _ => false,
    };
    if !ok {
        errs.push(format!("{at}: malformed {tag} value {body}"));
        return None;
    }
    TYPES.iter().copied().find(|t| *t == tag)
}

/// Every problem the model has against the format; empty when it is fine.
fn check(model: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    let e = &mut errs;
    if s(model, "model", "ModelName", e).is_empty() {
        e.push("model: empty ModelName".into());
    }
    match model.get("ModelMetadata") {
        Some(m) => {
            for f in ["Author", "DateCreated", "DateLastModified", "Description"] {
                s(m, "ModelMetadata", f, e);
            }
            if m.get("AWSService") != Some(&json!("Amazon DynamoDB")) {
                e.push("ModelMetadata: AWSService must be \"Amazon DynamoDB\"".into());
            }
            if m.get("Version") != Some(&json!("3.0")) {
                e.push("ModelMetadata: Version must be \"3.0\"".into());
            }
        }
        None => e.push("model: no ModelMetadata".into()),
    }
    let tables = arr(model, "model", "DataModel", e);
    if tables.is_empty() {
        e.push("model: DataModel has no table".into());
    }
    let mut facet_names = BTreeSet::new();
    for t in tables {
        let name = s(t, "table", "TableName", e).to_owned();
        let at = format!("table {name}");
        let (pk, sk) = key_attributes(t, &at, e);
        let mut defined: BTreeSet<String> = [pk.clone()].into_iter().chain(sk.clone()).collect();
        let mut non_key = BTreeSet::new();
        for (i, a) in arr(t, &at, "NonKeyAttributes", e).iter().enumerate() {
            let n = attribute(a, &format!("{at}.NonKeyAttributes[{i}]"), false, e);
            if defined.contains(&n) || !non_key.insert(n.clone()) {
                e.push(format!("{at}: attribute {n:?} defined twice"));
            }
        }
        defined.extend(non_key.iter().cloned());
        for f in arr(t, &at, "TableFacets", e) {
            let fname = s(f, &at, "FacetName", e).to_owned();
            let fat = format!("{at} facet {fname}");
            if !facet_names.insert(fname.clone()) {
                e.push(format!("{fat}: FacetName not unique across the model"));
            }
            match f.get("KeyAttributeAlias") {
                Some(alias) => {
                    s(alias, &fat, "PartitionKeyAlias", e);
                    match (&sk, alias.get("SortKeyAlias")) {
                        (Some(_), Some(v)) if v.is_string() => {}
                        (Some(_), _) => e.push(format!(
                            "{fat}: the table has a sort key, so SortKeyAlias is needed"
                        )),
                        (None, Some(_)) => {
                            e.push(format!("{fat}: SortKeyAlias without a table sort key"))
                        }
                        (None, None) => {}
                    }
                }
                None => e.push(format!("{fat}: no KeyAttributeAlias")),
            }
            for n in arr(f, &fat, "NonKeyAttributes", e) {
                match n.as_str() {
                    Some(n) if non_key.contains(n) => {}
                    _ => e.push(format!(
                        "{fat}: NonKeyAttributes names {n}, which the table does not define"
                    )),
                }
            }
            if let Some(data) = f.get("TableData") {
                if !data.is_array() {
                    e.push(format!("{fat}: TableData must be an array"));
                }
            }
        }
        let mut index_names = BTreeSet::new();
        if let Some(gsis) = t.get("GlobalSecondaryIndexes") {
            for g in gsis.as_array().map_or(&[][..], Vec::as_slice) {
                let iname = s(g, &at, "IndexName", e).to_owned();
                let gat = format!("{at} index {iname}");
                if !index_names.insert(iname) {
                    e.push(format!("{gat}: IndexName not unique"));
                }
                let (ipk, isk) = key_attributes(g, &gat, e);
                for a in [Some(ipk), isk].into_iter().flatten() {
                    if !defined.contains(&a) {
                        e.push(format!(
                            "{gat}: key attribute {a:?} is not defined by the table"
                        ));
                    }
                }
                let pt = g
                    .pointer("/Projection/ProjectionType")
                    .and_then(Value::as_str);
                if !matches!(pt, Some("ALL" | "KEYS_ONLY" | "INCLUDE")) {
                    e.push(format!(
                        "{gat}: Projection.ProjectionType must be ALL, KEYS_ONLY or INCLUDE"
                    ));
                }
            }
        }
        for (i, item) in arr(t, &at, "TableData", e).iter().enumerate() {
            let iat = format!("{at}.TableData[{i}]");
            let Some(o) = item.as_object() else {
                e.push(format!("{iat}: not an object"));
                continue;
            };
            for k in [Some(&pk), sk.as_ref()].into_iter().flatten() {
                if o.get(k).and_then(|v| v.get("S")).is_none() {
                    e.push(format!("{iat}: key attribute {k:?} missing or not S"));
                }
            }
            for (k, v) in o {
                if !defined.contains(k) {
                    e.push(format!(
                        "{iat}: attribute {k:?} is not defined by the table"
                    ));
                }
                dynamo_value(v, &format!("{iat}.{k}"), e);
            }
        }
        if !t.get("DataAccess").is_some_and(Value::is_object) {
            e.push(format!("{at}: DataAccess must be an object"));
        }
        match t.get("BillingMode").and_then(Value::as_str) {
            Some("PAY_PER_REQUEST") => {}
            Some("PROVISIONED") if t.get("ProvisionedCapacitySettings").is_some() => {}
            other => e.push(format!(
                "{at}: BillingMode {other:?} (PAY_PER_REQUEST, or PROVISIONED with its settings)"
            )),
        }
    }
    errs
}

#[test]
fn every_model_has_what_the_workbench_format_requires() {
    let mut facets = 0;
    for entry in designs::ALL {
        let design = (entry.build)().unwrap();
        let model: Value = serde_json::from_str(&design.workbench()).unwrap();
        let errs = check(&model);
        assert!(errs.is_empty(), "{}:\n{}", entry.name, errs.join("\n"));
        // Every entity is a facet, with its example items as sample data.
        let table = &model["DataModel"][0];
        let names: Vec<&str> = table["TableFacets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["FacetName"].as_str().unwrap())
            .collect();
        let types: Vec<&str> = design.metas().iter().map(|m| m.type_name).collect();
        assert_eq!(names, types, "{}", entry.name);
        facets += names.len();
        assert!(
            !table["TableData"].as_array().unwrap().is_empty(),
            "{}",
            entry.name
        );
    }
    assert!(facets >= 40, "{facets} facets");
}

#[test]
fn the_patterns_model_keys_every_facet_and_index_by_its_templates() {
    let design = (designs::find("patterns").unwrap().build)().unwrap();
    let model: Value = serde_json::from_str(&design.workbench()).unwrap();
    let table = &model["DataModel"][0];
    let facet = |name: &str| {
        table["TableFacets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["FacetName"] == name)
            .unwrap()
            .clone()
    };
    let m = facet("Membership");
    assert_eq!(
        m["KeyAttributeAlias"]["PartitionKeyAlias"],
        "USER#<user_id>"
    );
    assert_eq!(m["KeyAttributeAlias"]["SortKeyAlias"], "GROUP#<group_id>");
    assert_eq!(
        m["NonKeyAttributes"],
        json!(["_type", "gsi1pk", "gsi1sk", "user_id", "group_id"])
    );
    assert_eq!(m["TableData"][0]["gsi1pk"], json!({"S": "GROUP#staff"}));
    let gsis: Vec<&str> = table["GlobalSecondaryIndexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["IndexName"].as_str().unwrap())
        .collect();
    assert_eq!(gsis, ["GSI1", "GSI2"]);
    // Types come from the example values; binary is base64.
    let chunk = facet("FileChunk");
    assert_eq!(chunk["TableData"][0]["data"]["B"], "Zmlyc3QgMzUwIEtC");
    let types: Vec<(&str, &str)> = table["NonKeyAttributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["AttributeName"].as_str().unwrap(),
                a["AttributeType"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        types.contains(&("data", "B")) && types.contains(&("chunks", "N")),
        "{types:?}"
    );
}

#[test]
fn the_checker_rejects_what_the_format_forbids() {
    let good = json!({
        "ModelName": "m",
        "ModelMetadata": {"Author": "", "DateCreated": "", "DateLastModified": "",
            "Description": "", "AWSService": "Amazon DynamoDB", "Version": "3.0"},
        "DataModel": [{
            "TableName": "t",
            "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}},
            "NonKeyAttributes": [{"AttributeName": "a", "AttributeType": "N"}],
            "TableFacets": [{"FacetName": "F", "KeyAttributeAlias": {"PartitionKeyAlias": "X"},
                "NonKeyAttributes": ["a"]}],
            "TableData": [{"pk": {"S": "x"}, "a": {"N": "1"}}],
            "DataAccess": {"MySql": {}},
            "BillingMode": "PAY_PER_REQUEST"
        }]
    });
    assert_eq!(check(&good), Vec::<String>::new());
    let broken = |path: &str, v: Value| {
        let mut m = good.clone();
        *m.pointer_mut(path).unwrap() = v;
        check(&m)
    };
    assert!(!broken("/ModelMetadata/Version", json!("2.0")).is_empty());
    assert!(!broken("/DataModel/0/TableFacets/0/NonKeyAttributes", json!(["b"])).is_empty());
    assert!(!broken(
        "/DataModel/0/TableFacets/0/KeyAttributeAlias",
        json!({"PartitionKeyAlias": "X", "SortKeyAlias": "Y"})
    )
    .is_empty());
    assert!(!broken("/DataModel/0/TableData/0/a", json!({"N": "one"})).is_empty());
    assert!(!broken("/DataModel/0/TableData/0/pk", json!({"N": "1"})).is_empty());
    assert!(!broken("/DataModel/0/BillingMode", json!("ON_DEMAND")).is_empty());
    assert!(!broken(
        "/DataModel/0/NonKeyAttributes/0/AttributeType",
        json!("STRING")
    )
    .is_empty());
    let mut two = good.clone();
    let facet = two["DataModel"][0]["TableFacets"][0].clone();
    two["DataModel"][0]["TableFacets"]
        .as_array_mut()
        .unwrap()
        .push(facet);
    assert!(check(&two).iter().any(|e| e.contains("unique")));
}

/// A `KEYS_ONLY` or `INCLUDE` index is drawn with the projection
/// `create_table` gives it (the discriminator included), and a field no
/// example holds gets its type from its Rust type.
#[test]
fn projections_and_types_come_from_the_code() {
    use dynakey::design::TableDesign;
    use dynakey::{DynamoEntity, Entity};

    #[derive(DynamoEntity)]
    #[dynamo(entity = "TASK")]
    #[pk("TASK#<id>")]
    #[gsi(
        "GSI1",
        pk = "OWNER#<owner>",
        sk = "TASK#<id>",
        projection = "INCLUDE(title)"
    )]
    #[gsi("GSI2", pk = "STATE#<state>", sk = "<id>", projection = "KEYS_ONLY")]
    struct Task {
        id: String,
        owner: String,
        state: String,
        title: String,
        points: u32,
        done: bool,
    }

    let model: Value =
        serde_json::from_str(&TableDesign::from_metas("tasks", &[Task::META]).workbench()).unwrap();
    let table = &model["DataModel"][0];
    let gsis = table["GlobalSecondaryIndexes"].as_array().unwrap();
    let proj = |name: &str| {
        gsis.iter()
            .find(|g| g["IndexName"] == name)
            .map(|g| g["Projection"].clone())
            .unwrap()
    };
    assert_eq!(
        proj("GSI1"),
        json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["_type", "title"]})
    );
    assert_eq!(
        proj("GSI2"),
        json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["_type"]})
    );
    let ty = |name: &str| {
        table["NonKeyAttributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["AttributeName"] == name)
            .map(|a| a["AttributeType"].clone())
            .unwrap()
    };
    assert_eq!(
        (ty("points"), ty("done"), ty("title")),
        (json!("N"), json!("BOOL"), json!("S"))
    );
}

/// The Markdown design says what a partial index holds.
#[test]
fn the_markdown_says_what_an_index_projects() {
    use dynakey::design::TableDesign;
    use dynakey::{DynamoEntity, Entity};

    #[derive(DynamoEntity)]
    #[dynamo(entity = "NOTE")]
    #[pk("NOTE#<id>")]
    #[gsi(
        "GSI1",
        pk = "OWNER#<owner>",
        sk = "NOTE#<id>",
        projection = "INCLUDE(title)"
    )]
    #[gsi("GSI2", pk = "DAY#<day>", sk = "<id>", projection = "KEYS_ONLY")]
    struct Note {
        id: String,
        owner: String,
        day: String,
        title: String,
    }

    let md = TableDesign::from_metas("notes", &[Note::META]).markdown();
    assert!(
        md.contains("projecting the keys, the discriminator and `title` (`INCLUDE`)"),
        "{md}"
    );
    assert!(
        md.contains("projecting the keys and the discriminator (`KEYS_ONLY`)"),
        "{md}"
    );
}
