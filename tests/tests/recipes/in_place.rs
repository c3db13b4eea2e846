//! Seeds 000 and 001, the recipes that change items in place through typed
//! updates and `move`: sparse index (subscribe/unsubscribe, featured
//! articles, `omit_empty`), the queue (claim, completion, reaper, priority,
//! concurrent workers), status keys (close, `move`) and soft delete.

use std::collections::BTreeSet;

use dynakey::Entity;
use dynakey_examples::recipes::{queue, soft_delete, sparse_index, status_timestamp};
use dynakey_examples::seeds::*;
use time::macros::date;
use time::Duration;

use super::{fixture, s, stored};

fn ids<T>(v: &[T], id: impl Fn(&T) -> &str) -> Vec<&str> {
    v.iter().map(id).collect()
}

#[tokio::test]
async fn sparse_index_is_entered_and_left_by_updates() {
    let f = fixture(sparse_index::RECIPE);
    sparse_index::setup(&f.db).await.unwrap();
    let r = sparse_index::run(&f.db).await.unwrap();
    let sub = |v: &[Subscriber]| {
        v.iter()
            .map(|s| (s.id.clone(), s.plan.clone(), s.since))
            .collect::<Vec<_>>()
    };
    let pro = |id: &str, since| (id.to_owned(), Some("pro".to_owned()), Some(since));
    assert_eq!(
        sub(&r.pro),
        [
            pro("s3", date!(2026 - 06 - 15)),
            pro("s1", date!(2026 - 07 - 01))
        ]
    );
    // Subscribe: s2 enters, last (newest `since`).
    assert_eq!(
        sub(&r.pro_after_subscribe),
        [
            pro("s3", date!(2026 - 06 - 15)),
            pro("s1", date!(2026 - 07 - 01)),
            pro("s2", sparse_index::SUBSCRIBED_ON)
        ]
    );
    // Unsubscribe: s1 leaves the index but stays in the table.
    assert_eq!(
        sub(&r.pro_after_unsubscribe),
        [
            pro("s3", date!(2026 - 06 - 15)),
            pro("s2", sparse_index::SUBSCRIBED_ON)
        ]
    );
    assert_eq!(
        r.s1_in_table,
        Some(Subscriber {
            id: "s1".into(),
            plan: None,
            since: Some(date!(2026 - 07 - 01))
        })
    );
    assert_eq!(r.team_before_put, ["s4"]);
    assert!(r.team_after_put.is_empty());

    let days = |v: &[Article]| {
        v.iter()
            .map(|a| (a.id.clone(), a.featured_on))
            .collect::<Vec<_>>()
    };
    let a = |id: &str, d| (id.to_owned(), Some(d));
    assert_eq!(
        days(&r.featured),
        [
            a("a4", date!(2026 - 07 - 01)),
            a("a1", date!(2026 - 07 - 10)),
            a("a3", date!(2026 - 07 - 12))
        ]
    );
    assert_eq!(
        days(&r.featured_after),
        [
            a("a4", date!(2026 - 07 - 01)),
            a("a1", date!(2026 - 07 - 10)),
            a("a2", sparse_index::A2_FEATURED_ON)
        ]
    );
    assert_eq!(
        days(&r.featured_in_range),
        [
            a("a1", date!(2026 - 07 - 10)),
            a("a2", sparse_index::A2_FEATURED_ON)
        ]
    );
    let legacy = |id: &str| LegacySubscriber {
        id: id.into(),
        plan: "pro".into(),
    };
    assert_eq!(r.legacy_pro, [legacy("l2")]);
    assert_eq!(r.legacy_pro_after_update, [legacy("l1")]);

    // Stored shapes: each index key attribute present exactly while its
    // own inputs are; the item is in the index while both are.
    let s1 = stored(&f.db, Subscriber::key("s1").unwrap()).await;
    for absent in ["gsi2pk", "plan"] {
        assert!(!s1.contains_key(absent), "s1 still has {absent}");
    }
    assert_eq!(s(&s1, "gsi2sk"), Some("SINCE#2026-07-01"));
    assert!(s1.contains_key("since"));
    let s2 = stored(&f.db, Subscriber::key("s2").unwrap()).await;
    assert_eq!(
        (s(&s2, "plan"), s(&s2, "gsi2pk"), s(&s2, "gsi2sk")),
        (Some("pro"), Some("PLAN#pro"), Some("SINCE#2026-07-16"))
    );
    let s4 = stored(&f.db, Subscriber::key("s4").unwrap()).await;
    assert!(!s4.contains_key("gsi2pk") && !s4.contains_key("gsi2sk"));
    let a2 = stored(&f.db, Article::key("a2").unwrap()).await;
    assert_eq!(
        (s(&a2, "gsi2pk"), s(&a2, "gsi2sk")),
        (Some("FEATURED"), Some("ON#2026-07-11"))
    );
    let a3 = stored(&f.db, Article::key("a3").unwrap()).await;
    for absent in ["gsi2sk", "featured_on"] {
        assert!(!a3.contains_key(absent), "a3 still has {absent}");
    }
    // The constant partition key `FEATURED` has no input: always written.
    assert_eq!(s(&a3, "gsi2pk"), Some("FEATURED"));
    let ldb = sparse_index::legacy_db(&f.db);
    let l1 = stored(&ldb, LegacySubscriber::key("l1").unwrap()).await;
    assert_eq!(
        (s(&l1, "plan"), s(&l1, "gsi2pk")),
        (Some("pro"), Some("PLAN#pro"))
    );
    let l2 = stored(&ldb, LegacySubscriber::key("l2").unwrap()).await;
    assert!(!l2.contains_key("plan") && !l2.contains_key("gsi2pk"));
    f.done().await;
}

#[tokio::test]
async fn status_change_moves_inside_the_index_and_a_key_change_is_a_move() {
    let f = fixture(status_timestamp::RECIPE);
    status_timestamp::setup(&f.db).await.unwrap();
    let r = status_timestamp::run(&f.db).await.unwrap();
    // Orders 0..30, every sixth (5, 11, …) shipped: the 20 newest open ones.
    let expect: Vec<String> = (0..30)
        .rev()
        .filter(|i| i % 6 != 5)
        .take(20)
        .map(|i| format!("o{i:02}"))
        .collect();
    assert_eq!(r.open_newest, expect);
    assert!(r.open_has_more);
    assert_eq!(r.open_count, 25);
    assert_eq!(r.shipped, ["o29", "o23", "o17", "o11", "o05"]);
    assert_eq!(r.first_sk, "Open#2026-07-01T00:00:00.000000000Z#o00");

    // Status-keyed index: oldest first, this week; the close moves the item
    // from Open# to Closed# (after the item closed 2 days ago, by id).
    assert_eq!(r.ann_open, ["10d ago", "3d ago", "1d ago"]);
    assert_eq!(r.ann_this_week, ["3d ago", "1d ago"]);
    assert_eq!(r.ann_open_after_close, ["10d ago", "1d ago"]);
    assert_eq!(r.ann_this_week_after_close, ["1d ago"]);
    assert_eq!(r.ann_closed_after_close, ["3d ago", "2d ago"]);
    let (gsi1sk, closed_id) = &r.closed_gsi1sk;
    assert_eq!(gsi1sk, &format!("Closed#{closed_id}"));
    assert_eq!(r.close_missing, Err("ConditionFailed".to_owned()));
    let w = stored(&f.db, WorkItem::key(*closed_id).unwrap()).await;
    assert_eq!(
        (s(&w, "status"), s(&w, "gsi1pk")),
        (Some("Closed"), Some("OWNER#ann"))
    );

    // move: o04 shipped, one open fewer; each failed move changes nothing.
    assert_eq!(r.open_count_after_move, 24);
    assert_eq!(
        r.shipped_after_move,
        ["o29", "o23", "o17", "o11", "o05", "o04"]
    );
    let codes = |v: &[&str]| Err(v.iter().map(|c| c.to_string()).collect::<Vec<_>>());
    assert_eq!(
        r.move_again,
        codes(&["ConditionalCheckFailed", "ConditionalCheckFailed"])
    );
    assert_eq!(r.move_missing, codes(&["ConditionalCheckFailed", "None"]));
    assert!(!r.missing_written);
    assert_eq!(
        r.move_onto_taken,
        codes(&["None", "ConditionalCheckFailed"])
    );
    assert!(r.o06_still_open);

    let at4 = status_timestamp::START + Duration::hours(status_timestamp::MOVED);
    let shipped = stored(
        &f.db,
        CustomerOrder::key("C-100", OrderStatus::Shipped, at4, "o04").unwrap(),
    )
    .await;
    assert_eq!(
        (s(&shipped, "sk"), s(&shipped, "status")),
        (
            Some("Shipped#2026-07-01T04:00:00.000000000Z#o04"),
            Some("Shipped")
        )
    );
    let old = CustomerOrder::key("C-100", OrderStatus::Open, at4, "o04").unwrap();
    assert!(dynakey_examples::raw_item(&f.db, &old)
        .await
        .unwrap()
        .is_none());
    f.done().await;
}

#[tokio::test]
async fn soft_delete_and_restore_by_update() {
    let f = fixture(soft_delete::RECIPE);
    soft_delete::setup(&f.db).await.unwrap();
    let r = soft_delete::run(&f.db).await.unwrap();
    assert_eq!(r.live, ["n1", "n3", "n4"], "by live_since, n2 deleted");
    let table: Vec<(&str, bool)> = r.table.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    assert_eq!(
        table,
        [("n1", false), ("n2", true), ("n3", false), ("n4", false)]
    );
    assert_eq!(r.bob_live, ["n9"]);
    assert_eq!(r.live_after_delete, ["n1", "n4"], "no filter needed");
    assert_eq!(
        r.n3_after_delete,
        Some(Note {
            owner: "ann".into(),
            id: "n3".into(),
            live_since: None,
            deleted_at: Some(soft_delete::DELETED_AT)
        }),
        "a get still finds it, with its mark"
    );
    assert_eq!(r.second_delete, Err("ConditionFailed".to_owned()));
    assert_eq!(r.n3_deleted_at, Some(soft_delete::DELETED_AT));
    assert_eq!(r.live_after_restore, ["n1", "n4", "n2"]);
    assert_eq!(r.restore_missing, Err("ConditionFailed".to_owned()));
    assert!(!r.missing_created);
    assert_eq!(r.owned_live, [1, 0, 1]);
    assert_eq!(r.owned_orphan_restore, Ok(()));
    let o2 = r.o2_after.clone().unwrap();
    assert_eq!(
        (o2.owner, o2.live_since, o2.deleted_at),
        (None, Some(soft_delete::RESTORED_AT), None),
        "restored, and out of the owner index for want of an owner"
    );

    let n3 = stored(&f.db, Note::key("ann", "n3").unwrap()).await;
    for absent in ["gsi2sk", "live_since"] {
        assert!(!n3.contains_key(absent), "n3 still has {absent}");
    }
    assert_eq!(s(&n3, "gsi2pk"), Some("OWNER#ann"), "from the table key");
    assert!(n3.contains_key("deleted_at"));
    let n2 = stored(&f.db, Note::key("ann", "n2").unwrap()).await;
    assert_eq!(
        (s(&n2, "gsi2pk"), s(&n2, "gsi2sk")),
        (
            Some("OWNER#ann"),
            Some("LIVE#2026-07-12T08:00:00.000000000Z")
        )
    );
    assert!(!n2.contains_key("deleted_at"));
    let o1 = stored(&f.db, OwnedNote::key("o1").unwrap()).await;
    assert_eq!(
        (s(&o1, "owner"), s(&o1, "gsi2pk"), s(&o1, "gsi2sk")),
        (
            Some("ann"),
            Some("ann"),
            Some("LIVE#2026-07-12T08:00:00.000000000Z")
        )
    );
    assert!(!o1.contains_key("deleted_at"));
    // o2 is restored without an owner: its sort key is back, its partition
    // key never existed, so it is out of GSI2.
    let o2 = stored(&f.db, OwnedNote::key("o2").unwrap()).await;
    assert!(!o2.contains_key("gsi2pk") && o2.contains_key("gsi2sk"));
    f.done().await;
}

#[tokio::test]
async fn queue_claims_completes_reaps_and_runs_200_jobs_on_4_workers() {
    let f = fixture(queue::RECIPE);
    queue::setup(&f.db).await.unwrap();
    let r = queue::run(&f.db).await.unwrap();

    // Enqueue and read.
    let jobs: Vec<String> = (0..queue::JOBS).map(|n| format!("ship u1/o{n}")).collect();
    assert_eq!(r.per_shard.len(), 4);
    assert_eq!(r.per_shard.iter().map(Vec::len).sum::<usize>(), queue::JOBS);
    for shard in &r.per_shard {
        let mut sorted = shard.clone();
        sorted.sort();
        assert_eq!(shard, &sorted, "a shard reads in enqueue order");
    }
    assert_eq!(r.all_pending, jobs, "merged by v7 id: enqueue order");
    assert!(
        r.duplicate.contains("ConditionalCheckFailed") && r.duplicate.contains("ORDER#o3"),
        "{}",
        r.duplicate
    );
    assert_eq!(r.pending_after_duplicate, queue::JOBS as u64);

    // Stale read: both saw the job, exactly one claim held.
    let st = &r.stale_read;
    assert_eq!(st.job, "ship u1/o0");
    assert_eq!(st.seen, [true, true]);
    // A claims first; B's claim rests on its stale read and fails.
    assert_eq!(st.claims, [Ok(()), Err("ConditionFailed".to_owned())]);
    assert!(st.completed);
    assert_eq!(st.loser_completes, Err("ConditionFailed".to_owned()));

    // Reaper: o1's claim ran out and went back; o2's holds.
    let rp = &r.reaper;
    assert_eq!(rp.stale, ["ship u1/o1"]);
    assert_eq!((rp.put_back, rp.raced), (1, 0));
    let pending_after: Vec<String> = [1, 3, 4, 5, 6, 7]
        .iter()
        .map(|n| format!("ship u1/o{n}"))
        .collect();
    assert_eq!(rp.pending_after, pending_after);
    assert_eq!(rp.claimed_after, ["ship u1/o2"]);
    assert_eq!(rp.late_completion, Err("ConditionFailed".to_owned()));

    // Priority: most urgent first, read and claimed.
    let prio: Vec<(u8, &str)> = r
        .by_priority
        .iter()
        .map(|(p, j)| (*p, j.as_str()))
        .collect();
    assert_eq!(
        prio,
        [
            (1, "job1"),
            (1, "job3"),
            (3, "job4"),
            (5, "job0"),
            (9, "job2")
        ]
    );
    assert_eq!(r.priority_claims, ["job1", "job3", "job4", "job0", "job2"]);

    // The concurrent run: every job completed exactly once, none lost.
    let w = &r.work;
    assert!(!w.timed_out, "deadline hit: {:?}", w.workers);
    assert_eq!(w.enqueued.len(), 200);
    assert_eq!(w.orders, 200, "no job without its order");
    assert_eq!(w.pending_per_shard.iter().sum::<u64>(), 200);
    assert!(
        w.pending_per_shard.iter().all(|n| *n > 0),
        "{:?}",
        w.pending_per_shard
    );
    let enqueued: BTreeSet<_> = w.enqueued.iter().copied().collect();
    assert_eq!(enqueued.len(), 200, "distinct ids");
    let completed: BTreeSet<_> = w.completions.keys().copied().collect();
    assert_eq!(completed, enqueued, "every job completed, no other");
    let twice: Vec<_> = w.completions.iter().filter(|(_, n)| **n != 1).collect();
    assert!(twice.is_empty(), "completed more than once: {twice:?}");
    assert!(w.exactly_once());
    assert_eq!(
        w.left,
        [0, 0, 0],
        "nothing pending, claimed or in the table"
    );
    assert_eq!(w.workers.len(), 4);
    let crashed: Vec<_> = w.workers.iter().filter(|s| s.crashed).collect();
    assert_eq!(crashed.len(), 1);
    assert_eq!((crashed[0].claims, crashed[0].completed), (5, 0));
    assert_eq!(w.abandoned.len(), 5);
    for id in &w.abandoned {
        assert_eq!(w.completions.get(id), Some(&1), "abandoned {id} lost");
    }
    assert!(w.reaper_put_back >= 5, "{}", w.reaper_put_back);
    assert_eq!(
        w.workers.iter().map(|s| s.completed).sum::<u64>(),
        200,
        "{:?}",
        w.workers
    );

    // Stored shapes of the walk-through's jobs: o2 claimed, o1 put back.
    let claimed =
        f.db.query_many((0..4).map(|s| QueuedJob::gsi1_pk(s).unwrap()))
            .all()
            .await
            .unwrap();
    assert_eq!(ids(&claimed, |j| j.payload.as_str()), ["ship u1/o2"]);
    let c = stored(&f.db, claimed[0].item_key().unwrap()).await;
    let shard = queue::shard_of(claimed[0].id);
    assert_eq!(s(&c, "gsi1pk"), Some(format!("CLAIMED#{shard}").as_str()));
    assert!(s(&c, "gsi1sk").is_some_and(|t| t.ends_with('Z')));
    for absent in ["gsi2pk", "shard"] {
        assert!(!c.contains_key(absent), "claimed job has {absent}");
    }
    // The pending index's sort key is the id, from the table key: it stays,
    // and the job is out of GSI2 for want of its partition key.
    assert_eq!(s(&c, "gsi2sk"), Some(claimed[0].id.to_string().as_str()));
    let pending =
        f.db.query_many((0..4).map(|s| QueuedJob::gsi2_pk(s).unwrap()))
            .all()
            .await
            .unwrap();
    let o1 = pending.iter().find(|j| j.payload == "ship u1/o1").unwrap();
    let p = stored(&f.db, o1.item_key().unwrap()).await;
    let shard = queue::shard_of(o1.id);
    assert_eq!(s(&p, "gsi2pk"), Some(format!("PENDING#{shard}").as_str()));
    assert_eq!(s(&p, "gsi2sk"), Some(o1.id.to_string().as_str()));
    for absent in ["gsi1pk", "gsi1sk", "owner", "claim_shard", "claimed_until"] {
        assert!(!p.contains_key(absent), "put-back job has {absent}");
    }
    f.done().await;
}
