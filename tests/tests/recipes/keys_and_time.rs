//! Seeds 001 and 003: keys that hold a hierarchy, a time or a shard.

use dynakey::{uuid7, Entity};
use dynakey_examples::recipes::{
    composite_sort_keys, large_objects, reverse_timestamp, sharded_time_series, time_buckets,
    uuid7_newest_first, write_sharding, zero_padded,
};
use dynakey_examples::seeds::*;
use time::macros::datetime;
use time::Duration;

use super::{fixture, s, stored};

#[tokio::test]
async fn composite_sort_keys_read_any_depth() {
    let f = fixture(composite_sort_keys::RECIPE);
    composite_sort_keys::setup(&f.db).await.unwrap();
    let r = composite_sort_keys::run(&f.db).await.unwrap();
    assert_eq!(r.everyone, 8, "acme only, not globex");
    assert_eq!(r.in_switzerland, 4);
    assert_eq!(r.in_zurich, [1, 2, 10], "d6: 10 after 2");
    assert_eq!(r.in_york, [5, 7], "York does not select Yorkshire");
    assert_eq!(r.zurich_2_to_10, [2, 10]);
    assert_eq!(
        r.zurich_keys,
        [
            "SITE#CH#Zurich#EMP#000001",
            "SITE#CH#Zurich#EMP#000002",
            "SITE#CH#Zurich#EMP#000010"
        ]
    );
    let deltas: Vec<i32> = r.adjustments.iter().map(|(d, _)| *d).collect();
    assert_eq!(deltas, [-10, -2, 0, 3, 250]);
    assert_eq!(r.adjustments[0].1, "DELTA#-9990");
    assert!(
        r.negative_error.contains("field `number`"),
        "{}",
        r.negative_error
    );

    let e = stored(&f.db, Employee::key("acme", "GB", "Yorkshire", 6).unwrap()).await;
    assert_eq!(
        (s(&e, "pk"), s(&e, "sk"), s(&e, "_type")),
        (
            Some("ORG#acme"),
            Some("SITE#GB#Yorkshire#EMP#000006"),
            Some("EMPLOYEE")
        )
    );
    f.done().await;
}

#[tokio::test]
async fn v7_uuids_read_newest_first_and_by_time_range() {
    let f = fixture(uuid7_newest_first::RECIPE);
    uuid7_newest_first::setup(&f.db).await.unwrap();
    let r = uuid7_newest_first::run(&f.db).await.unwrap();
    let newest: Vec<String> = (10..30).rev().map(|i| format!("m{i:02}")).collect();
    assert_eq!(r.newest, newest);
    assert!(r.newest_has_more);
    // Messages 5 minutes apart; the hour before m29 (at +145 min) holds
    // m17 (+85 min) to m29, both ends' milliseconds whole.
    let hour: Vec<String> = (17..30).map(|i| format!("m{i:02}")).collect();
    assert_eq!(r.last_hour, hour);
    assert_eq!(r.since_yesterday, 30, "room bob is not read");
    assert_eq!(r.newest_key.1, uuid7_newest_first::sent_at(29));
    assert_eq!(r.newest_key.0, r.newest_key.0.to_lowercase());

    let id = uuid7::at(uuid7_newest_first::sent_at(29));
    let msgs =
        f.db.query(ChatMessage::pk("ann").unwrap())
            .sk(ChatMessage::sk()
                .ge(uuid7::first(uuid7_newest_first::sent_at(29)))
                .unwrap())
            .all()
            .await
            .unwrap();
    assert_eq!(msgs.len(), 1);
    assert_eq!(uuid7::time_of(msgs[0].id), uuid7::time_of(id));
    let item = stored(&f.db, msgs[0].item_key().unwrap()).await;
    assert_eq!(s(&item, "pk"), Some("ROOM#ann"));
    assert_eq!(
        s(&item, "sk"),
        Some(msgs[0].id.hyphenated().to_string().as_str())
    );
    f.done().await;
}

#[tokio::test]
async fn write_sharding_random_fan_out_and_hashed_get() {
    let f = fixture(write_sharding::RECIPE);
    write_sharding::setup(&f.db).await.unwrap();
    let r = write_sharding::run(&f.db).await.unwrap();
    assert_eq!(r.total, 40);
    assert_eq!(r.per_shard.len(), 4);
    assert_eq!(r.per_shard.iter().sum::<u64>(), 40);
    let times: Vec<_> = (0..40)
        .map(|i| write_sharding::START + Duration::seconds(i))
        .collect();
    assert_eq!(r.merged, times, "merged across shards in time order");
    assert_eq!(
        (r.fan_out.requests, r.fan_out.count),
        (4, 40),
        "one query per shard"
    );
    let newest: Vec<_> = times.iter().rev().take(5).copied().collect();
    assert_eq!(r.newest, newest);
    // The hash is stable: the same shards in every process.
    let shards: Vec<i32> = r.sessions.iter().map(|(_, s)| *s).collect();
    assert_eq!(shards, [2, 0, 3, 2, 0, 2, 0, 2]);
    assert_eq!(r.found.as_ref().map(|s| s.user.as_str()), Some("user1"));
    assert_eq!((r.get.requests, r.get.count), (1, 1));

    let shard = write_sharding::session_shard("session-3");
    let item = stored(&f.db, UserSession::key(shard, "session-3").unwrap()).await;
    assert_eq!(
        (s(&item, "pk"), s(&item, "sk")),
        (Some("SESSIONS#03"), Some("session-3"))
    );
    let votes =
        f.db.query(Vote::pk("best-pet", 0).unwrap())
            .all()
            .await
            .unwrap();
    if let Some(v) = votes.first() {
        let item = stored(&f.db, v.item_key().unwrap()).await;
        assert_eq!(s(&item, "pk"), Some("VOTES#best-pet#00"));
    }
    f.done().await;
}

#[tokio::test]
async fn time_buckets_read_every_bucket_of_a_range() {
    let f = fixture(time_buckets::RECIPE);
    time_buckets::setup(&f.db).await.unwrap();
    let r = time_buckets::run(&f.db).await.unwrap();
    // 24 h from 09:00, both ends: 49 samples of 30 minutes, values 66..=114.
    let values: Vec<i32> = (66..=114).collect();
    let [cpu, mem] = &r.reads[..] else {
        panic!("{:?}", r.reads)
    };
    assert_eq!(cpu.values, values);
    assert_eq!(mem.values, values);
    // 09:00..09:00 touches 5 six-hour buckets and 25 one-hour buckets.
    assert_eq!((cpu.partitions.len(), cpu.usage.requests), (5, 5));
    assert_eq!((mem.partitions.len(), mem.usage.requests), (25, 25));
    let six = time_buckets::BucketSize(Duration::hours(6));
    assert_eq!(
        cpu.partitions[0],
        format!("METRIC#cpu#{:010}", six.of(time_buckets::FROM))
    );

    let at = time_buckets::FROM;
    let item = stored(&f.db, MetricSample::key("cpu", six.of(at), at).unwrap()).await;
    assert_eq!(s(&item, "pk"), Some("METRIC#cpu#0000082601"));
    assert_eq!(s(&item, "sk"), Some("2026-07-16T09:00:00.000000000Z"));
    f.done().await;
}

#[tokio::test]
async fn large_objects_chunks_manifest_and_versions() {
    let f = fixture(large_objects::RECIPE);
    large_objects::setup(&f.db).await.unwrap();
    let r = large_objects::run(&f.db).await.unwrap();
    assert_eq!(r.first_chunks, 3);
    assert!(r.first_ok);
    assert_eq!(r.read_usage.requests, 2, "one get, one query");
    assert_eq!(r.second_chunks, 2);
    // The naive reader appends the leftover third chunk of the old content.
    assert_eq!(
        r.naive_len,
        large_objects::SECOND_LEN + (large_objects::FIRST_LEN - 2 * large_objects::CHUNK)
    );
    assert_eq!(r.manifest_len, large_objects::SECOND_LEN);
    assert!(r.manifest_ok);
    assert!(r.too_large.contains("400 KB"), "{}", r.too_large);
    assert!(r.versioned_old_reader_ok);
    assert!(r.versioned_new_reader_ok);
    assert!(r.stale_switch_refused);
    assert_eq!(r.old_chunks_after_cleanup, 0);

    let m = stored(&f.db, FileManifest::key("report").unwrap()).await;
    assert_eq!(
        (s(&m, "pk"), s(&m, "sk")),
        (Some("FILE#report"), Some("MANIFEST"))
    );
    assert_eq!(m["chunks"].as_n().map(String::as_str), Ok("2"));
    let c = stored(&f.db, FileChunk::key("report", 1).unwrap()).await;
    assert_eq!(s(&c, "sk"), Some("CHUNK#0001"));
    assert_eq!(
        c["data"].as_b().unwrap().as_ref().len(),
        large_objects::SECOND_LEN - large_objects::CHUNK
    );
    let v = stored(&f.db, VersionChunk::key("logo", 2, 0).unwrap()).await;
    assert_eq!(s(&v, "sk"), Some("VERSION#000002#CHUNK#0000"));
    let cur =
        f.db.get(CurrentVersion::key("logo").unwrap())
            .await
            .unwrap();
    assert_eq!(cur.map(|c| (c.version, c.chunks)), Some((2, 2)));
    assert_eq!(
        large_objects::read_file(&f.db, "missing").await.unwrap(),
        None,
        "no manifest, no file"
    );
    f.done().await;
}

#[tokio::test]
async fn reverse_timestamp_orders_newest_first_inside_a_composite() {
    let f = fixture(reverse_timestamp::RECIPE);
    reverse_timestamp::setup(&f.db).await.unwrap();
    let r = reverse_timestamp::run(&f.db).await.unwrap();
    let pairs = |v: &[(&str, &str)]| {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        r.forward,
        pairs(&[
            ("C-050", "o4"),
            ("C-100", "o5"),
            ("C-100", "o3"),
            ("C-100", "o1"),
            ("C-200", "o6"),
            ("C-200", "o2"),
        ])
    );
    let mut flipped = r.forward.clone();
    flipped.reverse();
    assert_eq!(r.descending, flipped, "descending flips the customers too");
    assert_eq!(r.c100, ["o5", "o3", "o1"]);
    let (sk, ms) = &r.o5_sk;
    assert_eq!(sk, &format!("C-100#{:013}#o5", 9_999_999_999_999 - ms));

    let o5 = reverse_timestamp::ORDERS[4];
    let at = reverse_timestamp::START + Duration::minutes(o5.2);
    let item = stored(&f.db, StoreOrder::key("s1", "C-100", at, "o5").unwrap()).await;
    assert_eq!(s(&item, "sk"), Some(sk.as_str()));
    assert!(
        item.contains_key("placed_at"),
        "the real time stays an attribute"
    );
    let back = StoreOrder::from_item(&item).unwrap();
    assert_eq!(back.placed_at, at);
    f.done().await;
}

#[tokio::test]
async fn sharded_time_series_month_and_quarter() {
    let f = fixture(sharded_time_series::RECIPE);
    sharded_time_series::setup(&f.db).await.unwrap();
    let r = sharded_time_series::run(&f.db).await.unwrap();
    assert_eq!(r.july.0, 31 * 4);
    assert_eq!(r.july.1.requests, 1);
    assert_eq!(r.quarter.0, sharded_time_series::EVENTS as usize);
    assert!(r.quarter.1, "merged in time order");
    assert_eq!(r.quarter.2.requests, 3);
    // 10 July 00:00 is event (30 + 9) * 4 = 156; to 12 July 00:00, 164.
    assert_eq!(r.window, (156..=164).collect::<Vec<_>>());
    assert_eq!(r.first_key.0, "DEVICE#device-7#2026-06");
    assert_eq!(r.first_key.1, "TS#1780272000000");

    let at = datetime!(2026-07-10 00:00 UTC);
    let key = DeviceEvent::key("device-8", "2026-07", sharded_time_series::millis(at)).unwrap();
    let item = stored(&f.db, key).await;
    assert_eq!(s(&item, "pk"), Some("DEVICE#device-8#2026-07"));
    assert_eq!(
        s(&item, "sk"),
        Some(format!("TS#{:013}", sharded_time_series::millis(at)).as_str())
    );
    f.done().await;
}

#[tokio::test]
async fn zero_padding_keeps_number_order() {
    let f = fixture(zero_padded::RECIPE);
    zero_padded::setup(&f.db).await.unwrap();
    let r = zero_padded::run(&f.db).await.unwrap();
    assert_eq!(r.padded, [1, 2, 3, 9, 10, 11, 100]);
    assert_eq!(r.padded_keys[4], "ITEM#000010");
    assert_eq!(
        r.hand_made,
        ["item-1", "item-10", "item-100", "item-11", "item-2", "item-3", "item-9"]
    );
    assert_eq!(r.padded_from_2, [2, 3, 9, 10, 11, 100]);
    assert_eq!(r.hand_made_from_2, ["item-2", "item-3", "item-9"]);
    assert!(r.too_wide.contains("6 digits"), "{}", r.too_wide);

    let t = stored(&f.db, Ticket::key("p1", 2).unwrap()).await;
    assert_eq!(
        (s(&t, "pk"), s(&t, "sk")),
        (Some("PROJECT#p1"), Some("ITEM#000002"))
    );
    f.done().await;
}
