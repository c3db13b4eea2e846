//! `db.verify_table(..)` against tables made wrong on purpose (raw
//! CreateTable requests), on the embedded engine and on the server
//! `DYNAKEY_ENDPOINT` names; and the tables `create_table_with` makes from
//! the examples' options, which match their code.
//!
//! Backend limits, tested around rather than faked: dynoxide has no
//! DescribeContinuousBackups (nor UpdateContinuousBackups), so recovery
//! is reported as not checked there; moto answers both.

use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
};
use dynakey::changes::StreamView;
use dynakey::local::{self, Backend};
use dynakey::table::verify::{Difference, LiveProjection, LiveTtl, Remedy};
use dynakey::table::TableClass;
use dynakey::{Db, Entity};
use dynakey_examples::documented::{DocProject, DocTable, DocTask};
use dynakey_examples::infra::{self, Catalog, CatalogProduct};
use dynakey_examples::task_counts::TaskCountsTable;

use super::on_server;

fn fresh(local: &Backend) -> Db {
    local.db(format!("verify_{}", uuid::Uuid::new_v4().simple()))
}

fn key(a: &str, t: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(a)
        .key_type(t)
        .build()
        .unwrap()
}

fn attr(a: &str, t: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(a)
        .attribute_type(t)
        .build()
        .unwrap()
}

fn projection(t: ProjectionType, include: &[&str]) -> Projection {
    let b = Projection::builder().projection_type(t);
    if include.is_empty() {
        b.build()
    } else {
        b.set_non_key_attributes(Some(include.iter().map(|s| s.to_string()).collect()))
            .build()
    }
}

fn gsi(name: &str, keys: Vec<KeySchemaElement>, p: Projection) -> GlobalSecondaryIndex {
    GlobalSecondaryIndex::builder()
        .index_name(name)
        .set_key_schema(Some(keys))
        .projection(p)
        .build()
        .unwrap()
}

/// A CreateTable of `db`'s table, on demand, keyed `pk` and `sk`
/// (both strings): the start of each table made wrong on purpose.
fn keyed(db: &Db, sk: &str) -> CreateTableFluentBuilder {
    db.client()
        .create_table()
        .table_name(db.table_name())
        .billing_mode(BillingMode::PayPerRequest)
        .key_schema(key("pk", KeyType::Hash))
        .key_schema(key(sk, KeyType::Range))
        .attribute_definitions(attr("pk", ScalarAttributeType::S))
        .attribute_definitions(attr(sk, ScalarAttributeType::S))
}

fn index_attrs(meta: &dynakey::EntityMeta, ix: &str) -> (String, String) {
    let m = meta.index(ix).unwrap();
    let pk = m.pk_attrs().next().unwrap().0.to_owned();
    let sk = m.sk_attrs().next().unwrap().0.to_owned();
    (pk, sk)
}

#[tokio::test]
async fn the_tables_create_table_with_makes_from_the_examples_options_match_their_code() {
    let local = local::from_env().unwrap();
    for name in [
        "catalog",
        "task-counts",
        "documented",
        "native_orders",
        "native_keys",
        "shop",
        "shop-provisioned",
    ] {
        let t = infra::find(name).unwrap();
        let db = fresh(&local);
        db.create_table_with(&t.entities, t.options.clone())
            .await
            .unwrap();
        let report = db.verify_table_with(&t.entities, &t.options).await.unwrap();
        let class = t.options.table_class.filter(|c| *c != TableClass::Standard);
        if on_server() && class.is_some() {
            // moto drops TableClass on CreateTable (no TableClassSummary,
            // which is STANDARD): the one difference there.
            assert!(
                matches!(report.differences.as_slice(), [Difference::TableClass { found, .. }] if found == "STANDARD"),
                "{name}: {report}"
            );
        } else {
            assert!(report.matches(), "{name}: {report}");
        }
        let pitr_unchecked = report.unchecked.iter().any(|u| u.contains("point-in-time"));
        let asks_pitr = t.options.point_in_time_recovery.is_some();
        // dynoxide has no backups: said so, not guessed; moto answers.
        assert_eq!(
            pitr_unchecked,
            asks_pitr && !on_server(),
            "{name}: {report}"
        );
    }
}

#[tokio::test]
async fn a_wrong_catalog_table_reports_each_difference_and_sync_table_fixes_only_its_own() {
    let local = local::from_env().unwrap();
    let db = fresh(&local);
    let meta = CatalogProduct::META;
    let (title_pk, title_sk) = index_attrs(meta, "ByTitle");
    // ByCategory missing; ByTitle keys-only with its sort key a number; an
    // index no entity declares.
    keyed(&db, "sk")
        .attribute_definitions(attr(&title_pk, ScalarAttributeType::S))
        .attribute_definitions(attr(&title_sk, ScalarAttributeType::N))
        .attribute_definitions(attr("legacy", ScalarAttributeType::S))
        .global_secondary_indexes(gsi(
            "ByTitle",
            vec![
                key(&title_pk, KeyType::Hash),
                key(&title_sk, KeyType::Range),
            ],
            projection(ProjectionType::KeysOnly, &[]),
        ))
        .global_secondary_indexes(gsi(
            "Legacy",
            vec![key("legacy", KeyType::Hash)],
            projection(ProjectionType::All, &[]),
        ))
        .send()
        .await
        .unwrap();
    let report = db.verify_table(Catalog::ENTITIES).await.unwrap();
    let d = &report.differences;
    assert!(
        d.contains(&Difference::AttributeType {
            attribute: title_sk.clone(),
            expected: dynakey::KeyAttrType::S,
            found: "N".into()
        }),
        "{report}"
    );
    assert!(
        d.iter()
            .any(|x| matches!(x, Difference::MissingIndex { index, .. } if index == "ByCategory")),
        "{report}"
    );
    let narrow = d.iter().find_map(|x| match x {
        Difference::NarrowProjection {
            index,
            found,
            missing,
            ..
        } if index == "ByTitle" => Some((found, missing)),
        _ => None,
    });
    let (found, missing) = narrow.unwrap_or_else(|| panic!("{report}"));
    assert_eq!(*found, LiveProjection::KeysOnly);
    for a in [meta.discriminator_attr, "title", "price"] {
        assert!(missing.iter().any(|m| m == a), "{a} in {missing:?}");
    }
    assert!(
        d.iter()
            .any(|x| matches!(x, Difference::ExtraIndex { index, .. } if index == "Legacy")),
        "{report}"
    );
    assert!(!report.is_ok());
    let fixes: Vec<_> = report.fixed_by_sync_table().cloned().collect();
    assert_eq!(fixes.len(), 1, "{report}");
    assert!(matches!(&fixes[0], Difference::MissingIndex { index, .. } if index == "ByCategory"));
    assert!(
        report.to_string().contains("db.sync_table(..) fixes it"),
        "{report}"
    );

    // sync_table fixes what the report says it fixes, and nothing else.
    assert_eq!(
        db.sync_table(Catalog::ENTITIES).await.unwrap(),
        ["ByCategory"]
    );
    let after = db.verify_table(Catalog::ENTITIES).await.unwrap();
    assert_eq!(after.fixed_by_sync_table().count(), 0, "{after}");
    let mut rest: Vec<_> = report
        .differences
        .iter()
        .filter(|x| !x.fixed_by_sync_table())
        .cloned()
        .collect();
    if on_server() {
        // moto replaces a table's AttributeDefinitions with those of an
        // UpdateTable (DynamoDB merges them), so the number definition of
        // ByTitle's sort key is gone there after sync_table.
        rest.retain(|x| !matches!(x, Difference::AttributeType { .. }));
    }
    assert_eq!(after.differences, rest, "{after}");
}

#[tokio::test]
async fn ttl_on_another_attribute_and_no_stream_while_the_code_consumes_changes() {
    let local = local::from_env().unwrap();
    let db = fresh(&local);
    let entities = TaskCountsTable::ENTITIES;
    // The table key only: no index, no stream, and TTL on an attribute
    // the code does not expire by.
    keyed(&db, "sk").send().await.unwrap();
    db.client()
        .update_time_to_live()
        .table_name(db.table_name())
        .time_to_live_specification(
            TimeToLiveSpecification::builder()
                .attribute_name("purge_at")
                .enabled(true)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    let report = db
        .verify_table_with(entities, &TaskCountsTable::options())
        .await
        .unwrap();
    let ttl_attr = entities.iter().find_map(|m| m.ttl_attr).unwrap();
    assert!(
        report.differences.contains(&Difference::Ttl {
            expected: ttl_attr.into(),
            found: LiveTtl::On("purge_at".into())
        }),
        "{report}"
    );
    let stream = Difference::Stream {
        expected: StreamView::NewAndOldImages,
        found: None,
    };
    assert!(report.differences.contains(&stream), "{report}");
    assert_eq!(stream.remedy(), Remedy::CreateTableWith);
    // The index is missing too (create_table was not used): sync_table's.
    assert!(report
        .differences
        .iter()
        .any(|d| matches!(d, Difference::MissingIndex { index, .. } if index == "GSI1")));
    // Without the stream in the options, the code consumes no changes.
    let quiet = db.verify_table(entities).await.unwrap();
    assert!(
        !quiet
            .differences
            .iter()
            .any(|d| matches!(d, Difference::Stream { .. })),
        "{quiet}"
    );

    // create_table_with turns the stream on; TTL on another attribute
    // stays (DynamoDB and dynoxide refuse UpdateTimeToLive while TTL is
    // on; moto re-targets it).
    db.sync_table(entities).await.unwrap();
    db.create_table_with(entities, TaskCountsTable::options())
        .await
        .unwrap();
    let after = db
        .verify_table_with(entities, &TaskCountsTable::options())
        .await
        .unwrap();
    if on_server() {
        assert!(after.matches(), "{after}");
    } else {
        let ttl = Difference::Ttl {
            expected: ttl_attr.into(),
            found: LiveTtl::On("purge_at".into()),
        };
        assert_eq!(after.differences, [ttl], "{after}");
        assert_eq!(after.differences[0].remedy(), Remedy::UpdateTable);
    }
}

#[tokio::test]
async fn a_table_key_or_local_index_difference_needs_a_new_table() {
    let local = local::from_env().unwrap();
    let db = fresh(&local);
    let lsi_sk = DocTask::META
        .index("LSI1")
        .unwrap()
        .sk_attrs()
        .next()
        .unwrap()
        .0;
    assert!(DocProject::META.index("LSI1").is_none());
    keyed(&db, "sortkey")
        .attribute_definitions(attr("other_sk", ScalarAttributeType::S))
        .local_secondary_indexes(
            LocalSecondaryIndex::builder()
                .index_name("LSI1")
                .key_schema(key("pk", KeyType::Hash))
                .key_schema(key("other_sk", KeyType::Range))
                .projection(projection(ProjectionType::All, &[]))
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    let report = db.verify_table(DocTable::ENTITIES).await.unwrap();
    let table_key = report
        .differences
        .iter()
        .find(|d| matches!(d, Difference::TableKey { .. }))
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(table_key.remedy(), Remedy::NewTable);
    let lsi = report
        .differences
        .iter()
        .find(|d| matches!(d, Difference::IndexKey { index, .. } if index == "LSI1"))
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(lsi.remedy(), Remedy::NewTable);
    assert!(lsi.to_string().contains(lsi_sk), "{lsi}");
    // A missing global index is sync_table's; a local one is refused by it.
    assert!(report
        .differences
        .iter()
        .any(|d| matches!(d, Difference::MissingIndex { index, .. } if index == "GSI1")));
    assert!(!report
        .differences
        .iter()
        .any(|d| matches!(d, Difference::MissingIndex { index, .. } if index == "LSI1")));
}

#[tokio::test]
async fn recovery_deletion_protection_and_a_missing_table() {
    let local = local::from_env().unwrap();
    let db = fresh(&local);
    let missing = db.verify_table(Catalog::ENTITIES).await.unwrap();
    assert_eq!(missing.differences, [Difference::MissingTable]);
    assert_eq!(missing.fixed_by_sync_table().count(), 1);

    db.create_table(Catalog::ENTITIES).await.unwrap();
    let wants = Catalog::options()
        .point_in_time_recovery(Default::default())
        .deletion_protection();
    let report = db
        .verify_table_with(Catalog::ENTITIES, &wants)
        .await
        .unwrap();
    assert!(
        report.differences.contains(&Difference::DeletionProtection),
        "{report}"
    );
    assert!(report.is_ok(), "settings do not break the code: {report}");
    let pitr_off = Difference::PointInTimeRecovery {
        expected_days: None,
        found: None,
    };
    if on_server() {
        assert!(report.differences.contains(&pitr_off), "{report}");
        // create_table_with on the table turns recovery on.
        db.create_table_with(
            Catalog::ENTITIES,
            Catalog::options().point_in_time_recovery(Default::default()),
        )
        .await
        .unwrap();
        let after = db
            .verify_table_with(Catalog::ENTITIES, &wants)
            .await
            .unwrap();
        assert_eq!(
            after.differences,
            [Difference::DeletionProtection],
            "{after}"
        );
    } else {
        assert!(!report.differences.contains(&pitr_off));
        assert_eq!(report.unchecked.len(), 1, "{report}");
        assert!(
            report
                .to_string()
                .contains("not checked: point-in-time recovery"),
            "{report}"
        );
    }
}
