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

/// The README's PATCH handler: a task whose second index's sort key has
/// two inputs, set together by the group setter.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TASK")]
#[pk("ORG#<org>")]
#[sk("TASK#<n:d6>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<due>")]
struct Task {
    org: String,
    n: u32,
    owner: String,
    status: String,
    due: time::Date,
    title: String,
}

/// What the request carries.
struct TaskRequest {
    title: Option<String>,
    owner: Option<String>,
    status: Option<String>,
    due: Option<time::Date>,
}

#[rustfmt::skip]
async fn patch(db: &Db, org: String, n: u32, req: TaskRequest) -> Result<(), Box<dyn std::error::Error>> {
// README: "Updates that keep every index right" (a PATCH handler).
let mut u = Task::update(&org, n);
if let Some(t) = req.title { u = u.set_title(t) }          // keeps TaskUpdate's type
if let Some(o) = req.owner { u = u.set_owner(o) }          // a one-input key: keeps it too
if let (Some(s), Some(d)) = (req.status, req.due) {
    u = u.set_gsi1_sk(s, d);                               // gsi1sk = "<status>#<due>", all at once
}
db.update(u).await?;
Ok(())
}

#[tokio::test]
async fn a_patch_handler_applies_what_the_request_carries() {
    let (_backend, db) = super::fresh(&[Task::META]).await;
    let day = |d| time::Date::from_ordinal_date(2026, d).unwrap();
    let task = Task {
        org: "acme".into(),
        n: 1,
        owner: "ann".into(),
        status: "open".into(),
        due: day(10),
        title: "first".into(),
    };
    db.put(&task).await.unwrap();
    let req = |title: Option<&str>, owner: Option<&str>, status: Option<&str>, due| TaskRequest {
        title: title.map(Into::into),
        owner: owner.map(Into::into),
        status: status.map(Into::into),
        due,
    };
    patch(&db, "acme".into(), 1, req(Some("second"), None, None, None))
        .await
        .unwrap();
    patch(
        &db,
        "acme".into(),
        1,
        req(None, Some("bob"), Some("done"), Some(day(20))),
    )
    .await
    .unwrap();
    let want = Task {
        owner: "bob".into(),
        status: "done".into(),
        due: day(20),
        title: "second".into(),
        ..task
    };
    assert_eq!(
        db.get(Task::key("acme", 1u32).unwrap()).await.unwrap(),
        Some(want.clone())
    );
    let found = db
        .query(Task::gsi1_pk("bob").unwrap())
        .sk(Task::gsi1_sk().status("done").due(day(20)).eq().unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(found, [want]);
}

#[rustfmt::skip]
async fn patch_in_one_call(db: &Db, org: &str, n: u32, req: &TaskRequest) -> Result<Option<Task>, Box<dyn std::error::Error>> {
// Guide: "Updates that keep every index right" (a PATCH handler in one call).
let patched = db.patch(Task::key(org, n)?, |t| {
    if let Some(x) = &req.title  { t.title = x.clone() }
    if let Some(x) = &req.owner  { t.owner = x.clone() }
    if let Some(x) = &req.status { t.status = x.clone() }  // one input of gsi1sk: it is rebuilt
    if let Some(x) = req.due     { t.due = x }
}).await?;
let Some(task) = patched else { return Ok(None) };        // no such task: a 404
// `task` is the item as written.
Ok(Some(task))
}

#[tokio::test]
async fn a_patch_handler_in_one_call_rebuilds_a_key_from_one_input() {
    let (_backend, db) = super::fresh(&[Task::META]).await;
    let day = |d| time::Date::from_ordinal_date(2026, d).unwrap();
    let task = Task {
        org: "acme".into(),
        n: 1,
        owner: "ann".into(),
        status: "open".into(),
        due: day(10),
        title: "first".into(),
    };
    db.put(&task).await.unwrap();
    // The status alone: gsi1sk = "<status>#<due>" is rebuilt with the due
    // date the item holds.
    let req = TaskRequest {
        title: None,
        owner: None,
        status: Some("done".into()),
        due: None,
    };
    let after = patch_in_one_call(&db, "acme", 1, &req).await.unwrap();
    let want = Task {
        status: "done".into(),
        ..task
    };
    assert_eq!(after, Some(want.clone()));
    let found = db
        .query(Task::gsi1_pk("ann").unwrap())
        .sk(Task::gsi1_sk().status("done").due(day(10)).eq().unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(found, [want]);
    let open = Task::gsi1_sk().status("open").begins_with().unwrap();
    let q = db.query(Task::gsi1_pk("ann").unwrap()).sk(open);
    assert_eq!(q.count().await.unwrap(), 0);
    // No such task: `None`, nothing created.
    assert_eq!(patch_in_one_call(&db, "acme", 2, &req).await.unwrap(), None);
    assert_eq!(
        db.get(Task::key("acme", 2u32).unwrap()).await.unwrap(),
        None
    );
}
