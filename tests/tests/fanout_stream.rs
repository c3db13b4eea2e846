//! A fan-out as a stream: votes spread over random shards come back in time
//! order, page by page, on every backend.

use dynakey::Entity;
use dynakey_tests::seeds::Vote;
use futures_util::TryStreamExt;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

#[tokio::test]
async fn fan_out_stream_merges_shards_in_sort_key_order() {
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("f_{}", Uuid::new_v4().simple()));
    db.create_table(&[Vote::META]).await.unwrap();
    let t0 = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
    // 40 votes, one a second, on shards in a scrambled order.
    let mut votes = Vec::new();
    for i in 0..40i64 {
        let v = Vote {
            poll: "best-pet".into(),
            shard: ((i * 7) % 4) as i32,
            at: t0 + Duration::seconds(i),
            vote_id: Uuid::now_v7(),
        };
        db.put(&v).await.unwrap();
        votes.push(v);
    }
    let shards = || {
        (0..4)
            .map(|s| Vote::pk("best-pet", s).unwrap())
            .collect::<Vec<_>>()
    };
    // Small pages, so the merge must read several pages per shard.
    let streamed: Vec<Vote> = db
        .query_many(shards())
        .page_size(3)
        .stream()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, votes);
    let all = db.query_many(shards()).all().await.unwrap();
    assert_eq!(streamed, all);

    let newest: Vec<Vote> = db
        .query_many(shards())
        .descending()
        .limit(5)
        .stream()
        .try_collect()
        .await
        .unwrap();
    let expected: Vec<Vote> = votes.iter().rev().take(5).cloned().collect();
    assert_eq!(newest, expected);

    let none: Vec<Vote> = db
        .query_many(Vec::<dynakey::PartitionKey<Vote>>::new())
        .stream()
        .try_collect()
        .await
        .unwrap();
    assert!(none.is_empty());
}
