//! `verify_table_with` reads back every setting the options hold
//! (encryption and its key, tags, the resource policy, warm throughput,
//! on-demand maximums, provisioned capacity of the table and each index,
//! table class), reports each one changed on a deployed table on its own
//! line, and `sync_table_with` changes it back.
//!
//! Which backend holds which setting is found by a probe (set it with the
//! SDK, read it back), not assumed: a setting the backend does not hold is
//! skipped here, and the comparison itself is unit-tested in the runtime
//! (`table::verify::live`) without a backend.

use aws_sdk_dynamodb::types::{
    GlobalSecondaryIndexUpdate, OnDemandThroughput, ProvisionedThroughput, SseSpecification,
    TableDescription, Tag, UpdateGlobalSecondaryIndexAction,
};
use dynakey::local::{self, Backend};
use dynakey::table::verify::{Difference, Remedy, TableReport};
use dynakey::table::{Billing, Encryption, TableClass, TableOptions, WarmThroughput};
use dynakey::{Db, Entity};
use dynakey_tests::notes::Note;

const KEY: &str = "arn:aws:kms:us-east-1:000000000000:key/0f1e2d3c-aaaa-bbbb-cccc-000000000001";
const POLICY: &str = r#"{"Version":"2012-10-17","Statement":[{"Sid":"DenyOutsideTls","Effect":"Deny","Principal":"*","Action":"dynamodb:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}"#;

fn fresh(local: &Backend) -> Db {
    local.db(format!("settings_{}", uuid::Uuid::new_v4().simple()))
}

fn wanted() -> TableOptions {
    TableOptions::default()
        .billing(Billing::OnDemand {
            max_read: Some(4_000),
            max_write: Some(1_000),
        })
        .warm_throughput(WarmThroughput {
            read_units_per_second: 13_000,
            write_units_per_second: 4_500,
        })
        .table_class(TableClass::StandardInfrequentAccess)
        .encryption(Encryption::Kms {
            key: Some(KEY.into()),
        })
        .tag("team", "notes")
        .tag("env", "prod")
        .resource_policy(POLICY)
}

/// The settings of this test, by the name a report line is counted under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Setting {
    Encryption,
    Class,
    Warm,
    OnDemandTable,
    OnDemandIndex,
    Tags,
    Policy,
}

const ALL: [Setting; 7] = [
    Setting::Encryption,
    Setting::Class,
    Setting::Warm,
    Setting::OnDemandTable,
    Setting::OnDemandIndex,
    Setting::Tags,
    Setting::Policy,
];

fn setting_of(d: &Difference) -> Option<Setting> {
    Some(match d {
        Difference::Encryption { .. } => Setting::Encryption,
        Difference::TableClass { .. } => Setting::Class,
        Difference::WarmThroughput { .. } => Setting::Warm,
        Difference::OnDemandThroughput { index: None, .. } => Setting::OnDemandTable,
        Difference::OnDemandThroughput { .. } => Setting::OnDemandIndex,
        Difference::Tag { .. } => Setting::Tags,
        Difference::ResourcePolicy { .. } => Setting::Policy,
        _ => return None,
    })
}

fn count(r: &TableReport, s: Setting) -> usize {
    r.differences
        .iter()
        .filter(|d| setting_of(d) == Some(s))
        .count()
}

/// What the backend reports of each setting, read with the SDK alone.
#[derive(Debug, Default)]
struct Live {
    sse_key: Option<String>,
    class: Option<String>,
    warm: Option<(i64, i64)>,
    on_demand: Option<(i64, i64)>,
    gsi_on_demand: Option<(i64, i64)>,
    tags: Vec<(String, String)>,
    policy: Option<String>,
}

/// The table as DescribeTable shows it.
async fn describe(db: &Db) -> TableDescription {
    let out = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await;
    out.unwrap().table.unwrap()
}

async fn read(db: &Db) -> Live {
    let c = db.client();
    let t = describe(db).await;
    let od = |o: Option<&OnDemandThroughput>| {
        o.map(|o| {
            (
                o.max_read_request_units().unwrap_or(-1),
                o.max_write_request_units().unwrap_or(-1),
            )
        })
    };
    let arn = t.table_arn().unwrap().to_owned();
    let tags = c.list_tags_of_resource().resource_arn(&arn).send().await;
    let policy = c.get_resource_policy().resource_arn(&arn).send().await;
    Live {
        sse_key: t
            .sse_description()
            .filter(|s| s.status().is_some_and(|s| s.as_str() == "ENABLED"))
            .and_then(|s| s.kms_master_key_arn().map(str::to_owned)),
        class: t
            .table_class_summary()
            .and_then(|c| c.table_class())
            .map(|c| c.as_str().to_owned()),
        warm: t.warm_throughput().map(|w| {
            (
                w.read_units_per_second().unwrap_or(0),
                w.write_units_per_second().unwrap_or(0),
            )
        }),
        on_demand: od(t.on_demand_throughput()),
        gsi_on_demand: od(t.global_secondary_indexes()[0].on_demand_throughput()),
        tags: tags.map_or(Vec::new(), |o| {
            o.tags()
                .iter()
                .map(|t| (t.key().to_owned(), t.value().to_owned()))
                .collect()
        }),
        policy: policy.ok().and_then(|p| p.policy().map(str::to_owned)),
    }
}

/// Whether the live table holds `s` as `wanted()` (with `warm` asked) says.
fn holds(l: &Live, s: Setting, warm: (i64, i64)) -> bool {
    // The last value of a key counts (moto appends a re-tagged key).
    let tag = |k: &str| {
        l.tags
            .iter()
            .rev()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.as_str())
    };
    let keys: std::collections::BTreeSet<&str> = l.tags.iter().map(|(k, _)| k.as_str()).collect();
    match s {
        Setting::Encryption => l.sse_key.as_deref() == Some(KEY),
        Setting::Class => l.class.as_deref() == Some("STANDARD_INFREQUENT_ACCESS"),
        Setting::Warm => l.warm.is_some_and(|(r, w)| r >= warm.0 && w >= warm.1),
        Setting::OnDemandTable => l.on_demand == Some((4_000, 1_000)),
        Setting::OnDemandIndex => l.gsi_on_demand == Some((4_000, 1_000)),
        Setting::Tags => {
            tag("team") == Some("notes") && tag("env") == Some("prod") && keys.len() == 2
        }
        Setting::Policy => l.policy.is_some(),
    }
}

async fn table_arn(db: &Db) -> String {
    describe(db).await.table_arn.unwrap()
}

/// Changes every setting on the live table with the SDK (errors ignored:
/// a backend without the call simply keeps the setting), as someone
/// editing the deployed table would.
async fn tamper(db: &Db) {
    let c = db.client();
    let name = db.table_name();
    let arn = table_arn(db).await;
    let _ = c
        .update_table()
        .table_name(name)
        .sse_specification(SseSpecification::builder().enabled(false).build())
        .send()
        .await;
    let _ = c
        .update_table()
        .table_name(name)
        .table_class("STANDARD".into())
        .send()
        .await;
    let od = OnDemandThroughput::builder()
        .max_read_request_units(100)
        .max_write_request_units(100)
        .build();
    let gsi = UpdateGlobalSecondaryIndexAction::builder()
        .index_name("GSI1")
        .on_demand_throughput(od.clone())
        .build()
        .unwrap();
    let _ = c
        .update_table()
        .table_name(name)
        .on_demand_throughput(od)
        .send()
        .await;
    let _ = c
        .update_table()
        .table_name(name)
        .global_secondary_index_updates(GlobalSecondaryIndexUpdate::builder().update(gsi).build())
        .send()
        .await;
    let tag = |k: &str, v: &str| Tag::builder().key(k).value(v).build().unwrap();
    let _ = c
        .untag_resource()
        .resource_arn(&arn)
        .tag_keys("env")
        .send()
        .await;
    let _ = c
        .tag_resource()
        .resource_arn(&arn)
        .tags(tag("team", "billing"))
        .tags(tag("owner", "ann"))
        .send()
        .await;
    let _ = c.delete_resource_policy().resource_arn(&arn).send().await;
}

#[tokio::test]
async fn each_setting_changed_on_the_live_table_is_a_line_and_sync_table_with_restores_it() {
    let local = local::from_env().unwrap();
    let db = fresh(&local);
    let entities = [Note::META];
    let options = wanted();
    db.create_table_with(&entities, options.clone())
        .await
        .unwrap();

    // moto drops a CreateTable's ResourcePolicy but keeps one put after:
    // the setting is set with the SDK where CreateTable did not keep it.
    let arn = table_arn(&db).await;
    if read(&db).await.policy.is_none() {
        let put = db
            .client()
            .put_resource_policy()
            .resource_arn(&arn)
            .policy(POLICY);
        let _ = put.send().await;
    }
    // Probe: which settings this backend holds.
    let warm = (13_000, 4_500);
    let created = read(&db).await;
    let held: Vec<Setting> = ALL
        .into_iter()
        .filter(|s| holds(&created, *s, warm))
        .collect();
    eprintln!("held after CreateTable: {held:?} of {ALL:?}\n{created:?}");
    let report = db.verify_table_with(&entities, &options).await.unwrap();
    for s in &held {
        assert_eq!(count(&report, *s), 0, "{s:?} held, yet: {report}");
    }

    // The deployed table edited by hand; warm throughput only rises, so
    // the options ask for more instead.
    tamper(&db).await;
    let edited = read(&db).await;
    let more = WarmThroughput {
        read_units_per_second: 20_000,
        write_units_per_second: 6_000,
    };
    let options = options.warm_throughput(more);
    let changed: Vec<Setting> = held
        .iter()
        .copied()
        .filter(|s| !holds(&edited, *s, (20_000, 6_000)))
        .collect();
    eprintln!("changed by the SDK: {changed:?}\n{edited:?}");
    let report = db.verify_table_with(&entities, &options).await.unwrap();
    let lines = |s| match s {
        Setting::Tags => 3, // team changed, env missing, owner extra
        _ => 1,
    };
    for s in &changed {
        assert_eq!(count(&report, *s), lines(*s), "{s:?}: {report}");
    }
    for d in report
        .differences
        .iter()
        .filter(|d| setting_of(d).is_some())
    {
        assert_eq!(d.remedy(), Remedy::SyncTableWith, "{d}");
        assert!(!d.breaks_code(), "{d}");
    }
    // One line per difference, each with its remedy.
    let text = report.to_string();
    let fixable = text
        .matches("db.sync_table_with(.., &options) fixes it")
        .count();
    let expected: usize = changed.iter().map(|s| lines(*s)).sum();
    assert!(fixable >= expected, "{text}");
    assert!(
        text.contains("tag env is missing, the options say \"prod\""),
        "{text}"
    );

    let done = db.sync_table_with(&entities, &options).await.unwrap();
    eprintln!("sync_table_with: {done:?}");
    let after = db.verify_table_with(&entities, &options).await.unwrap();
    for s in &changed {
        assert_eq!(
            count(&after, *s),
            0,
            "{s:?} not restored: {after}\n{done:?}"
        );
        assert!(
            done.applied.iter().any(|d| setting_of(d) == Some(*s)),
            "{s:?}"
        );
    }
    // What was not applied is what still differs, each with why.
    let left: Vec<&Difference> = done.not_applied.iter().map(|(d, _)| d).collect();
    for d in &after.differences {
        assert!(
            left.contains(&d),
            "{d} still differs but is not in not_applied"
        );
    }
    for (_, why) in &done.not_applied {
        assert!(!why.is_empty());
    }
}

#[tokio::test]
async fn provisioned_capacity_of_the_table_and_each_index_is_read_back() {
    let local = local::from_env().unwrap();
    let db = fresh(&local);
    let entities = [Note::META];
    let options = TableOptions::default().billing(Billing::Provisioned {
        read: 25,
        write: 10,
    });
    db.create_table_with(&entities, options.clone())
        .await
        .unwrap();
    assert!(db
        .verify_table_with(&entities, &options)
        .await
        .unwrap()
        .matches());

    // The table's units and GSI1's, each changed by its own UpdateTable,
    // each expected only where the backend kept the change.
    let pt = ProvisionedThroughput::builder()
        .read_capacity_units(5)
        .write_capacity_units(5)
        .build()
        .unwrap();
    let gsi = UpdateGlobalSecondaryIndexAction::builder()
        .index_name("GSI1")
        .provisioned_throughput(pt.clone())
        .build()
        .unwrap();
    let update = || db.client().update_table().table_name(db.table_name());
    update().provisioned_throughput(pt).send().await.unwrap();
    let _ = update()
        .global_secondary_index_updates(GlobalSecondaryIndexUpdate::builder().update(gsi).build())
        .send()
        .await;
    let t = describe(&db).await;
    let units = |p: Option<&aws_sdk_dynamodb::types::ProvisionedThroughputDescription>| {
        p.map(|p| (p.read_capacity_units(), p.write_capacity_units()))
    };
    assert_eq!(units(t.provisioned_throughput()), Some((Some(5), Some(5))));
    let gsi_kept =
        units(t.global_secondary_indexes()[0].provisioned_throughput()) == Some((Some(5), Some(5)));
    if !gsi_kept {
        eprintln!("GSI1's units: the backend does not keep an index's UpdateTable of them");
    }
    let mut expected = vec![Difference::ProvisionedThroughput {
        index: None,
        expected: (25, 10),
        found: (5, 5),
    }];
    if gsi_kept {
        expected.push(Difference::ProvisionedThroughput {
            index: Some("GSI1".into()),
            expected: (25, 10),
            found: (5, 5),
        });
    }
    let report = db.verify_table_with(&entities, &options).await.unwrap();
    assert_eq!(report.differences, expected, "{report}");
    let text = report.to_string();
    assert!(
        text.contains(
            "provisioned capacity of the table is 5 reads / 5 writes, the options say 25 / 10"
        ),
        "{text}"
    );
    if gsi_kept {
        assert!(text.contains("provisioned capacity of global index GSI1 is 5 reads / 5 writes, the options say 25 / 10"), "{text}");
    }
    let done = db.sync_table_with(&entities, &options).await.unwrap();
    assert_eq!(done.applied, expected, "{done:?}");
    assert!(db
        .verify_table_with(&entities, &options)
        .await
        .unwrap()
        .matches());
}

/// Encryption cannot be changed on a live table on either emulator
/// (both ignore UpdateTable's SSESpecification), so a table made without
/// it, and one with another key, stand for a deployed table whose
/// encryption was removed or re-keyed.
#[tokio::test]
async fn encryption_removed_or_on_another_key_is_reported() {
    let local = local::from_env().unwrap();
    let entities = [Note::META];
    let kms = |k: &str| {
        TableOptions::default().encryption(Encryption::Kms {
            key: Some(k.into()),
        })
    };
    let plain = fresh(&local);
    plain
        .create_table_with(&entities, TableOptions::default())
        .await
        .unwrap();
    let report = plain.verify_table_with(&entities, &kms(KEY)).await.unwrap();
    assert_eq!(
        report.differences,
        [Difference::Encryption {
            expected: Encryption::Kms {
                key: Some(KEY.into())
            },
            found: Encryption::AwsOwned
        }],
        "{report}"
    );
    assert!(report.to_string().contains(&format!(
        "encryption at rest uses a key AWS owns, the options say KMS key {KEY}: db.sync_table_with(.., &options) fixes it"
    )));

    let keyed = fresh(&local);
    keyed.create_table_with(&entities, kms(KEY)).await.unwrap();
    if read(&keyed).await.sse_key.as_deref() != Some(KEY) {
        eprintln!("skipped: this backend does not report the KMS key it was given");
        return;
    }
    assert!(keyed
        .verify_table_with(&entities, &kms(KEY))
        .await
        .unwrap()
        .matches());
    // By key id, the same key; another key differs; an alias is not guessed.
    let id = KEY.rsplit('/').next().unwrap();
    assert!(keyed
        .verify_table_with(&entities, &kms(id))
        .await
        .unwrap()
        .matches());
    let other = KEY.replace("000000000001", "000000000002");
    let report = keyed
        .verify_table_with(&entities, &kms(&other))
        .await
        .unwrap();
    assert_eq!(report.differences.len(), 1, "{report}");
    let report = keyed
        .verify_table_with(&entities, &kms("alias/notes"))
        .await
        .unwrap();
    assert!(report.matches(), "{report}");
    assert!(report.unchecked[0].contains("alias/notes"), "{report}");
    // The AWS-managed key: any KMS key is it, as far as DescribeTable says.
    let managed = TableOptions::default().encryption(Encryption::Kms { key: None });
    assert!(keyed
        .verify_table_with(&entities, &managed)
        .await
        .unwrap()
        .matches());
    let owned = TableOptions::default().encryption(Encryption::AwsOwned);
    assert_eq!(
        keyed
            .verify_table_with(&entities, &owned)
            .await
            .unwrap()
            .differences
            .len(),
        1
    );
}
