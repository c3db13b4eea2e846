//! The examples' tables as infrastructure: golden CloudFormation (JSON and
//! YAML) and Terraform (`.tf.json`) files, every CloudFormation template
//! through `cfn-lint` (AWS's linter), the YAML read back by a YAML parser
//! as the same document as the JSON, and the Terraform documents checked
//! against the documented arguments of the AWS provider.
//!
//! `UPDATE_GOLDEN=1 cargo test -p dynakey-examples --test infra` rewrites
//! the golden files after a deliberate change (review the diff). cfn-lint
//! comes from `DYNAKEY_CFN_LINT`, the workspace's `.venv` (made by
//! `scripts/test`) or PATH; without it the lint test says so and passes,
//! unless `DYNAKEY_REQUIRE_CFN_LINT=1` (as `scripts/test` sets).

#[path = "support/golden.rs"]
mod golden;
#[path = "support/served.rs"]
mod served;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use dynakey::table::{Billing, Encryption, TableOptions};
use dynakey_examples::infra::{self, Catalog};
use serde_json::Value;

/// The tables whose exports are kept as golden files: every kind of key,
/// index, projection and setting among them.
const GOLDEN: &[&str] = &[
    "shop",
    "shop-production",
    "shop-provisioned",
    "task-counts",
    "documented",
    "catalog",
    "native_keys",
    "native_orders",
    "patterns",
    "multi_tenant",
];

struct Exported {
    name: &'static str,
    json: String,
    yaml: String,
    terraform: Value,
    terraform_text: String,
}

fn exports() -> Vec<Exported> {
    infra::tables()
        .into_iter()
        .map(|t| {
            let cfn = t
                .cloudformation()
                .unwrap_or_else(|e| panic!("{}: {e}", t.name));
            let tf = t.terraform().unwrap();
            Exported {
                name: t.name,
                json: cfn.json(),
                yaml: cfn.yaml(),
                terraform: tf.document().clone(),
                terraform_text: tf.json(),
            }
        })
        .collect()
}

#[test]
fn golden_exports_of_the_examples_tables() {
    let all = exports();
    for name in GOLDEN {
        let e = all
            .iter()
            .find(|e| e.name == *name)
            .unwrap_or_else(|| panic!("no table {name}"));
        golden::golden(&format!("infra/{name}.cfn.json"), &e.json);
        golden::golden(&format!("infra/{name}.cfn.yaml"), &e.yaml);
        golden::golden(&format!("infra/{name}.tf.json"), &e.terraform_text);
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dynakey-infra-{name}-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Python beside cfn-lint (its venv has PyYAML), else `python3`.
fn python_beside(cfn_lint: &Path) -> PathBuf {
    let p = cfn_lint.with_file_name("python");
    if p.exists() {
        p
    } else {
        PathBuf::from("python3")
    }
}

#[test]
fn every_cloudformation_export_passes_cfn_lint_and_its_yaml_reads_as_its_json() {
    let Some(lint) = served::cfn_lint() else {
        return;
    };
    let dir = temp_dir("cfn");
    let mut files = Vec::new();
    for e in exports() {
        for (ext, text) in [("json", &e.json), ("yaml", &e.yaml)] {
            let f = dir.join(format!("{}.{ext}", e.name));
            std::fs::write(&f, text).unwrap();
            files.push(f);
        }
    }
    served::assert_clean(
        Command::new(&lint)
            .args(["--format", "parseable"])
            .args(&files),
        &format!("cfn-lint ({}) on the exports", lint.display()),
    );
    // The same document in both forms, as a YAML parser reads it.
    let script = "import json, sys, yaml\n\
                  bad = [j for j in sys.argv[1:] if json.load(open(j)) != yaml.safe_load(open(j[:-4] + 'yaml'))]\n\
                  print('\\n'.join(bad)); sys.exit(1 if bad else 0)";
    let jsons: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().unwrap() == "json")
        .collect();
    let out = Command::new(python_beside(&lint))
        .arg("-c")
        .arg(script)
        .args(&jsons)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "YAML that does not read as its JSON:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn yaml_keeps_nasty_strings_as_strings() {
    let Some(lint) = served::cfn_lint() else {
        return;
    };
    let nasty = [
        "yes",
        "no",
        "null",
        "~",
        "1e3",
        "0x1F",
        "2026-01-01",
        "!Ref x",
        "*alias",
        "&anchor",
        "a: b",
        "a #b",
        "- item",
        "  leading",
        "trailing ",
        "",
        "\"quoted\"",
        "back\\slash",
        "line\nbreak",
        "tab\tin",
        "é ü 中",
        "${x}",
        "%{x}",
        "{}",
        "[]",
        "@at",
        "`tick`",
    ];
    let mut options = TableOptions::default();
    for (i, v) in nasty.iter().enumerate() {
        options = options.tag(format!("t{i}"), *v);
    }
    let cfn = Catalog::cloudformation("nasty", &options).unwrap();
    let dir = temp_dir("nasty");
    std::fs::write(dir.join("t.json"), cfn.json()).unwrap();
    std::fs::write(dir.join("t.yaml"), cfn.yaml()).unwrap();
    let script = "import json, sys, yaml\n\
                  d = sys.argv[1]\n\
                  sys.exit(0 if json.load(open(d + '/t.json')) == yaml.safe_load(open(d + '/t.yaml')) else 1)";
    let ok = Command::new(python_beside(&lint))
        .arg("-c")
        .arg(script)
        .arg(&dir)
        .status()
        .expect("python runs")
        .success();
    assert!(
        ok,
        "the YAML of {} reads otherwise than its JSON",
        dir.display()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The arguments of `aws_dynamodb_table` and its blocks, from the AWS
/// provider's documentation (website/docs/r/dynamodb_table.html.markdown,
/// provider 6.x: `key_schema` in `global_secondary_index`), and of
/// `aws_dynamodb_resource_policy`. `None`: a map argument (any keys).
fn documented() -> BTreeMap<&'static str, Option<Vec<&'static str>>> {
    let table = vec![
        "attribute",
        "billing_mode",
        "deletion_protection_enabled",
        "global_secondary_index",
        "hash_key",
        "import_table",
        "local_secondary_index",
        "name",
        "on_demand_throughput",
        "point_in_time_recovery",
        "range_key",
        "read_capacity",
        "region",
        "replica",
        "restore_date_time",
        "restore_source_name",
        "restore_source_table_arn",
        "restore_to_latest_time",
        "server_side_encryption",
        "stream_enabled",
        "stream_view_type",
        "table_class",
        "tags",
        "ttl",
        "warm_throughput",
        "write_capacity",
    ];
    BTreeMap::from([
        ("aws_dynamodb_table", Some(table)),
        (
            "aws_dynamodb_resource_policy",
            Some(vec![
                "confirm_remove_self_resource_access",
                "policy",
                "resource_arn",
            ]),
        ),
        ("attribute", Some(vec!["name", "type"])),
        (
            "global_secondary_index",
            Some(vec![
                "hash_key",
                "key_schema",
                "name",
                "non_key_attributes",
                "on_demand_throughput",
                "projection_type",
                "range_key",
                "read_capacity",
                "warm_throughput",
                "write_capacity",
            ]),
        ),
        ("key_schema", Some(vec!["attribute_name", "key_type"])),
        (
            "local_secondary_index",
            Some(vec![
                "name",
                "non_key_attributes",
                "projection_type",
                "range_key",
            ]),
        ),
        (
            "on_demand_throughput",
            Some(vec!["max_read_request_units", "max_write_request_units"]),
        ),
        (
            "point_in_time_recovery",
            Some(vec!["enabled", "recovery_period_in_days"]),
        ),
        (
            "server_side_encryption",
            Some(vec!["enabled", "kms_key_arn"]),
        ),
        ("ttl", Some(vec!["attribute_name", "enabled"])),
        (
            "warm_throughput",
            Some(vec!["read_units_per_second", "write_units_per_second"]),
        ),
        ("tags", None),
        // A least-privilege policy from the code (`Access`).
        (
            "aws_iam_policy",
            Some(vec![
                "description",
                "name",
                "name_prefix",
                "path",
                "policy",
                "policy_id",
                "tags",
            ]),
        ),
        // Data sources: the lookups of a KMS key named by alias or key id.
        ("aws_kms_alias", Some(vec!["name"])),
        ("aws_kms_key", Some(vec!["grant_tokens", "key_id"])),
    ])
}

/// Every argument of `body` (a resource or a block named `block`) is
/// documented; nested blocks (JSON arrays of objects, or one object) are
/// checked the same way.
fn check_block(block: &str, body: &Value, docs: &BTreeMap<&str, Option<Vec<&str>>>, at: &str) {
    let Some(allowed) = docs
        .get(block)
        .unwrap_or_else(|| panic!("{at}: {block} is not a documented block"))
    else {
        return; // a map argument
    };
    for (k, v) in body
        .as_object()
        .unwrap_or_else(|| panic!("{at}: not an object"))
    {
        assert!(
            allowed.contains(&k.as_str()),
            "{at}: `{k}` is not a documented argument of {block}"
        );
        let nested = |v: &Value| v.is_object() && docs.contains_key(k.as_str());
        match v {
            Value::Array(items) if items.iter().all(|i| i.is_object()) && !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    check_block(k, item, docs, &format!("{at}.{k}[{i}]"));
                }
            }
            v if nested(v) => check_block(k, v, docs, &format!("{at}.{k}")),
            _ => {}
        }
    }
}

#[test]
fn terraform_exports_use_only_documented_arguments() {
    let docs = documented();
    for e in exports() {
        let resources = e.terraform["resource"]
            .as_object()
            .expect("a resource object");
        let data = e.terraform.get("data").map(|d| d.as_object().unwrap());
        for (kind, by_name) in resources.iter().chain(data.into_iter().flatten()) {
            for (rname, body) in by_name.as_object().unwrap() {
                check_block(kind, body, &docs, &format!("{}: {kind}.{rname}", e.name));
            }
        }
        for k in e.terraform.as_object().unwrap().keys() {
            assert!(
                ["resource", "data", "variable"].contains(&k.as_str()),
                "{}: {k}",
                e.name
            );
        }
        // Input variables: Terraform's documented arguments, a default of
        // the declared type, and every `var.x` the document uses declared.
        let variables = e.terraform["variable"].as_object().expect("variables");
        for (v, decl) in variables {
            for k in decl.as_object().unwrap().keys() {
                assert!(
                    [
                        "default",
                        "description",
                        "type",
                        "validation",
                        "sensitive",
                        "nullable"
                    ]
                    .contains(&k.as_str()),
                    "{}: variable {v}: {k}",
                    e.name
                );
            }
            let typed = match decl["type"].as_str().unwrap() {
                "string" => decl["default"].is_string(),
                "number" => decl["default"].is_u64(),
                "bool" => decl["default"].is_boolean(),
                other => panic!("{}: variable {v} of type {other}", e.name),
            };
            assert!(typed, "{}: variable {v}: {decl}", e.name);
        }
        let text = e.terraform_text.replace("$${", "");
        for used in text.split("var.").skip(1) {
            let name: String = used
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            assert!(
                variables.contains_key(&name),
                "{}: var.{name} undeclared",
                e.name
            );
        }
        let table = resources["aws_dynamodb_table"]
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap();
        for required in ["name", "hash_key", "attribute"] {
            assert!(table.get(required).is_some(), "{}: no {required}", e.name);
        }
        for g in table["global_secondary_index"]
            .as_array()
            .into_iter()
            .flatten()
        {
            for required in ["name", "key_schema", "projection_type"] {
                assert!(
                    g.get(required).is_some(),
                    "{}: a GSI without {required}",
                    e.name
                );
            }
        }
        for l in table["local_secondary_index"]
            .as_array()
            .into_iter()
            .flatten()
        {
            for required in ["name", "range_key", "projection_type"] {
                assert!(
                    l.get(required).is_some(),
                    "{}: an LSI without {required}",
                    e.name
                );
            }
        }
    }
}

/// The `data` source a `${data.<kind>.<name>.<attribute>}` reference
/// names, when `text` is one and `doc` declares it.
fn declared_data<'a>(doc: &'a Value, text: &str) -> Option<(&'a Value, String)> {
    let path = text.strip_prefix("${data.")?.strip_suffix('}')?;
    let mut parts = path.split('.');
    let (kind, name, attribute) = (parts.next()?, parts.next()?, parts.next()?);
    Some((
        doc["data"].get(kind)?.get(name)?,
        format!("{kind}.{attribute}"),
    ))
}

/// What the AWS provider's `verify.ValidARN` takes: `arn:` and five more
/// `:`-separated parts, partition, service and resource not empty.
fn valid_arn(text: &str) -> bool {
    let parts: Vec<&str> = text.splitn(6, ':').collect();
    parts.len() == 6
        && parts[0] == "arn"
        && !parts[1].is_empty()
        && !parts[2].is_empty()
        && !parts[5].is_empty()
}

#[test]
fn terraform_writes_only_an_arn_or_a_lookups_arn_into_kms_key_arn() {
    let key_arn = "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    let cases = [
        ("alias/store-table", "aws_kms_alias.target_key_arn", "name"),
        ("alias/${oops}", "aws_kms_alias.target_key_arn", "name"),
        (
            "1234abcd-12ab-34cd-56ef-1234567890ab",
            "aws_kms_key.arn",
            "key_id",
        ),
        (
            "mrk-1234abcd12ab34cd56ef1234567890ab",
            "aws_kms_key.arn",
            "key_id",
        ),
        (key_arn, "", ""),
        (
            "arn:aws:kms:eu-west-1:111122223333:alias/store-table",
            "",
            "",
        ),
    ];
    let docs = documented();
    for (key, lookup, argument) in cases {
        let options = TableOptions::default().encryption(Encryption::Kms {
            key: Some(key.into()),
        });
        let tf = Catalog::terraform("catalog", &options).unwrap();
        let doc = tf.document();
        // The text is JSON a `.tf.json` file holds, and reads back as the document.
        assert_eq!(&serde_json::from_str::<Value>(&tf.json()).unwrap(), doc);
        let sse = &doc["resource"]["aws_dynamodb_table"]["catalog"]["server_side_encryption"][0];
        let arn = sse["kms_key_arn"].as_str().unwrap();
        match declared_data(doc, arn) {
            Some((source, named)) => {
                assert_eq!(named, lookup, "{key}: {arn}");
                // The lookup names the key literally (Terraform templates escaped).
                let expect = key.replace("${", "$${");
                assert_eq!(source[argument], expect.as_str(), "{key}");
                let kind = lookup.split('.').next().unwrap();
                check_block(kind, source, &docs, key);
            }
            None => {
                assert!(valid_arn(arn), "{key}: kms_key_arn {arn:?} is no ARN");
                assert_eq!(arn, key);
                assert!(lookup.is_empty() && doc.get("data").is_none(), "{key}");
            }
        }
    }
    // The AWS-managed key: no ARN at all.
    let options = TableOptions::default().encryption(Encryption::Kms { key: None });
    let tf = Catalog::terraform("catalog", &options).unwrap();
    let sse = &tf.document()["resource"]["aws_dynamodb_table"]["catalog"]["server_side_encryption"];
    assert_eq!(sse, &serde_json::json!([{"enabled": true}]));
    // CloudFormation's KMSMasterKeyId takes the alias as it is.
    let options = TableOptions::default().encryption(Encryption::Kms {
        key: Some("alias/store-table".into()),
    });
    let cfn = Catalog::cloudformation("catalog", &options).unwrap();
    let props = &cfn.template()["Resources"][cfn.logical_id()]["Properties"];
    assert_eq!(
        props["SSESpecification"]["KMSMasterKeyId"],
        "alias/store-table"
    );
}

#[test]
fn every_kms_key_arn_of_the_examples_tables_is_an_arn_or_a_lookup() {
    for e in exports() {
        for table in e.terraform["resource"]["aws_dynamodb_table"]
            .as_object()
            .unwrap()
            .values()
        {
            let Some(arn) = table["server_side_encryption"][0]["kms_key_arn"].as_str() else {
                continue;
            };
            assert!(
                valid_arn(arn) || declared_data(&e.terraform, arn).is_some(),
                "{}: kms_key_arn {arn:?}",
                e.name
            );
        }
    }
}

#[test]
fn terraform_writes_names_and_values_literally() {
    let options = TableOptions::default().tag("note", "${var.secret} and %{if x}");
    let tf = Catalog::terraform("catalog", &options).unwrap();
    let tags = &tf.document()["resource"]["aws_dynamodb_table"]["catalog"]["tags"];
    assert_eq!(tags["note"], "$${var.secret} and %%{if x}");
}

#[test]
fn native_multi_attribute_keys_are_exported_in_key_schema_order() {
    let e = exports()
        .into_iter()
        .find(|e| e.name == "native_orders")
        .unwrap();
    let cfn: Value = serde_json::from_str(&e.json).unwrap();
    let props = &cfn["Resources"]["NativeOrdersTable"]["Properties"];
    let gsis = props["GlobalSecondaryIndexes"].as_array().unwrap();
    let multi = gsis
        .iter()
        .find(|g| {
            g["KeySchema"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|k| k["KeyType"] == "HASH")
                .count()
                > 1
        })
        .expect("an index with two partition attributes");
    let types: Vec<&str> = multi["KeySchema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["KeyType"].as_str().unwrap())
        .collect();
    let first_range = types
        .iter()
        .position(|t| *t == "RANGE")
        .unwrap_or(types.len());
    assert!(
        types[first_range..].iter().all(|t| *t == "RANGE"),
        "HASH before RANGE: {types:?}"
    );
    // Every key attribute is defined once, with its type.
    let defs = props["AttributeDefinitions"].as_array().unwrap();
    for k in multi["KeySchema"].as_array().unwrap() {
        let n = defs
            .iter()
            .filter(|d| d["AttributeName"] == k["AttributeName"])
            .count();
        assert_eq!(n, 1, "{k}");
    }
    let tf = &e.terraform["resource"]["aws_dynamodb_table"]["native_orders"];
    let tf_gsi = tf["global_secondary_index"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == multi["IndexName"])
        .unwrap();
    let tf_keys: Vec<(&str, &str)> = tf_gsi["key_schema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["attribute_name"].as_str().unwrap(),
                k["key_type"].as_str().unwrap(),
            )
        })
        .collect();
    let cfn_keys: Vec<(&str, &str)> = multi["KeySchema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["AttributeName"].as_str().unwrap(),
                k["KeyType"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(tf_keys, cfn_keys);
}

#[test]
fn bad_options_and_names_are_refused_with_the_setting() {
    let bad = TableOptions::default().billing(Billing::Provisioned { read: 0, write: 5 });
    let err = Catalog::cloudformation("catalog", &bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("read") && err.contains('0'), "{err}");
    let err = Catalog::terraform("no spaces allowed", &TableOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("no spaces allowed"), "{err}");
    let err = Catalog::cloudformation("ab", &TableOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("3 to 255"), "{err}");
}
