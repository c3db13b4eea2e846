//! What a stack varies, as CloudFormation `Parameters` and Terraform
//! `variable`s whose defaults are the code's values: the table name, the
//! billing numbers (provisioned capacity, or the on-demand maximums),
//! deletion protection and point-in-time recovery (with its window). The
//! table's properties refer to them, so one export serves a staging and a
//! production stack.

use serde_json::{json, Map, Value};

use super::Model;
use crate::table::Billing;

/// One varied setting: its CloudFormation parameter, its Terraform
/// variable, its description and its default.
struct Param {
    cfn: &'static str,
    tf: &'static str,
    about: &'static str,
    default: Setting,
}

/// The code's value of a setting.
enum Setting {
    Name(String),
    Number(u64),
    Switch(bool),
}

/// The settings `m` varies, with the code's values.
fn params(m: &Model) -> Vec<Param> {
    let o = m.options;
    let mut out = vec![Param {
        cfn: "TableName",
        tf: "table_name",
        about: "The table's name",
        default: Setting::Name(m.name.to_owned()),
    }];
    let number = |cfn, tf, about, n| Param {
        cfn,
        tf,
        about,
        default: Setting::Number(n),
    };
    match o.billing {
        Billing::Provisioned { read, write } => {
            let about = "Provisioned read capacity units of the table and each global index";
            out.push(number("ReadCapacityUnits", "read_capacity", about, read));
            let about = "Provisioned write capacity units of the table and each global index";
            out.push(number("WriteCapacityUnits", "write_capacity", about, write));
        }
        Billing::OnDemand {
            max_read,
            max_write,
        } => {
            let about = "On-demand maximum read request units of the table and each global index";
            if let Some(r) = max_read {
                out.push(number(
                    "MaxReadRequestUnits",
                    "max_read_request_units",
                    about,
                    r,
                ));
            }
            let about = "On-demand maximum write request units of the table and each global index";
            if let Some(w) = max_write {
                out.push(number(
                    "MaxWriteRequestUnits",
                    "max_write_request_units",
                    about,
                    w,
                ));
            }
        }
    }
    out.push(Param {
        cfn: "DeletionProtection",
        tf: "deletion_protection_enabled",
        about: "Whether the table refuses DeleteTable",
        default: Setting::Switch(o.deletion_protection),
    });
    out.push(Param {
        cfn: "PointInTimeRecovery",
        tf: "point_in_time_recovery_enabled",
        about: "Whether point-in-time recovery (continuous backups) is on",
        default: Setting::Switch(o.point_in_time_recovery.is_some()),
    });
    if let Some(days) = o
        .point_in_time_recovery
        .and_then(|p| p.recovery_period_days)
    {
        out.push(number(
            "RecoveryPeriodInDays",
            "recovery_period_in_days",
            "Days of point-in-time recovery (1 to 35), while it is on",
            u64::from(days),
        ));
    }
    out
}

/// The properties of the table and of each global index that hold the
/// billing number `cfn`, as (block, key) paths.
const CFN_BILLING: &[(&str, &str, &str)] = &[
    (
        "ReadCapacityUnits",
        "ProvisionedThroughput",
        "ReadCapacityUnits",
    ),
    (
        "WriteCapacityUnits",
        "ProvisionedThroughput",
        "WriteCapacityUnits",
    ),
    (
        "MaxReadRequestUnits",
        "OnDemandThroughput",
        "MaxReadRequestUnits",
    ),
    (
        "MaxWriteRequestUnits",
        "OnDemandThroughput",
        "MaxWriteRequestUnits",
    ),
];

/// Sets `key` of `block` to `to` in the table's properties and every
/// global index's, where the block exists.
fn in_table_and_indexes(props: &mut Value, block: &str, key: &str, to: &Value) {
    let set = |v: &mut Value| {
        if let Some(slot) = v.get_mut(block).and_then(|b| b.get_mut(key)) {
            *slot = to.clone();
        }
    };
    set(props);
    if let Some(gsis) = props
        .get_mut("GlobalSecondaryIndexes")
        .and_then(Value::as_array_mut)
    {
        gsis.iter_mut().for_each(set);
    }
}

/// Adds `Parameters` to the template of table resource `id` and points
/// the table's properties at them.
pub(super) fn cloudformation(template: &mut Value, id: &str, m: &Model) {
    let mut declared = Map::new();
    let props = &mut template["Resources"][id]["Properties"];
    for p in params(m) {
        let reference = json!({ "Ref": p.cfn });
        let mut decl = match &p.default {
            Setting::Name(n) => {
                props["TableName"] = reference;
                json!({"Type": "String", "Default": n, "MinLength": 3, "MaxLength": 255, "AllowedPattern": "^[a-zA-Z0-9_.-]+$"})
            }
            Setting::Number(n) => {
                for (name, block, key) in CFN_BILLING {
                    if *name == p.cfn {
                        in_table_and_indexes(props, block, key, &reference);
                    }
                }
                if p.cfn == "RecoveryPeriodInDays" {
                    props["PointInTimeRecoverySpecification"]["RecoveryPeriodInDays"] = json!({"Fn::If": ["PointInTimeRecoveryOn", reference, {"Ref": "AWS::NoValue"}]});
                    json!({"Type": "Number", "Default": n, "MinValue": 1, "MaxValue": 35})
                } else {
                    json!({"Type": "Number", "Default": n, "MinValue": 1})
                }
            }
            Setting::Switch(on) => {
                if p.cfn == "DeletionProtection" {
                    props["DeletionProtectionEnabled"] = reference;
                } else {
                    props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] =
                        reference;
                }
                json!({"Type": "String", "Default": on.to_string(), "AllowedValues": ["true", "false"]})
            }
        };
        decl["Description"] = json!(p.about);
        declared.insert(p.cfn.into(), decl);
    }
    if declared.contains_key("RecoveryPeriodInDays") {
        template["Conditions"] = json!({
            "PointInTimeRecoveryOn": {"Fn::Equals": [{"Ref": "PointInTimeRecovery"}, "true"]}
        });
    }
    template["Parameters"] = Value::Object(declared);
}

/// Adds `variable`s to the document of table resource `id` and points the
/// table's arguments at them.
pub(super) fn terraform(document: &mut Value, id: &str, m: &Model) {
    let mut declared = Map::new();
    let table = &mut document["resource"]["aws_dynamodb_table"][id];
    for p in params(m) {
        let reference = json!(format!("${{var.{}}}", p.tf));
        let (ty, default) = match &p.default {
            Setting::Name(n) => {
                table["name"] = reference;
                ("string", json!(n))
            }
            Setting::Number(n) => {
                match p.tf {
                    "recovery_period_in_days" => {
                        table["point_in_time_recovery"][0]["recovery_period_in_days"] = json!(
                            "${var.point_in_time_recovery_enabled ? var.recovery_period_in_days : null}"
                        );
                    }
                    tf => {
                        // The table's argument, and each global index's.
                        let block = if tf.starts_with("max_") {
                            "on_demand_throughput"
                        } else {
                            ""
                        };
                        tf_number(table, block, tf, &reference);
                    }
                }
                ("number", json!(n))
            }
            Setting::Switch(on) => {
                if p.tf == "deletion_protection_enabled" {
                    table["deletion_protection_enabled"] = reference;
                } else {
                    if table.get("point_in_time_recovery").is_none() {
                        table["point_in_time_recovery"] = json!([{}]);
                    }
                    table["point_in_time_recovery"][0]["enabled"] = reference;
                }
                ("bool", json!(on))
            }
        };
        declared.insert(
            p.tf.into(),
            json!({"type": ty, "default": default, "description": p.about}),
        );
    }
    document["variable"] = Value::Object(declared);
}

/// Sets argument `arg` (inside `block` when not empty) of the table and
/// of every global index to `to`, where it is written.
fn tf_number(table: &mut Value, block: &str, arg: &str, to: &Value) {
    let set = |v: &mut Value| {
        let at = if block.is_empty() {
            Some(v)
        } else {
            v.get_mut(block).and_then(|b| b.get_mut(0))
        };
        if let Some(slot) = at.and_then(|t| t.get_mut(arg)) {
            *slot = to.clone();
        }
    };
    set(table);
    if let Some(gsis) = table
        .get_mut("global_secondary_index")
        .and_then(Value::as_array_mut)
    {
        gsis.iter_mut().for_each(set);
    }
}
