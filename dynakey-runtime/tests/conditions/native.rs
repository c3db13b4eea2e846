//! Native index keys on the engine (and on moto through DYNAKEY_ENDPOINT):
//! the multi-attribute key schema `create_table` writes, the values puts
//! and updates refuse, and every query form against an in-memory model —
//! the partition from every partition attribute, a leading run of sort
//! attributes by equality and one range on the next, in value order
//! (numbers as numbers, negative ones included; bytes bytewise; instants
//! by time), forward and descending, in pages through cursors, counted,
//! keys only, and merged across partitions.

#[path = "native/entity.rs"]
mod entity;
#[path = "native/model.rs"]
mod model;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{KeyType, ScalarAttributeType};
use dynakey_runtime::changes::{
    ChangeDecoder, ChangeRecord, IndexChange, IndexTransition, Operation,
};
use dynakey_runtime::expr::Update;
use dynakey_runtime::{Db, Entity, Error, Item, KeyFormatReason};
use entity::Row;
use time::macros::datetime;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().unwrap()
}

async fn table(backend: &dynakey_runtime::local::Backend, name: &str) -> Db {
    let db = backend.db(format!("{name}_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Row::META]).await.unwrap();
    db
}

/// A row of `acme`'s shard 1.
fn row(id: u32) -> Row {
    Row {
        id,
        tenant: "acme".into(),
        shard: 1,
        status: "open".into(),
        score: 0,
        bin: Blob::new(vec![1]),
        at: datetime!(2026-07-16 09:00 UTC),
        tag: None,
    }
}

#[test]
fn create_table_writes_every_key_attribute_with_its_type() {
    rt().block_on(async {
        let backend = dynakey_runtime::local::from_env().unwrap();
        let db = table(&backend, "native_schema").await;
        let t = db
            .client()
            .describe_table()
            .table_name(db.table_name())
            .send()
            .await
            .unwrap()
            .table
            .unwrap();
        let by_status = t
            .global_secondary_indexes()
            .iter()
            .find(|g| g.index_name() == Some("ByStatus"))
            .unwrap();
        let schema: Vec<(&str, &KeyType)> = by_status
            .key_schema()
            .iter()
            .map(|k| (k.attribute_name(), k.key_type()))
            .collect();
        use KeyType::{Hash, Range};
        assert_eq!(
            schema,
            [
                ("tenant", &Hash),
                ("shard", &Hash),
                ("status", &Range),
                ("score", &Range),
                ("bin", &Range),
                ("at", &Range)
            ]
        );
        let ty = |a: &str| {
            t.attribute_definitions()
                .iter()
                .find(|d| d.attribute_name() == a)
                .map(|d| d.attribute_type().clone())
        };
        assert_eq!(ty("shard"), Some(ScalarAttributeType::N));
        assert_eq!(ty("score"), Some(ScalarAttributeType::N));
        assert_eq!(ty("bin"), Some(ScalarAttributeType::B));
        assert_eq!(ty("at"), Some(ScalarAttributeType::S));
        assert_eq!(ty("tag"), Some(ScalarAttributeType::S));
        // create_table is idempotent, and sync_table finds nothing to add.
        db.create_table(&[Row::META]).await.unwrap();
        assert!(db.sync_table(&[Row::META]).await.unwrap().is_empty());
    });
}

#[test]
fn puts_and_updates_refuse_an_empty_key_value_before_sending() {
    rt().block_on(async {
        let backend = dynakey_runtime::local::from_env().unwrap();
        let db = table(&backend, "native_empty").await;
        let refused = |e: Error, field: &str, index: &str| match e {
            Error::KeyFormat(k) => {
                assert_eq!(
                    (k.field, k.index, k.reason.clone()),
                    (field, Some(index), KeyFormatReason::Empty)
                );
                assert!(k.to_string().contains("native key of index"), "{k}");
            }
            other => panic!("{other:?}"),
        };
        let empty_status = Row {
            status: String::new(),
            ..row(1)
        };
        refused(
            db.put(&empty_status).await.unwrap_err(),
            "status",
            "ByStatus",
        );
        let empty_bin = Row {
            bin: Blob::new(vec![]),
            ..row(2)
        };
        refused(db.put(&empty_bin).await.unwrap_err(), "bin", "ByStatus");
        let empty_tag = Row {
            tag: Some(String::new()),
            ..row(3)
        };
        refused(db.put(&empty_tag).await.unwrap_err(), "tag", "ByTag");
        // A batch and a transaction check the same way.
        let batch = db.batch_write().put(&empty_status).send().await;
        assert!(matches!(batch, Err(Error::KeyFormat(_))), "{batch:?}");
        let tx = db.transact_write().put(&empty_tag).await;
        assert!(matches!(tx, Err(Error::KeyFormat(_))), "{tx:?}");
        db.put(&row(4)).await.unwrap();
        let u = db.update_raw(Row::key(4).unwrap(), Update::new().set("status", ""));
        refused(u.await.unwrap_err(), "status", "ByStatus");
        let u = db.update_raw(Row::key(4).unwrap(), Update::new().set("tag", ""));
        refused(u.await.unwrap_err(), "tag", "ByTag");
        // Nothing was written but the one good item.
        assert_eq!(db.scan::<Row>().all().await.unwrap(), [row(4)]);
    });
}

#[test]
fn a_sparse_native_index_holds_the_items_that_have_every_key_attribute() {
    rt().block_on(async {
        let backend = dynakey_runtime::local::from_env().unwrap();
        let db = table(&backend, "native_sparse").await;
        for (id, tag, score) in [
            (1, Some("red"), 5),
            (2, None, 1),
            (3, Some("red"), -7),
            (4, Some("blue"), 0),
        ] {
            let r = Row {
                tag: tag.map(String::from),
                score,
                ..row(id)
            };
            db.put(&r).await.unwrap();
        }
        let red = || db.query(Row::by_tag_pk("red").unwrap());
        // KEYS_ONLY: the keys in index order (-7 before 5), then the items.
        let keys = red().keys_only().all().await.unwrap();
        assert_eq!(keys, [Row::key(3).unwrap(), Row::key(1).unwrap()]);
        let h = red().hydrate().await.unwrap();
        assert_eq!(h.items.iter().map(|r| r.id).collect::<Vec<_>>(), [3, 1]);
        assert_eq!(red().count().await.unwrap(), 2);
        // Removing the optional attribute takes the item out; setting it
        // takes it in (DynamoDB rebuilds the index key itself).
        db.update_raw(Row::key(3).unwrap(), Update::new().remove("tag"))
            .await
            .unwrap();
        db.update_raw(Row::key(2).unwrap(), Update::new().set("tag", "red"))
            .await
            .unwrap();
        let keys = red().keys_only().all().await.unwrap();
        assert_eq!(keys, [Row::key(2).unwrap(), Row::key(1).unwrap()]);
        // A write's cost: an index write only where a key attribute changes.
        let put = db
            .put(&Row {
                tag: None,
                ..row(9)
            })
            .explain()
            .unwrap()
            .cost
            .unwrap();
        let change = |c: &dynakey_runtime::WriteCost, ix: &str| {
            c.indexes.iter().find(|i| i.index == ix).unwrap().change
        };
        use dynakey_runtime::explain::IndexChange as C;
        assert_eq!(
            (change(&put, "ByStatus"), change(&put, "ByTag")),
            (C::Enter, C::Untouched)
        );
        let set_score = Update::new().set("score", 3);
        let up = db
            .update_raw(Row::key(1).unwrap(), set_score)
            .explain()
            .unwrap()
            .cost
            .unwrap();
        assert_eq!(
            (change(&up, "ByStatus"), change(&up, "ByTag")),
            (C::Move, C::Move)
        );
        let other = Update::new().set("note", "x");
        let up = db
            .update_raw(Row::key(1).unwrap(), other)
            .explain()
            .unwrap()
            .cost
            .unwrap();
        assert_eq!(change(&up, "ByStatus"), C::Rewrite);
        let drop_tag = Update::new().remove("tag");
        let up = db
            .update_raw(Row::key(1).unwrap(), drop_tag)
            .explain()
            .unwrap()
            .cost
            .unwrap();
        assert_eq!(change(&up, "ByTag"), C::Leave);
    });
}

#[test]
fn the_query_names_every_attribute_by_placeholder() {
    let backend = dynakey_runtime::local::memory().unwrap();
    let db = backend.db("t");
    let c = Row::by_status_sk()
        .__then::<i64, _>("open")
        .__then::<Blob, _>(&-3i64)
        .ge(vec![0u8])
        .unwrap();
    let x = db
        .query(Row::by_status_pk("acme", 1).unwrap())
        .sk(c)
        .explain()
        .unwrap();
    assert_eq!(
        x.key_condition.as_deref(),
        Some("#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 = :v3 AND #n4 >= :v4")
    );
    // Its readable form shows every value, bytes in hex.
    let text = x.to_string();
    assert!(
        text.contains(
            "tenant = \"acme\" AND shard = 1 AND status = \"open\" AND score = -3 AND bin >= 0x00"
        ),
        "{text}"
    );
    let q = db
        .query(Row::by_status_pk("acme", 1).unwrap())
        .to_input()
        .unwrap();
    let names = q.expression_attribute_names().unwrap();
    assert_eq!(
        (names["#n0"].as_str(), names["#n1"].as_str()),
        ("tenant", "shard")
    );
    // A condition of another index is refused.
    let tag = db
        .query(Row::by_tag_pk("red").unwrap())
        .sk(Row::by_status_sk().eq().unwrap());
    assert!(matches!(tag.to_input(), Err(Error::Refused { .. })));
}

#[test]
fn a_change_enters_moves_in_and_leaves_a_native_index() {
    let item = |r: &Row| r.to_item().unwrap();
    let keys = |r: &Row| -> Item { [("pk".to_owned(), item(r)["pk"].clone())].into() };
    let dec = ChangeDecoder::<Row>::entity();
    let a = row(1);
    let tagged = Row {
        tag: Some("red".into()),
        ..a.clone()
    };
    let rescored = Row {
        score: -1,
        ..tagged.clone()
    };
    let rec = |old: &Row, new: &Row| {
        ChangeRecord::new(Operation::Modify, keys(new))
            .with_old(item(old))
            .with_new(item(new))
    };
    let ch = |ix, t| IndexChange {
        index: ix,
        transition: t,
    };
    use IndexTransition::*;
    assert_eq!(
        dec.decode(&rec(&a, &tagged)).unwrap().indexes,
        [ch("ByTag", Entered)]
    );
    assert_eq!(
        dec.decode(&rec(&tagged, &rescored)).unwrap().indexes,
        [ch("ByStatus", Moved), ch("ByTag", Moved)]
    );
    assert_eq!(
        dec.decode(&rec(&rescored, &a)).unwrap().indexes,
        [ch("ByStatus", Moved), ch("ByTag", Left)]
    );
    // The same number in another form is no move.
    let mut other_form = item(&tagged);
    other_form.insert(
        "score".into(),
        aws_sdk_dynamodb::types::AttributeValue::N("0E+3".into()),
    );
    let r = ChangeRecord::new(Operation::Modify, keys(&tagged))
        .with_old(item(&tagged))
        .with_new(other_form);
    assert!(dec.decode(&r).unwrap().indexes.is_empty());
}

#[test]
fn every_query_form_reads_what_the_model_reads() {
    rt().block_on(async {
        let backend = dynakey_runtime::local::from_env().unwrap();
        let db = table(&backend, "native_model").await;
        model::run(&db).await;
    });
}
