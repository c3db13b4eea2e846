//! The settings `verify_table` reads back beyond the table's structure:
//! encryption, warm throughput, on-demand maximums and provisioned
//! capacity (table and each global index) from DescribeTable, tags from
//! ListTagsOfResource, the resource policy from GetResourcePolicy. Each
//! comparison is a pure function of what the options say and what
//! DynamoDB answered, so it is tested without a backend; the calls that
//! fetch the answers are in `fetch`.

use std::fmt;

use aws_sdk_dynamodb::types::{
    OnDemandThroughput, ProvisionedThroughputDescription, SseStatus, SseType, TableDescription,
    TableWarmThroughputDescription,
};

use super::report::Difference;
use crate::table::{Billing, Encryption, WarmThroughput};

/// The encryption DescribeTable reports: a KMS key by ARN, or the key AWS
/// owns (no `SSEDescription`, or one that is off).
pub(crate) fn live_encryption(t: &TableDescription) -> Encryption {
    let Some(d) = t.sse_description() else {
        return Encryption::AwsOwned;
    };
    let on = d.status().is_some_and(|s| {
        matches!(
            s,
            SseStatus::Enabled | SseStatus::Enabling | SseStatus::Updating
        )
    });
    let kms = d.sse_type().is_none_or(|t| *t == SseType::Kms);
    if on && kms {
        Encryption::Kms {
            key: d.kms_master_key_arn().map(str::to_owned),
        }
    } else {
        Encryption::AwsOwned
    }
}

/// Whether the options' key names the key DescribeTable reports by ARN: the
/// same ARN, or its key id. `None` when the options name it by alias,
/// which only KMS resolves.
fn same_key(want: &str, arn: &str) -> Option<bool> {
    if want.starts_with("alias/") || want.contains(":alias/") {
        return None;
    }
    Some(want == arn || arn.ends_with(&format!(":key/{want}")))
}

/// Encryption: the difference, and what could not be compared.
pub(crate) fn encryption_difference(
    want: Option<&Encryption>,
    found: Encryption,
) -> (Option<Difference>, Option<String>) {
    let Some(want) = want else {
        return (None, None);
    };
    let differs = |found| {
        Some(Difference::Encryption {
            expected: want.clone(),
            found,
        })
    };
    match (want, &found) {
        (Encryption::AwsOwned, Encryption::AwsOwned) => (None, None),
        (Encryption::Kms { key: None }, Encryption::Kms { .. }) => (None, None),
        (Encryption::Kms { key: Some(k) }, Encryption::Kms { key: live }) => {
            match same_key(k, live.as_deref().unwrap_or_default()) {
                Some(true) => (None, None),
                Some(false) => (differs(found), None),
                None => (
                    None,
                    Some(format!(
                        "encryption key: the options name {k}, DescribeTable reports the key ARN {}; only KMS resolves an alias",
                        live.as_deref().unwrap_or("(none)")
                    )),
                ),
            }
        }
        _ => (differs(found), None),
    }
}

/// Warm throughput below the options' (DynamoDB only raises it, and
/// reports at least its base values).
pub(crate) fn warm_difference(
    want: Option<WarmThroughput>,
    found: Option<&TableWarmThroughputDescription>,
) -> Option<Difference> {
    let want = want?;
    let found = found.and_then(|w| {
        Some(WarmThroughput {
            read_units_per_second: u64::try_from(w.read_units_per_second()?).ok()?,
            write_units_per_second: u64::try_from(w.write_units_per_second()?).ok()?,
        })
    });
    let enough = found.is_some_and(|f| {
        f.read_units_per_second >= want.read_units_per_second
            && f.write_units_per_second >= want.write_units_per_second
    });
    (!enough).then_some(Difference::WarmThroughput {
        expected: want,
        found,
    })
}

/// A maximum as DynamoDB reports it: absent, `-1` or `0` is no maximum.
fn max_units(v: Option<i64>) -> Option<u64> {
    v.and_then(|v| u64::try_from(v).ok()).filter(|v| *v > 0)
}

fn on_demand_of(o: Option<&OnDemandThroughput>) -> (Option<u64>, Option<u64>) {
    (
        max_units(o.and_then(|o| o.max_read_request_units())),
        max_units(o.and_then(|o| o.max_write_request_units())),
    )
}

fn provisioned_of(p: Option<&ProvisionedThroughputDescription>) -> (u64, u64) {
    let units = |v: Option<i64>| v.and_then(|v| u64::try_from(v).ok()).unwrap_or(0);
    (
        units(p.and_then(|p| p.read_capacity_units())),
        units(p.and_then(|p| p.write_capacity_units())),
    )
}

/// The capacity numbers of the table and of each of its global indexes
/// under the options' billing (the billing mode itself is compared
/// elsewhere; numbers of the other mode are not compared), and the
/// maximums DescribeTable does not report at all (a backend that does not
/// hold them: DynamoDB reports `-1` for no maximum).
pub(crate) fn throughput_differences(
    t: &TableDescription,
    billing: Billing,
) -> (Vec<Difference>, Vec<String>) {
    let mut out = Vec::new();
    let mut unchecked = Vec::new();
    let live_mode = t
        .billing_mode_summary()
        .and_then(|b| b.billing_mode())
        .map(|m| m.as_str().to_owned());
    if live_mode.as_deref().is_some_and(|m| m != billing.mode()) {
        return (out, unchecked);
    }
    let gsis = t.global_secondary_indexes();
    let targets = std::iter::once((None, t.on_demand_throughput(), t.provisioned_throughput()))
        .chain(gsis.iter().map(|g| {
            (
                g.index_name().map(str::to_owned),
                g.on_demand_throughput(),
                g.provisioned_throughput(),
            )
        }));
    for (index, od, pt) in targets {
        match billing {
            Billing::OnDemand {
                max_read,
                max_write,
            } => {
                let wants_max = max_read.is_some() || max_write.is_some();
                if od.is_none() && wants_max {
                    unchecked.push(format!(
                        "on-demand maximum of {}: DescribeTable reports none on this backend",
                        target(&index)
                    ));
                    continue;
                }
                let found = on_demand_of(od);
                if found != (max_read, max_write) {
                    out.push(Difference::OnDemandThroughput {
                        index,
                        expected: (max_read, max_write),
                        found,
                    });
                }
            }
            Billing::Provisioned { read, write } => {
                let found = provisioned_of(pt);
                if found != (read, write) {
                    out.push(Difference::ProvisionedThroughput {
                        index,
                        expected: (read, write),
                        found,
                    });
                }
            }
        }
    }
    (out, unchecked)
}

/// Tags: each of the options' tags missing or with another value, and,
/// when the options list tags, each other tag of the table (AWS's own
/// `aws:` tags excepted). Options without tags leave tags unchecked.
pub(crate) fn tag_differences(
    want: &[(String, String)],
    found: &[(String, String)],
) -> Vec<Difference> {
    if want.is_empty() {
        return Vec::new();
    }
    // The last value of a key counts: a key is listed once on DynamoDB,
    // but moto appends a TagResource of a key it has instead of replacing.
    let value = |list: &[(String, String)], k: &str| {
        list.iter()
            .rev()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let mut out: Vec<Difference> = want
        .iter()
        .filter(|(k, v)| value(found, k).as_ref() != Some(v))
        .map(|(k, v)| Difference::Tag {
            key: k.clone(),
            expected: Some(v.clone()),
            found: value(found, k),
        })
        .collect();
    let mut extra: Vec<&String> = Vec::new();
    for (k, _) in found {
        if !k.starts_with("aws:") && value(want, k).is_none() && !extra.contains(&k) {
            extra.push(k);
        }
    }
    out.extend(extra.into_iter().map(|k| Difference::Tag {
        key: k.clone(),
        expected: None,
        found: value(found, k),
    }));
    out
}

/// The resource policy, compared as JSON.
pub(crate) fn policy_difference(want: Option<&str>, found: Option<&str>) -> Option<Difference> {
    let want = want?;
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).ok();
    let same = found.is_some_and(|f| parse(f).is_some() && parse(f) == parse(want));
    (!same).then(|| Difference::ResourcePolicy {
        found: found.map(str::to_owned),
    })
}

fn units_text(v: Option<u64>) -> String {
    v.map_or("no maximum".into(), |v| v.to_string())
}

fn encryption_text(e: &Encryption) -> String {
    match e {
        Encryption::AwsOwned => "a key AWS owns".into(),
        Encryption::Kms { key: None } => "KMS (the AWS-managed key)".into(),
        Encryption::Kms { key: Some(k) } => format!("KMS key {k}"),
    }
}

fn target(index: &Option<String>) -> String {
    index
        .as_ref()
        .map_or("the table".into(), |i| format!("global index {i}"))
}

/// The text of the differences this module finds (without the remedy,
/// which the report adds).
pub(super) fn describe(d: &Difference, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match d {
        Difference::Encryption { expected, found } => write!(
            f,
            "encryption at rest uses {}, the options say {}",
            encryption_text(found),
            encryption_text(expected)
        ),
        Difference::Tag {
            key,
            expected: Some(v),
            found: None,
        } => write!(f, "tag {key} is missing, the options say {v:?}"),
        Difference::Tag {
            key,
            expected: Some(v),
            found: Some(live),
        } => write!(f, "tag {key} is {live:?}, the options say {v:?}"),
        Difference::Tag {
            key,
            expected: None,
            found,
        } => write!(
            f,
            "tag {key} = {:?} is on the table, the options' tags do not have it",
            found.as_deref().unwrap_or_default()
        ),
        Difference::ResourcePolicy { found: None } => {
            write!(f, "the resource policy is missing, the options have one")
        }
        Difference::ResourcePolicy { found: Some(_) } => write!(
            f,
            "the resource policy is another document than the options'"
        ),
        Difference::WarmThroughput { expected, found } => write!(
            f,
            "warm throughput is {}, the options ask for {} reads and {} writes per second",
            found.map_or("not reported".into(), |w| format!(
                "{} reads and {} writes per second",
                w.read_units_per_second, w.write_units_per_second
            )),
            expected.read_units_per_second,
            expected.write_units_per_second
        ),
        Difference::OnDemandThroughput {
            index,
            expected,
            found,
        } => write!(
            f,
            "on-demand maximum of {} is {} reads / {} writes, the options say {} / {}",
            target(index),
            units_text(found.0),
            units_text(found.1),
            units_text(expected.0),
            units_text(expected.1)
        ),
        Difference::ProvisionedThroughput {
            index,
            expected,
            found,
        } => write!(
            f,
            "provisioned capacity of {} is {} reads / {} writes, the options say {} / {}",
            target(index),
            found.0,
            found.1,
            expected.0,
            expected.1
        ),
        other => write!(f, "{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::{
        BillingMode, BillingModeSummary, GlobalSecondaryIndexDescription, SseDescription,
    };

    const KEY: &str = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";

    fn sse(status: SseStatus, key: Option<&str>) -> TableDescription {
        TableDescription::builder()
            .sse_description(
                SseDescription::builder()
                    .status(status)
                    .sse_type(SseType::Kms)
                    .set_kms_master_key_arn(key.map(str::to_owned))
                    .build(),
            )
            .build()
    }

    #[test]
    fn encryption_is_compared_by_type_and_key() {
        let kms = |k: Option<&str>| Encryption::Kms {
            key: k.map(str::to_owned),
        };
        let on = live_encryption(&sse(SseStatus::Enabled, Some(KEY)));
        assert_eq!(on, kms(Some(KEY)));
        assert_eq!(
            live_encryption(&sse(SseStatus::Disabled, Some(KEY))),
            Encryption::AwsOwned
        );
        assert_eq!(
            live_encryption(&TableDescription::builder().build()),
            Encryption::AwsOwned
        );
        // Removed encryption, another key, the key by id, by alias.
        let (d, _) = encryption_difference(Some(&kms(Some(KEY))), Encryption::AwsOwned);
        assert!(d
            .unwrap()
            .to_string()
            .starts_with("encryption at rest uses a key AWS owns, the options say KMS key"));
        let other = KEY.replace("1234abcd", "9999abcd");
        assert!(encryption_difference(Some(&kms(Some(&other))), on.clone())
            .0
            .is_some());
        let id = "1234abcd-12ab-34cd-56ef-1234567890ab";
        assert_eq!(
            encryption_difference(Some(&kms(Some(id))), on.clone()),
            (None, None)
        );
        let (d, note) = encryption_difference(Some(&kms(Some("alias/orders"))), on.clone());
        assert!(d.is_none() && note.unwrap().contains("alias/orders"));
        assert_eq!(
            encryption_difference(Some(&kms(None)), on.clone()),
            (None, None)
        );
        assert!(
            encryption_difference(Some(&Encryption::AwsOwned), on.clone())
                .0
                .is_some()
        );
        assert_eq!(encryption_difference(None, on), (None, None));
    }

    #[test]
    fn warm_throughput_below_the_options_is_reported() {
        let want = WarmThroughput {
            read_units_per_second: 15_000,
            write_units_per_second: 5_000,
        };
        let live = |r, w| {
            TableWarmThroughputDescription::builder()
                .read_units_per_second(r)
                .write_units_per_second(w)
                .build()
        };
        assert!(warm_difference(Some(want), Some(&live(15_000, 5_000))).is_none());
        assert!(warm_difference(Some(want), Some(&live(20_000, 9_000))).is_none());
        let d = warm_difference(Some(want), Some(&live(12_000, 4_000))).unwrap();
        assert_eq!(d.to_string(), "warm throughput is 12000 reads and 4000 writes per second, the options ask for 15000 reads and 5000 writes per second: db.sync_table_with(.., &options) fixes it");
        assert!(warm_difference(Some(want), None).is_some());
        assert!(warm_difference(None, None).is_none());
    }

    fn on_demand(r: i64, w: i64) -> OnDemandThroughput {
        OnDemandThroughput::builder()
            .max_read_request_units(r)
            .max_write_request_units(w)
            .build()
    }

    #[test]
    fn capacity_numbers_of_the_table_and_each_index() {
        let gsi = |name: &str, od: OnDemandThroughput| {
            GlobalSecondaryIndexDescription::builder()
                .index_name(name)
                .on_demand_throughput(od)
                .build()
        };
        let t = TableDescription::builder()
            .billing_mode_summary(
                BillingModeSummary::builder()
                    .billing_mode(BillingMode::PayPerRequest)
                    .build(),
            )
            .on_demand_throughput(on_demand(100, -1))
            .global_secondary_indexes(gsi("GSI1", on_demand(100, 50)))
            .global_secondary_indexes(gsi("GSI2", on_demand(-1, -1)))
            .build();
        let want = Billing::OnDemand {
            max_read: Some(100),
            max_write: Some(50),
        };
        let (d, unchecked) = throughput_differences(&t, want);
        assert!(unchecked.is_empty());
        assert_eq!(
            d,
            [
                Difference::OnDemandThroughput {
                    index: None,
                    expected: (Some(100), Some(50)),
                    found: (Some(100), None)
                },
                Difference::OnDemandThroughput {
                    index: Some("GSI2".into()),
                    expected: (Some(100), Some(50)),
                    found: (None, None)
                },
            ]
        );
        assert_eq!(d[1].to_string(), "on-demand maximum of global index GSI2 is no maximum reads / no maximum writes, the options say 100 / 50: db.sync_table_with(.., &options) fixes it");
        // Another mode: the billing mode line says it; numbers are not compared.
        assert_eq!(
            throughput_differences(&t, Billing::Provisioned { read: 5, write: 5 }),
            (vec![], vec![])
        );
        let p = TableDescription::builder()
            .billing_mode_summary(
                BillingModeSummary::builder()
                    .billing_mode(BillingMode::Provisioned)
                    .build(),
            )
            .provisioned_throughput(
                ProvisionedThroughputDescription::builder()
                    .read_capacity_units(5)
                    .write_capacity_units(2)
                    .build(),
            )
            .build();
        let (d, _) = throughput_differences(&p, Billing::Provisioned { read: 5, write: 5 });
        assert_eq!(
            d,
            [Difference::ProvisionedThroughput {
                index: None,
                expected: (5, 5),
                found: (5, 2)
            }]
        );
        // A backend that reports no maximum at all: said, not guessed.
        let bare = TableDescription::builder().build();
        let (d, unchecked) = throughput_differences(&bare, want);
        assert!(d.is_empty());
        assert_eq!(
            unchecked,
            ["on-demand maximum of the table: DescribeTable reports none on this backend"]
        );
    }

    #[test]
    fn tags_missing_changed_and_extra_each_on_a_line() {
        let t = |k: &str, v: &str| (k.to_owned(), v.to_owned());
        let want = [t("team", "orders"), t("env", "prod")];
        let found = [
            t("team", "billing"),
            t("owner", "ann"),
            t("aws:cloudformation:stack-name", "s"),
        ];
        let d = tag_differences(&want, &found);
        let lines: Vec<String> = d.iter().map(ToString::to_string).collect();
        assert_eq!(lines, [
            "tag team is \"billing\", the options say \"orders\": db.sync_table_with(.., &options) fixes it",
            "tag env is missing, the options say \"prod\": db.sync_table_with(.., &options) fixes it",
            "tag owner = \"ann\" is on the table, the options' tags do not have it: db.sync_table_with(.., &options) fixes it",
        ]);
        assert!(tag_differences(&[], &found).is_empty());
        assert!(tag_differences(&want, &[t("env", "prod"), t("team", "orders")]).is_empty());
    }

    #[test]
    fn the_policy_is_compared_as_json() {
        let p = r#"{"Version":"2012-10-17","Statement":[]}"#;
        let spaced = r#"{ "Statement": [], "Version": "2012-10-17" }"#;
        assert!(policy_difference(Some(p), Some(spaced)).is_none());
        assert_eq!(
            policy_difference(Some(p), None),
            Some(Difference::ResourcePolicy { found: None })
        );
        assert!(policy_difference(Some(p), Some(r#"{"Version":"2012-10-17"}"#)).is_some());
        assert!(policy_difference(None, Some(p)).is_none());
    }
}
