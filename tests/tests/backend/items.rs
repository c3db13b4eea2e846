//! Single-item operations, conditions, return values, placeholders, errors.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::expr::{Path, RawExpr, Update};
use dynakey::{Condition, Entity, Error};
use dynakey_tests::notes::{Note, Profile};

use super::{fixture, note};

#[tokio::test]
async fn put_get_round_trip_and_consistent_read() {
    let f = fixture().await;
    let n = Note {
        tag: Some("red".into()),
        ..note("ann", 1)
    };
    assert_eq!(f.db.put(&n).await.unwrap(), None);
    let key = Note::key("ann", 1).unwrap();
    assert_eq!(f.db.get(key.clone()).await.unwrap(), Some(n.clone()));
    assert_eq!(f.db.get(key).consistent().await.unwrap(), Some(n));
    assert_eq!(f.db.get(Note::key("ann", 2).unwrap()).await.unwrap(), None);
}

#[tokio::test]
async fn put_if_not_exists_fails_with_the_old_item_when_asked() {
    let f = fixture().await;
    let n = note("ann", 1);
    f.db.put(&n).if_not_exists().await.unwrap();
    let err = f.db.put(&note("ann", 1)).if_not_exists().await.unwrap_err();
    assert!(
        matches!(err, Error::ConditionFailed { item: None, .. }),
        "{err:?}"
    );
    let err =
        f.db.put(&Note {
            text: "other".into(),
            ..n.clone()
        })
        .if_not_exists()
        .return_old_on_fail()
        .await
        .unwrap_err();
    let Error::ConditionFailed {
        item: Some(old), ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(Note::from_item(&old).unwrap(), n);
    // The item was left alone.
    assert_eq!(
        f.db.get(n.item_key().unwrap()).await.unwrap().unwrap().text,
        "note 1"
    );
}

#[tokio::test]
async fn put_if_exists_and_typed_condition() {
    let f = fixture().await;
    let err = f.db.put(&note("ann", 1)).if_exists().await.unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }));
    assert_eq!(f.db.get(Note::key("ann", 1).unwrap()).await.unwrap(), None);
    f.db.put(&note("ann", 1)).await.unwrap();
    let v2 = Note {
        text: "v2".into(),
        ..note("ann", 1)
    };
    let old =
        f.db.put(&v2)
            .condition(Condition::attr("text").eq("note 1"))
            .return_old()
            .await
            .unwrap();
    assert_eq!(old.unwrap().text, "note 1");
    let err =
        f.db.put(&v2)
            .condition(Condition::attr("text").eq("note 1"))
            .await
            .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }));
}

#[tokio::test]
async fn delete_conditional_with_return_values() {
    let f = fixture().await;
    let key = Note::key("ann", 1).unwrap();
    // Deleting nothing is fine, unless the item must exist.
    assert_eq!(f.db.delete(key.clone()).return_old().await.unwrap(), None);
    let err = f.db.delete(key.clone()).if_exists().await.unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { item: None, .. }));
    f.db.put(&note("ann", 1)).await.unwrap();
    let err =
        f.db.delete(key.clone())
            .condition(Condition::attr("text").eq("nope"))
            .return_old_on_fail()
            .await
            .unwrap_err();
    let Error::ConditionFailed {
        item: Some(old), ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(old["text"], AttributeValue::S("note 1".into()));
    let old =
        f.db.delete(key.clone())
            .if_exists()
            .return_old()
            .await
            .unwrap();
    assert_eq!(old, Some(note("ann", 1)));
    assert_eq!(f.db.get(key).await.unwrap(), None);
}

#[tokio::test]
async fn update_with_conditions_and_return_values() {
    let f = fixture().await;
    let key = Note::key("ann", 1).unwrap();
    let err =
        f.db.update_raw(key.clone(), Update::new().set("text", "x"))
            .if_exists()
            .await
            .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }));
    f.db.put(&note("ann", 1)).await.unwrap();
    let new =
        f.db.update_raw(
            key.clone(),
            Update::new()
                .set("text", "changed")
                .set("tag", None::<String>),
        )
        .condition(Condition::attr("text").begins_with("note"))
        .return_new()
        .await
        .unwrap();
    assert_eq!(new.unwrap().text, "changed");
    let old =
        f.db.update_raw(
            key.clone(),
            Update::raw(
                RawExpr::new("SET #t = :t")
                    .name("t", "text")
                    .value("t", "raw"),
            ),
        )
        .return_old()
        .await
        .unwrap();
    assert_eq!(old.unwrap().text, "changed");
    assert_eq!(f.db.get(key).await.unwrap().unwrap().text, "raw");
}

/// Reserved words, names holding `.` and `#`, and values that look like
/// expressions all travel as placeholders.
#[tokio::test]
async fn names_and_values_never_enter_expression_text() {
    let f = fixture().await;
    f.db.put(&note("ann", 1)).await.unwrap();
    let key = Note::key("ann", 1).unwrap();
    let tricky = ":v0 OR attribute_exists(pk) #n0";
    f.db.update_raw(
        key.clone(),
        Update::new()
            .set("status", "open") // reserved word
            .set("name", tricky) // reserved word, value like an expression
            .set("a.b", 1u32) // a dot in a name: one attribute
            .set("#hash", 2u32) // a hash in a name
            .set(
                "map",
                std::collections::HashMap::from([("k.x".to_string(), 3u32)]),
            )
            .increment("count", 5),
    )
    .await
    .unwrap();
    f.db.update_raw(
        key.clone(),
        Update::new()
            .set(Path::new("map").field("k.x"), 4u32)
            .increment("count", 1),
    )
    .condition(
        Condition::attr("status")
            .eq("open")
            .and(Condition::attr("name").eq(tricky))
            .and(Condition::attr("a.b").eq(1u32))
            .and(Condition::attr("#hash").exists())
            .and(Condition::attr("size").not_exists()),
    )
    .await
    .unwrap();
    let raw =
        f.db.client()
            .get_item()
            .table_name(f.db.table_name())
            .set_key(Some(key.to_attributes()))
            .send()
            .await
            .unwrap();
    let item = raw.item().unwrap();
    assert_eq!(item["status"], AttributeValue::S("open".into()));
    assert_eq!(item["name"], AttributeValue::S(tricky.into()));
    assert_eq!(item["a.b"], AttributeValue::N("1".into()));
    assert_eq!(item["#hash"], AttributeValue::N("2".into()));
    assert_eq!(item["count"], AttributeValue::N("6".into()));
    assert!(!item.contains_key("a"), "a.b must not be a path");
    let map = item["map"].as_m().unwrap();
    assert_eq!(map["k.x"], AttributeValue::N("4".into()));
    // A value that looks like an expression matches only itself.
    let err =
        f.db.delete(key)
            .condition(Condition::attr("name").eq(":v0"))
            .await
            .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }));
}

#[tokio::test]
async fn an_item_over_400_kb_is_refused_before_sending() {
    let f = fixture().await;
    let big = Note {
        text: "x".repeat(400 * 1024),
        ..note("ann", 1)
    };
    let err = f.db.put(&big).await.unwrap_err();
    let Error::ItemTooLarge { size, key } = &err else {
        panic!("{err:?}")
    };
    assert!(*size > 400 * 1024);
    assert!(key.contains("USER#ann"), "{key}");
    let err = f.db.batch_write().put(&big).send().await.unwrap_err();
    assert!(matches!(err, Error::ItemTooLarge { .. }));
    let err = f.db.transact_write().put(&big).send().await.unwrap_err();
    assert!(matches!(err, Error::ItemTooLarge { .. }));
    assert_eq!(f.db.get(Note::key("ann", 1).unwrap()).await.unwrap(), None);
    // Just under the limit goes through.
    let fits = Note {
        text: "x".repeat(390 * 1024),
        ..note("ann", 2)
    };
    f.db.put(&fits).await.unwrap();
}

#[tokio::test]
async fn decode_errors_name_the_attribute() {
    let f = fixture().await;
    let mut item = note("ann", 1).to_item().unwrap();
    item.insert("id".into(), AttributeValue::S("not a number".into()));
    f.db.client()
        .put_item()
        .table_name(f.db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let err = f.db.get(Note::key("ann", 1).unwrap()).await.unwrap_err();
    let Error::Decode(d) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(d.path, "id");
}

#[tokio::test]
async fn validation_errors_are_matched_by_code() {
    let f = fixture().await;
    f.db.put(&note("ann", 1)).await.unwrap();
    // Updating a key attribute is refused by DynamoDB with ValidationException.
    let err =
        f.db.update_raw(
            Note::key("ann", 1).unwrap(),
            Update::new().set("pk", "USER#bob"),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
    // A bad raw placeholder is refused before sending: a refusal, not
    // DynamoDB's ValidationException.
    let err =
        f.db.update_raw(
            Note::key("ann", 1).unwrap(),
            Update::raw(RawExpr::new("SET #a = :b")),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Refused {
                reason: dynakey::RefusedReason::InvalidExpression,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(std::error::Error::source(&err).is_none());
    // Other SDK errors are kept.
    let err = f
        .local
        .db("no_such_table")
        .get(Note::key("ann", 1).unwrap())
        .await
        .unwrap_err();
    let Error::Sdk(inner) = &err else {
        panic!("{err:?}")
    };
    assert!(inner.to_string().contains("service error") || !inner.to_string().is_empty());
    assert!(std::error::Error::source(&err).is_some());
}

#[tokio::test]
async fn key_format_errors_come_back_typed() {
    let err = Note::key("ann", 1_000_000).unwrap_err();
    let err: Error = err.into();
    assert!(matches!(err, Error::KeyFormat(_)));
    let f = fixture().await;
    let bad = Note {
        user: String::new(),
        ..note("x", 1)
    };
    let err = f.db.put(&bad).await.unwrap_err();
    assert!(matches!(err, Error::KeyFormat(_)), "{err:?}");
}

#[tokio::test]
async fn create_table_is_idempotent_and_derives_indexes() {
    let f = fixture().await;
    f.db.create_table(&[Note::META, Profile::META])
        .await
        .unwrap();
    let t =
        f.db.client()
            .describe_table()
            .table_name(f.db.table_name())
            .send()
            .await
            .unwrap();
    let t = t.table().unwrap();
    let gsi = t.global_secondary_indexes();
    assert_eq!(gsi.len(), 1);
    assert_eq!(gsi[0].index_name(), Some("GSI1"));
    let mut attrs: Vec<&str> = t
        .attribute_definitions()
        .iter()
        .map(|a| a.attribute_name())
        .collect();
    attrs.sort();
    assert_eq!(attrs, ["gsi1pk", "gsi1sk", "pk", "sk"]);
}

#[tokio::test]
async fn a_file_database_keeps_its_items() {
    if std::env::var(dynakey::local::ENDPOINT_VAR).is_ok() {
        return; // embedded only
    }
    let path = std::env::temp_dir().join(format!("dynakey-{}.db", uuid::Uuid::new_v4()));
    {
        let local = dynakey::local::file(&path).unwrap();
        let db = local.db("notes");
        db.create_table(&[Note::META]).await.unwrap();
        db.put(&note("ann", 1)).await.unwrap();
    }
    let local = dynakey::local::file(&path).unwrap();
    let got = local
        .db("notes")
        .get(Note::key("ann", 1).unwrap())
        .await
        .unwrap();
    assert_eq!(got, Some(note("ann", 1)));
    drop(local);
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn builders_show_what_they_would_send() {
    let f = fixture().await;
    let n = note("ann", 1);
    let table = f.db.table_name().to_owned();
    let shown = [
        format!("{:?}", f.db.put(&n).if_not_exists()),
        format!("{:?}", f.db.get(Note::key("ann", 1).unwrap())),
        format!("{:?}", f.db.delete(Note::key("ann", 1).unwrap())),
        format!(
            "{:?}",
            f.db.update_raw(Note::key("ann", 1).unwrap(), Update::new().set("text", "x"))
        ),
        format!("{:?}", f.db.query(Note::pk("ann").unwrap()).page_size(3)),
        format!("{:?}", f.db.query_many([Note::pk("ann").unwrap()])),
        format!("{:?}", f.db.scan::<Note>().segments(2)),
        format!("{:?}", f.db.batch_write().put(&n)),
        format!("{:?}", f.db.batch_get([Note::key("ann", 1).unwrap()])),
        format!("{:?}", f.db.transact_write().put(&n)),
        format!("{:?}", f.db.transact_get()),
    ];
    for s in &shown {
        assert!(s.contains(&table), "{s}");
    }
    assert!(shown[0].contains("NotExists"), "{}", shown[0]);
    assert!(shown[4].contains("page_size: Some(3)"), "{}", shown[4]);
}
