//! `#[dynamo(created_at)]` / `#[dynamo(updated_at)]`: a put stamps both
//! (keeping a created time the value carries), an update or upsert sets
//! `created_at` only on creation (`if_not_exists`) and `updated_at` always,
//! in transactions too.

use dynakey::rules::UNSET;
use dynakey::{Entity, Item};
use time::{Duration, OffsetDateTime};

use super::{fixture, Doc};

fn doc(id: &str) -> Doc {
    Doc {
        id: id.into(),
        title: "t".into(),
        created: None,
        updated: UNSET,
    }
}

fn between(t: OffsetDateTime, lo: OffsetDateTime, hi: OffsetDateTime) {
    assert!(lo <= t && t <= hi, "{t} not in {lo} ..= {hi}");
}

async fn stored(db: &dynakey::Db, id: &str) -> Doc {
    db.get(Doc::key(id).unwrap())
        .consistent()
        .await
        .unwrap()
        .expect("stored")
}

#[tokio::test]
async fn put_stamps_both_and_keeps_a_carried_created_time() {
    let f = fixture(&[Doc::META]).await;
    let db = &f.db;
    let t0 = OffsetDateTime::now_utc();
    db.put(&doc("d1")).await.unwrap();
    let t1 = OffsetDateTime::now_utc();
    let d = stored(db, "d1").await;
    let created = d.created.expect("created set");
    between(created, t0, t1);
    assert_eq!(d.updated, created, "one time for one write");
    // The stored form is an instant's RFC 3339 text, as for any instant.
    let item: Item = d.to_item().unwrap();
    assert!(item["created"].as_s().unwrap().ends_with('Z'));

    // Read-modify-put keeps the created time; updated moves on.
    let again = Doc {
        title: "t2".into(),
        ..d.clone()
    };
    db.put(&again).await.unwrap();
    let d2 = stored(db, "d1").await;
    assert_eq!(d2.created, Some(created));
    assert!(d2.updated >= created);
    // A value carrying its own created time keeps it; the updated time is
    // the write's whatever the value held.
    let past = OffsetDateTime::UNIX_EPOCH + Duration::days(365);
    db.put(&Doc {
        created: Some(past),
        updated: past,
        ..doc("d2")
    })
    .await
    .unwrap();
    let d = stored(db, "d2").await;
    assert_eq!(d.created, Some(past));
    assert!(d.updated >= t1);
    // A fresh value put over an existing item starts it again (documented).
    let t2 = OffsetDateTime::now_utc();
    db.put(&doc("d2")).await.unwrap();
    assert!(stored(db, "d2").await.created.unwrap() >= t2);
}

#[tokio::test]
async fn update_sets_updated_and_upsert_creates_created_once() {
    let f = fixture(&[Doc::META]).await;
    let db = &f.db;
    // An upsert of a missing item: both set. The plain `updated` field is not
    // required from the upsert (the runtime writes it).
    let t0 = OffsetDateTime::now_utc();
    db.update(Doc::upsert("d1").set_title("a")).await.unwrap();
    let d = stored(db, "d1").await;
    let created = d.created.unwrap();
    between(created, t0, OffsetDateTime::now_utc());
    assert_eq!(d.updated, created);
    // A second upsert and a patch keep created; updated moves.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    db.update(Doc::upsert("d1").set_title("b")).await.unwrap();
    db.update(Doc::update("d1").set_title("c")).await.unwrap();
    let d = stored(db, "d1").await;
    assert_eq!((d.title.as_str(), d.created), ("c", Some(created)));
    assert!(d.updated > created);
    // An update that sets a timestamp itself keeps its value.
    let past = OffsetDateTime::UNIX_EPOCH + Duration::days(1);
    db.update(Doc::update("d1").set_updated(past))
        .await
        .unwrap();
    assert_eq!(stored(db, "d1").await.updated, past);
    // A patch of a missing item still creates nothing.
    assert!(db.update(Doc::update("zz").set_title("x")).await.is_err());
    assert!(db.get(Doc::key("zz").unwrap()).await.unwrap().is_none());
}

#[tokio::test]
async fn transactions_and_batches_stamp_too() {
    let f = fixture(&[Doc::META]).await;
    let db = &f.db;
    let t0 = OffsetDateTime::now_utc();
    db.transact_write()
        .put(&doc("d1"))
        .update(Doc::upsert("d2").set_title("x"))
        .await
        .unwrap();
    db.batch_write().put(&doc("d3")).send().await.unwrap();
    let t1 = OffsetDateTime::now_utc();
    for id in ["d1", "d2", "d3"] {
        let d = stored(db, id).await;
        between(d.created.unwrap(), t0, t1);
        between(d.updated, t0, t1);
    }
    let c2 = stored(db, "d2").await.created;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    db.transact_write()
        .update(Doc::update("d2").set_title("y"))
        .await
        .unwrap();
    let d2 = stored(db, "d2").await;
    assert_eq!(d2.created, c2);
    assert!(d2.updated > t1);
}

#[tokio::test]
async fn patch_stamps_updated_and_keeps_created() {
    let f = fixture(&[Doc::META]).await;
    let db = &f.db;
    db.put(&doc("d1")).await.unwrap();
    let d = stored(db, "d1").await;
    let t0 = OffsetDateTime::now_utc();
    let patched = db
        .patch(Doc::key("d1").unwrap(), |d| d.title = "t2".into())
        .await
        .unwrap()
        .unwrap();
    let t1 = OffsetDateTime::now_utc();
    assert_eq!(patched.title, "t2");
    assert_eq!(patched.created, d.created);
    between(patched.updated, t0, t1);
    assert_eq!(stored(db, "d1").await, patched);
}
