//! The README's typed updates: an index key rewritten, a soft delete out of
//! a sparse index, a counter from nothing.

use dynakey::prelude::*;
use dynakey_examples::seeds::{Note, WorkItem, WorkStatus};
use time::OffsetDateTime;
use uuid::Uuid;

/// A page's view counter, created by its first upsert.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PAGE_VIEWS")]
#[pk("PAGE#<page>")]
#[sk("VIEWS")]
struct PageViews {
    page: String,
    views: u64,
}

#[rustfmt::skip]
async fn updates(db: &Db, id: Uuid, now: OffsetDateTime) -> Result<(), Box<dyn std::error::Error>> {
// README: "Updates that keep every index right".
// The id comes with the key, so closing an item sets only the status;
// gsi1sk = "<status>#<id>" is rewritten in the same request.
db.update(WorkItem::update(id).set_status(WorkStatus::Closed)).await?;

// Soft delete: the item leaves the sparse "live" index, once.
db.update(Note::update("ann", "n1")
        .set_deleted_at(now)
        .remove_live_since()
        .condition(Note::attrs().deleted_at.not_exists()))
    .await?;

// A counter from nothing: the upsert writes the discriminator and the key
// fields with it, so the item reads back like any other.
db.update(PageViews::upsert("home").increment_views(1)).await?;
// End of the README's example.
    Ok(())
}

#[tokio::test]
async fn updates_keep_every_index_right() {
    let (_backend, db) = super::fresh(&[WorkItem::META, Note::META, PageViews::META]).await;
    let id = Uuid::now_v7();
    let now = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    let item = WorkItem {
        id,
        owner: "ann".into(),
        status: WorkStatus::Open,
    };
    db.put(&item).await.unwrap();
    let note = Note {
        owner: "ann".into(),
        id: "n1".into(),
        live_since: Some(now),
        deleted_at: None,
    };
    db.put(&note).await.unwrap();

    updates(&db, id, now).await.unwrap();

    // The stored items equal what `to_item` of their new values writes.
    let closed = WorkItem {
        status: WorkStatus::Closed,
        ..item
    };
    let stored = db.get(WorkItem::key(id).unwrap()).await.unwrap().unwrap();
    assert_eq!(stored, closed);
    let deleted = Note {
        live_since: None,
        deleted_at: Some(now),
        ..note
    };
    assert_eq!(
        db.get(Note::key("ann", "n1").unwrap()).await.unwrap(),
        Some(deleted.clone())
    );
    let live = db.query(Note::gsi2_pk("ann").unwrap()).all().await.unwrap();
    assert!(live.is_empty(), "{live:?}");
    let views = db.get(PageViews::key("home").unwrap()).await.unwrap();
    assert_eq!(
        views,
        Some(PageViews {
            page: "home".into(),
            views: 1
        })
    );
    // A second soft delete is refused by its condition.
    let again = db
        .update(
            Note::update("ann", "n1")
                .set_deleted_at(now)
                .condition(Note::attrs().deleted_at.not_exists()),
        )
        .await;
    assert!(
        matches!(again, Err(dynakey::Error::ConditionFailed { .. })),
        "{again:?}"
    );
}
