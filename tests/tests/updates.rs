//! Typed updates against every backend (the embedded engine, and the server
//! at `DYNAKEY_ENDPOINT`): the seed recipes that change items in place, and
//! the index keys they keep right.

use std::sync::Arc;

use dynakey::local::{self, Backend};
use dynakey::{Db, DynamoEntity, Entity, Error, Item};
use dynakey_tests::seeds::*;
use time::macros::{date, datetime};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

struct Fixture {
    local: Backend,
    db: Db,
}

async fn fixture(metas: &[&'static dynakey::EntityMeta]) -> Fixture {
    let local = local::from_env().expect("backend");
    let db = local.db(format!("u_{}", Uuid::new_v4().simple()));
    db.create_table(metas).await.expect("create table");
    Fixture { local, db }
}

async fn raw(db: &Db, pk: &str, sk: &str) -> Item {
    let out = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .key("pk", aws_sdk_dynamodb::types::AttributeValue::S(pk.into()))
        .key("sk", aws_sdk_dynamodb::types::AttributeValue::S(sk.into()))
        .consistent_read(true)
        .send()
        .await
        .expect("get");
    out.item().cloned().expect("item exists")
}

#[tokio::test]
async fn sparse_subscribe_and_unsubscribe() {
    let f = fixture(&[Subscriber::META]).await;
    let db = &f.db;
    db.put(&Subscriber {
        id: "s1".into(),
        plan: None,
        since: None,
    })
    .await
    .unwrap();
    db.put(&Subscriber {
        id: "s2".into(),
        plan: None,
        since: None,
    })
    .await
    .unwrap();
    let pro = || db.query(Subscriber::gsi2_pk("pro").unwrap());
    assert_eq!(pro().count().await.unwrap(), 0);

    let today = date!(2026 - 07 - 16);
    db.update(Subscriber::update("s1").set_plan("pro").set_since(today))
        .if_exists()
        .await
        .unwrap();
    let found = pro().all().await.unwrap();
    assert_eq!(
        found,
        [Subscriber {
            id: "s1".into(),
            plan: Some("pro".into()),
            since: Some(today)
        }]
    );
    let item = raw(db, "SUB#s1", "PROFILE").await;
    assert_eq!(item["gsi2pk"].as_s().unwrap(), "PLAN#pro");
    assert_eq!(item["gsi2sk"].as_s().unwrap(), "SINCE#2026-07-16");

    // Remove of one input takes it out (its key attribute goes); the item
    // stays in the table.
    db.update(Subscriber::update("s1").remove_plan())
        .await
        .unwrap();
    assert_eq!(pro().count().await.unwrap(), 0);
    let item = raw(db, "SUB#s1", "PROFILE").await;
    assert!(!item.contains_key("gsi2pk") && !item.contains_key("plan"));
    assert_eq!(item["gsi2sk"].as_s().unwrap(), "SINCE#2026-07-16");
    assert_eq!(
        db.get(Subscriber::key("s1").unwrap())
            .await
            .unwrap()
            .unwrap()
            .since,
        Some(today)
    );

    // A Set of None does the same as a Remove. (A Set, even of None, is a
    // value the compiler cannot see, so the other input comes along:
    // `remove_plan()` alone is the way to say "leave".)
    db.update(Subscriber::update("s2").set_plan("pro").set_since(today))
        .await
        .unwrap();
    assert_eq!(pro().count().await.unwrap(), 1);
    db.update(
        Subscriber::update("s2")
            .set_plan(None::<String>)
            .set_since(today),
    )
    .await
    .unwrap();
    assert_eq!(pro().count().await.unwrap(), 0);
}

#[tokio::test]
async fn omit_empty_plan_leaves_the_index() {
    let f = fixture(&[LegacySubscriber::META]).await;
    let db = &f.db;
    db.put(&LegacySubscriber {
        id: "l1".into(),
        plan: "pro".into(),
    })
    .await
    .unwrap();
    assert_eq!(
        db.query(LegacySubscriber::gsi2_pk("pro").unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
    db.update(LegacySubscriber::update("l1").set_plan(""))
        .await
        .unwrap();
    assert_eq!(
        db.query(LegacySubscriber::gsi2_pk("pro").unwrap())
            .count()
            .await
            .unwrap(),
        0
    );
    let item = raw(db, "SUB#l1", "LEGACY").await;
    assert!(!item.contains_key("plan") && !item.contains_key("gsi2pk"));
}

#[tokio::test]
async fn featured_articles_by_day() {
    let f = fixture(&[Article::META]).await;
    let db = &f.db;
    for id in ["a1", "a2", "a3"] {
        db.put(&Article {
            id: id.into(),
            featured_on: None,
        })
        .await
        .unwrap();
    }
    db.update(Article::update("a2").set_featured_on(date!(2026 - 07 - 15)))
        .await
        .unwrap();
    db.update(Article::update("a3").set_featured_on(date!(2026 - 07 - 16)))
        .await
        .unwrap();
    let featured = db.query(Article::gsi2_pk().unwrap()).all().await.unwrap();
    assert_eq!(
        featured.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
        ["a2", "a3"]
    );
    let on_16th = db
        .query(Article::gsi2_pk().unwrap())
        .sk(Article::gsi2_sk()
            .featured_on(date!(2026 - 07 - 16))
            .eq()
            .unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(on_16th.len(), 1);
    db.update(Article::update("a2").remove_featured_on())
        .await
        .unwrap();
    assert_eq!(
        db.query(Article::gsi2_pk().unwrap()).count().await.unwrap(),
        1
    );
}

#[tokio::test]
async fn status_change_moves_the_item_inside_the_index() {
    let f = fixture(&[WorkItem::META]).await;
    let db = &f.db;
    let now = OffsetDateTime::now_utc();
    let old = dynakey::uuid7::at(now - Duration::days(10));
    let recent = dynakey::uuid7::at(now - Duration::days(2));
    let newest = dynakey::uuid7::at(now - Duration::hours(1));
    for id in [newest, old, recent] {
        db.put(&WorkItem {
            id,
            owner: "ann".into(),
            status: WorkStatus::Open,
        })
        .await
        .unwrap();
    }
    let open = || {
        db.query(WorkItem::gsi1_pk("ann").unwrap())
            .sk(WorkItem::gsi1_sk()
                .status(WorkStatus::Open)
                .begins_with()
                .unwrap())
    };
    // Oldest first: the v7 id is the age.
    let ids: Vec<Uuid> = open()
        .all()
        .await
        .unwrap()
        .into_iter()
        .map(|w| w.id)
        .collect();
    assert_eq!(ids, [old, recent, newest]);
    let this_week = db
        .query(WorkItem::gsi1_pk("ann").unwrap())
        .sk(WorkItem::gsi1_sk()
            .status(WorkStatus::Open)
            .between(
                dynakey::uuid7::first(now - Duration::days(7)),
                dynakey::uuid7::last(now),
            )
            .unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(
        this_week.iter().map(|w| w.id).collect::<Vec<_>>(),
        [recent, newest]
    );

    // Closing sets only the status; the id comes with the key.
    db.update(WorkItem::update(recent).set_status(WorkStatus::Closed))
        .if_exists()
        .await
        .unwrap();
    assert_eq!(open().count().await.unwrap(), 2);
    let closed = db
        .query(WorkItem::gsi1_pk("ann").unwrap())
        .sk(WorkItem::gsi1_sk()
            .status(WorkStatus::Closed)
            .begins_with()
            .unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(closed.iter().map(|w| w.id).collect::<Vec<_>>(), [recent]);
    let item = raw(db, &format!("ITEM#{recent}"), "DATA").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), &format!("Closed#{recent}"));

    // if_exists: an update of a missing item fails instead of creating it.
    let missing = db
        .update(WorkItem::update(Uuid::now_v7()).set_status(WorkStatus::Closed))
        .if_exists()
        .await;
    assert!(
        matches!(missing, Err(Error::ConditionFailed { .. })),
        "{missing:?}"
    );
}

#[tokio::test]
async fn soft_delete_and_restore() {
    let f = fixture(&[Note::META]).await;
    let db = &f.db;
    let t0 = datetime!(2026-01-01 0:00 UTC);
    for id in ["n1", "n2"] {
        db.put(&Note {
            owner: "ann".into(),
            id: id.into(),
            live_since: Some(t0),
            deleted_at: None,
        })
        .await
        .unwrap();
    }
    let live = || db.query(Note::gsi2_pk("ann").unwrap());
    assert_eq!(live().count().await.unwrap(), 2);

    let delete = || {
        Note::update("ann", "n1")
            .set_deleted_at(datetime!(2026-02-01 0:00 UTC))
            .remove_live_since()
            .condition(Note::attrs().deleted_at.not_exists())
    };
    db.update(delete()).await.unwrap();
    let ids: Vec<String> = live()
        .all()
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.id)
        .collect();
    assert_eq!(ids, ["n2"], "the live list needs no filter");
    // The table still has it, with its mark.
    let n1 = db
        .get(Note::key("ann", "n1").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(n1.deleted_at, Some(datetime!(2026-02-01 0:00 UTC)));
    // A second delete fails its condition and keeps the first time.
    let again = db.update(delete()).await;
    assert!(
        matches!(again, Err(Error::ConditionFailed { .. })),
        "{again:?}"
    );

    // Restore: the owner comes with the table key, so only the time is set,
    // and both index keys are written again.
    let t1 = datetime!(2026-03-01 0:00 UTC);
    db.update(
        Note::update("ann", "n1")
            .remove_deleted_at()
            .set_live_since(t1),
    )
    .if_exists()
    .await
    .unwrap();
    assert_eq!(live().count().await.unwrap(), 2);
    let item = raw(db, "OWNER#ann", "NOTE#n1").await;
    assert_eq!(item["gsi2pk"].as_s().unwrap(), "OWNER#ann");
    assert_eq!(
        item["gsi2sk"].as_s().unwrap(),
        "LIVE#2026-03-01T00:00:00.000000000Z"
    );
}

#[tokio::test]
async fn restore_rewrites_only_the_key_it_feeds() {
    let f = fixture(&[OwnedNote::META]).await;
    let db = &f.db;
    let t0 = datetime!(2026-01-01 0:00 UTC);
    db.put(&OwnedNote {
        id: "n1".into(),
        owner: Some("ann".into()),
        live_since: Some(t0),
        deleted_at: None,
    })
    .await
    .unwrap();
    db.put(&OwnedNote {
        id: "n2".into(),
        owner: None,
        live_since: None,
        deleted_at: Some(t0),
    })
    .await
    .unwrap();
    db.update(
        OwnedNote::update("n1")
            .remove_live_since()
            .set_deleted_at(t0),
    )
    .await
    .unwrap();
    assert_eq!(
        db.query(OwnedNote::gsi2_pk("ann").unwrap())
            .count()
            .await
            .unwrap(),
        0
    );
    // Only the sort key is rewritten: no read, no Set of the owner.
    db.update(
        OwnedNote::update("n1")
            .remove_deleted_at()
            .set_live_since(t0),
    )
    .await
    .unwrap();
    assert_eq!(
        db.query(OwnedNote::gsi2_pk("ann").unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
    // A note without an owner is restored and stays out of the owner
    // index: the update rewrites the sort key only, never the owner's key.
    db.update(
        OwnedNote::update("n2")
            .remove_deleted_at()
            .set_live_since(t0),
    )
    .await
    .unwrap();
    let n2 = raw(db, "NOTE#n2", "NOTE").await;
    assert!(!n2.contains_key("gsi2pk") && n2.contains_key("gsi2sk"));
    assert_eq!(
        db.query(OwnedNote::gsi2_pk("ann").unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
}

async fn claim(db: &Db, job: Uuid, shard: i32, until: OffsetDateTime) -> Result<String, Error> {
    let claim = Uuid::new_v4().simple().to_string();
    db.update(
        QueuedJob::update(job)
            .remove_shard()
            .set_claim_shard(shard)
            .set_owner(claim.as_str())
            .set_claimed_until(until)
            .condition(QueuedJob::attrs().shard.exists()),
    )
    .await?;
    Ok(claim)
}

#[tokio::test]
async fn queue_claim_is_exclusive_even_after_a_stale_read() {
    let f = fixture(&[QueuedJob::META]).await;
    let db = &f.db;
    let id = Uuid::now_v7();
    db.put(&QueuedJob {
        id,
        shard: Some(0),
        claim_shard: None,
        owner: None,
        claimed_until: None,
        payload: "ship".into(),
    })
    .if_not_exists()
    .await
    .unwrap();
    // Two workers read the pending shard before either claims: both see the job.
    let seen_a = db
        .query(QueuedJob::gsi2_pk(0).unwrap())
        .all()
        .await
        .unwrap();
    let seen_b = db
        .query(QueuedJob::gsi2_pk(0).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!((seen_a.len(), seen_b.len()), (1, 1));
    let until = OffsetDateTime::now_utc() + Duration::minutes(5);
    let a = claim(db, seen_a[0].id, 0, until).await;
    let b = claim(db, seen_b[0].id, 0, until).await;
    let won: Vec<&String> = [&a, &b]
        .into_iter()
        .filter_map(|r| r.as_ref().ok())
        .collect();
    assert_eq!(won.len(), 1, "exactly one claim: {a:?} {b:?}");
    assert!([&a, &b]
        .into_iter()
        .any(|r| matches!(r, Err(Error::ConditionFailed { .. }))));
    assert_eq!(
        db.query(QueuedJob::gsi2_pk(0).unwrap())
            .count()
            .await
            .unwrap(),
        0
    );
    let claimed = db
        .query(QueuedJob::gsi1_pk(0).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1);
    assert_eq!(claimed[0].owner.as_deref(), Some(won[0].as_str()));

    // Completion only by the current claim.
    let wrong = db
        .delete(QueuedJob::key(id).unwrap())
        .condition(QueuedJob::attrs().owner.eq("someone-else"))
        .await;
    assert!(matches!(wrong, Err(Error::ConditionFailed { .. })));
    db.delete(QueuedJob::key(id).unwrap())
        .condition(QueuedJob::attrs().owner.eq(won[0].as_str()))
        .await
        .unwrap();
    assert!(db.get(QueuedJob::key(id).unwrap()).await.unwrap().is_none());
}

#[tokio::test]
async fn reaper_puts_back_expired_claims() {
    let f = fixture(&[QueuedJob::META]).await;
    let db = &f.db;
    let now = OffsetDateTime::now_utc();
    let (expired, held) = (Uuid::now_v7(), Uuid::now_v7());
    for id in [expired, held] {
        db.put(&QueuedJob {
            id,
            shard: Some(1),
            claim_shard: None,
            owner: None,
            claimed_until: None,
            payload: "p".into(),
        })
        .await
        .unwrap();
    }
    let stale_owner = claim(db, expired, 1, now - Duration::minutes(1))
        .await
        .unwrap();
    claim(db, held, 1, now + Duration::minutes(5))
        .await
        .unwrap();

    let stale = db
        .query(QueuedJob::gsi1_pk(1).unwrap())
        .sk(QueuedJob::gsi1_sk().lt(now).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(stale.iter().map(|j| j.id).collect::<Vec<_>>(), [expired]);
    for job in stale {
        db.update(
            QueuedJob::update(job.id)
                .remove_owner()
                .remove_claim_shard()
                .remove_claimed_until()
                .set_shard(1)
                .condition(QueuedJob::attrs().owner.eq(job.owner.clone().unwrap())),
        )
        .await
        .unwrap();
    }
    let pending: Vec<Uuid> = db
        .query(QueuedJob::gsi2_pk(1).unwrap())
        .all()
        .await
        .unwrap()
        .into_iter()
        .map(|j| j.id)
        .collect();
    assert_eq!(pending, [expired]);
    assert_eq!(
        db.query(QueuedJob::gsi1_pk(1).unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
    // The worker whose claim was put back cannot complete the job.
    let late = db
        .delete(QueuedJob::key(expired).unwrap())
        .condition(QueuedJob::attrs().owner.eq(stale_owner.as_str()))
        .await;
    assert!(matches!(late, Err(Error::ConditionFailed { .. })));
}

#[tokio::test]
async fn move_changes_a_table_key_in_one_transaction() {
    let f = fixture(&[Employee::META]).await;
    let db = &f.db;
    let e = Employee {
        org: "acme".into(),
        country: "CH".into(),
        city: "Zurich".into(),
        number: 7,
    };
    db.put(&e).await.unwrap();
    let moved = Employee {
        city: "Bern".into(),
        ..e.clone()
    };
    db.move_item(e.item_key().unwrap(), &moved).await.unwrap();
    assert!(db.get(e.item_key().unwrap()).await.unwrap().is_none());
    assert_eq!(
        db.get(moved.item_key().unwrap()).await.unwrap(),
        Some(moved.clone())
    );
    // The new side exists: moving another item onto it fails, both stay.
    let other = Employee {
        number: 8,
        ..e.clone()
    };
    db.put(&other).await.unwrap();
    let clash = db.move_item(other.item_key().unwrap(), &moved).await;
    assert!(
        matches!(clash, Err(Error::TransactionCanceled { .. })),
        "{clash:?}"
    );
    assert_eq!(
        db.get(other.item_key().unwrap()).await.unwrap(),
        Some(other)
    );
    // The old side is gone now: a second move fails cleanly and changes nothing.
    let again = db.move_item(e.item_key().unwrap(), &moved).await;
    assert!(
        matches!(again, Err(Error::TransactionCanceled { .. })),
        "{again:?}"
    );
    assert_eq!(
        db.get(moved.item_key().unwrap()).await.unwrap(),
        Some(moved)
    );
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "COUNTER")]
#[pk("COUNTER#<name>")]
#[sk("COUNTER")]
struct Counter {
    name: String,
    hits: u64,
    #[dynamo(version)]
    version: u64,
}

#[tokio::test]
async fn optimistic_lock_loses_no_increment_with_8_writers() {
    let f = fixture(&[Counter::META]).await;
    let db = Arc::new(f.db.clone());
    db.put(&Counter {
        name: "c".into(),
        hits: 0,
        version: 0,
    })
    .await
    .unwrap();
    // A stale put fails: the stored version is now 1.
    let stale = db
        .put(&Counter {
            name: "c".into(),
            hits: 99,
            version: 0,
        })
        .await;
    assert!(
        matches!(stale, Err(Error::ConditionFailed { .. })),
        "{stale:?}"
    );

    const WRITERS: usize = 8;
    const EACH: u64 = 5;
    // moto does not lock a conditional write against a simultaneous one
    // (DynamoDB and the embedded engine do), so against a server the puts
    // are sent one at a time; the reads still go stale under the other
    // writers, so the conflicts and retries are the same.
    let one_put_at_a_time = Arc::new(tokio::sync::Mutex::new(!f.local.is_embedded()));
    let mut tasks = Vec::new();
    for _ in 0..WRITERS {
        let db = Arc::clone(&db);
        let gate = Arc::clone(&one_put_at_a_time);
        tasks.push(tokio::spawn(async move {
            let mut conflicts = 0u32;
            for _ in 0..EACH {
                loop {
                    let mut c = db
                        .get(Counter::key("c").unwrap())
                        .consistent()
                        .await
                        .unwrap()
                        .unwrap();
                    c.hits += 1;
                    let held = gate.lock().await;
                    let guard = if *held {
                        Some(held)
                    } else {
                        drop(held);
                        None
                    };
                    let put = db.put(&c).await;
                    drop(guard);
                    match put {
                        Ok(_) => break,
                        Err(Error::ConditionFailed { .. }) => conflicts += 1,
                        Err(e) => panic!("{e}"),
                    }
                }
            }
            conflicts
        }));
    }
    let mut conflicts = 0;
    for t in tasks {
        conflicts += t.await.unwrap();
    }
    let c = db
        .get(Counter::key("c").unwrap())
        .consistent()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(c.hits, WRITERS as u64 * EACH, "after {conflicts} conflicts");
    assert_eq!(c.version, 1 + WRITERS as u64 * EACH);

    // A typed update checks and bumps the version too.
    db.update(Counter::update("c").increment_hits(1).if_version(c.version))
        .await
        .unwrap();
    let stale = db
        .update(Counter::update("c").increment_hits(1).if_version(c.version))
        .await;
    assert!(matches!(stale, Err(Error::ConditionFailed { .. })));
    let c2 = db
        .get(Counter::key("c").unwrap())
        .consistent()
        .await
        .unwrap()
        .unwrap();
    assert_eq!((c2.hits, c2.version), (c.hits + 1, c.version + 1));
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SESSION_TOKEN")]
#[pk("TOKEN#<token>")]
struct SessionToken {
    token: String,
    #[dynamo(ttl)]
    expires: OffsetDateTime,
}

#[tokio::test]
async fn ttl_is_stored_as_epoch_seconds_and_enabled_on_the_table() {
    let f = fixture(&[SessionToken::META]).await;
    let db = &f.db;
    let at = datetime!(2030-01-01 0:00 UTC);
    db.put(&SessionToken {
        token: "t1".into(),
        expires: at,
    })
    .await
    .unwrap();
    let out = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .key(
            "pk",
            aws_sdk_dynamodb::types::AttributeValue::S("TOKEN#t1".into()),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        out.item().unwrap()["expires"].as_n().unwrap(),
        &at.unix_timestamp().to_string()
    );
    let ttl = db
        .client()
        .describe_time_to_live()
        .table_name(db.table_name())
        .send()
        .await
        .unwrap();
    let desc = ttl.time_to_live_description().unwrap();
    assert_eq!(desc.attribute_name(), Some("expires"));
    assert_eq!(
        desc.time_to_live_status().map(|s| s.as_str()),
        Some("ENABLED")
    );
}

#[tokio::test]
async fn update_return_values() {
    let f = fixture(&[WorkItem::META]).await;
    let db = &f.db;
    let id = Uuid::now_v7();
    let w = WorkItem {
        id,
        owner: "ann".into(),
        status: WorkStatus::Open,
    };
    db.put(&w).await.unwrap();
    let old = db
        .update(WorkItem::update(id).set_owner("bob"))
        .return_old()
        .await
        .unwrap();
    assert_eq!(old, Some(w.clone()));
    let new = db
        .update(WorkItem::update(id).set_status(WorkStatus::Closed))
        .return_new()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (new.owner.as_str(), new.status),
        ("bob", WorkStatus::Closed)
    );
    let updated = db
        .update(WorkItem::update(id).set_owner("cy"))
        .return_updated_new()
        .send_raw()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(updated["owner"].as_s().unwrap(), "cy");
    assert_eq!(updated["gsi1pk"].as_s().unwrap(), "OWNER#cy");
    assert!(
        !updated.contains_key("status"),
        "only updated attributes: {updated:?}"
    );
    let before = db
        .update(WorkItem::update(id).set_owner("dee"))
        .return_updated_old()
        .send_raw()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(before["owner"].as_s().unwrap(), "cy");
    assert_eq!(
        db.update(WorkItem::update(id).set_owner("eve"))
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn typed_update_inside_a_transaction() {
    let f = fixture(&[QueuedJob::META, Article::META]).await;
    let db = &f.db;
    let id = Uuid::now_v7();
    db.put(&Article {
        id: "a1".into(),
        featured_on: None,
    })
    .await
    .unwrap();
    // Enqueue a job and feature the article in one transaction.
    db.transact_write()
        .put_with(
            &QueuedJob {
                id,
                shard: Some(2),
                claim_shard: None,
                owner: None,
                claimed_until: None,
                payload: "feature a1".into(),
            },
            |p| p.if_not_exists(),
        )
        .update(Article::update("a1").set_featured_on(date!(2026 - 07 - 16)))
        .send()
        .await
        .unwrap();
    assert_eq!(
        db.query(QueuedJob::gsi2_pk(2).unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        db.query(Article::gsi2_pk().unwrap()).count().await.unwrap(),
        1
    );
    // A failing condition on the typed update cancels the whole transaction.
    let err = db
        .transact_write()
        .put(&QueuedJob {
            id: Uuid::now_v7(),
            shard: Some(2),
            claim_shard: None,
            owner: None,
            claimed_until: None,
            payload: "x".into(),
        })
        .update_with(Article::update("a1").remove_featured_on(), |u| {
            u.condition(Article::attrs().featured_on.not_exists())
        })
        .send()
        .await
        .unwrap_err();
    match err {
        Error::TransactionCanceled { reasons } => {
            assert!(
                reasons.iter().any(|r| r.code == "ConditionalCheckFailed"),
                "{reasons:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        db.query(QueuedJob::gsi2_pk(2).unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
}

#[tokio::test]
async fn typed_conditions_in_puts_deletes_filters_and_checks() {
    let f = fixture(&[WorkItem::META, Subscriber::META]).await;
    let db = &f.db;
    let a = WorkItem::attrs();
    let (w1, w2) = (Uuid::now_v7(), Uuid::now_v7());
    db.put(&WorkItem {
        id: w1,
        owner: "ann".into(),
        status: WorkStatus::Open,
    })
    .await
    .unwrap();
    db.put(&WorkItem {
        id: w2,
        owner: "ann".into(),
        status: WorkStatus::Closed,
    })
    .await
    .unwrap();

    // Put: replace only an open item.
    let reopen = db
        .put(&WorkItem {
            id: w2,
            owner: "bob".into(),
            status: WorkStatus::Open,
        })
        .condition(a.status.eq(WorkStatus::Open))
        .await;
    assert!(matches!(reopen, Err(Error::ConditionFailed { .. })));
    db.put(&WorkItem {
        id: w1,
        owner: "ann".into(),
        status: WorkStatus::Open,
    })
    .condition(a.status.eq(WorkStatus::Open).and(a.owner.begins_with("a")))
    .await
    .unwrap();

    // Query filter: both items share the index partition.
    let open = db
        .query(WorkItem::gsi1_pk("ann").unwrap())
        .filter(a.status.ne(WorkStatus::Closed))
        .all()
        .await
        .unwrap();
    assert_eq!(open.iter().map(|w| w.id).collect::<Vec<_>>(), [w1]);
    let in_list = db
        .query(WorkItem::gsi1_pk("ann").unwrap())
        .filter(a.status.is_in([WorkStatus::Open, WorkStatus::Closed]))
        .count()
        .await
        .unwrap();
    assert_eq!(in_list, 2);
    let typed = db
        .query(WorkItem::gsi1_pk("ann").unwrap())
        .filter(a.owner.attribute_type("S").and(a.owner.size().eq(3)))
        .count()
        .await
        .unwrap();
    assert_eq!(typed, 2);

    // Transaction condition check on another type.
    db.put(&Subscriber {
        id: "s1".into(),
        plan: Some("pro".into()),
        since: Some(date!(2026 - 07 - 16)),
    })
    .await
    .unwrap();
    let s = Subscriber::attrs();
    db.transact_write()
        .check(
            Subscriber::key("s1").unwrap(),
            s.plan.eq("pro").and(
                s.since
                    .between(date!(2026 - 01 - 01), date!(2026 - 12 - 31)),
            ),
        )
        .update(WorkItem::update(w1).set_status(WorkStatus::Closed))
        .send()
        .await
        .unwrap();
    let failed = db
        .transact_write()
        .check(Subscriber::key("s1").unwrap(), s.plan.eq("free"))
        .update(WorkItem::update(w1).set_status(WorkStatus::Open))
        .send()
        .await;
    match failed {
        Err(Error::TransactionCanceled { reasons }) => {
            let r = reasons
                .iter()
                .find(|r| r.code == "ConditionalCheckFailed")
                .expect("a failed check");
            assert_eq!(r.index, 0);
            assert_eq!(r.target.discriminator, "SUBSCRIBER");
        }
        other => panic!("{other:?}"),
    }

    // Delete: only a closed item.
    let d = db
        .delete(WorkItem::key(w1).unwrap())
        .condition(a.status.eq(WorkStatus::Open))
        .await;
    assert!(matches!(d, Err(Error::ConditionFailed { .. })));
    db.delete(WorkItem::key(w1).unwrap())
        .condition(a.status.eq(WorkStatus::Closed))
        .await
        .unwrap();
    assert!(db.get(WorkItem::key(w1).unwrap()).await.unwrap().is_none());
}

#[tokio::test]
async fn versioned_puts_are_checked_inside_transactions_too() {
    let f = fixture(&[Counter::META]).await;
    let db = &f.db;
    db.transact_write()
        .put(&Counter {
            name: "t".into(),
            hits: 1,
            version: 0,
        })
        .send()
        .await
        .unwrap();
    let stored = db
        .get(Counter::key("t").unwrap())
        .consistent()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.version, 1);
    // A second writer that read version 0 is refused inside the transaction.
    let stale = db
        .transact_write()
        .put(&Counter {
            name: "t".into(),
            hits: 2,
            version: 0,
        })
        .send()
        .await;
    assert!(
        matches!(stale, Err(Error::TransactionCanceled { .. })),
        "{stale:?}"
    );
    db.transact_write()
        .put(&Counter { hits: 5, ..stored })
        .send()
        .await
        .unwrap();
    let now = db
        .get(Counter::key("t").unwrap())
        .consistent()
        .await
        .unwrap()
        .unwrap();
    assert_eq!((now.hits, now.version), (5, 2));
}

/// A type the next test's macro names through `$crate`.
pub type Count = u32;

/// Declares an entity the way a user's `macro_rules!` would, with field
/// types written `$crate::..` (which the derive cannot write back as source
/// text: `$crate` exists only inside the macro's expansion).
macro_rules! declare_counter {
    ($name:ident) => {
        #[derive(DynamoEntity, Debug, Clone, PartialEq)]
        #[dynamo(entity = "COUNTER")]
        #[pk("COUNTER#<id>")]
        #[sk("COUNTER")]
        pub struct $name {
            pub id: String,
            pub hits: $crate::Count,
            pub note: Option<$crate::Count>,
        }
    };
}

declare_counter!(Hits);

#[tokio::test]
async fn entities_declared_by_a_macro_with_crate_paths() {
    let f = fixture(&[Hits::META]).await;
    let db = &f.db;
    let c = Hits {
        id: "a".into(),
        hits: 7,
        note: Some(1),
    };
    assert_eq!(Hits::from_item(&c.to_item().unwrap()).unwrap(), c);
    db.put(&c).await.unwrap();
    db.update(Hits::update("a").set_hits(8u32).remove_note())
        .await
        .unwrap();
    db.update(Hits::update("a").set_hits_if_not_exists(1u32))
        .await
        .unwrap();
    let got = db.get(Hits::key("a").unwrap()).await.unwrap();
    let want = Hits {
        id: "a".into(),
        hits: 8,
        note: None,
    };
    assert_eq!(got, Some(want.clone()));
    assert_eq!(
        raw(db, "COUNTER#a", "COUNTER").await,
        want.to_item().unwrap()
    );
    drop(f.local);
}
