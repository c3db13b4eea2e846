//! Every read builder is sent by `.await` (and `.send()`), as the write
//! builders are: a query, a fan-out and a scan awaited give exactly what
//! `.all()` gives, with their limit, direction and sort-key condition, on
//! every backend.

use dynakey::Entity;
use dynakey_tests::seeds::Vote;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

#[tokio::test]
async fn awaiting_a_read_is_reading_all_of_it() {
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("await_{}", Uuid::new_v4().simple()));
    db.create_table(&[Vote::META]).await.unwrap();
    let t0 = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
    for i in 0..24i64 {
        db.put(&Vote {
            poll: "best-pet".into(),
            shard: (i % 3) as i32,
            at: t0 + Duration::seconds(i),
            vote_id: Uuid::now_v7(),
        })
        .await
        .unwrap();
    }
    let pk = || Vote::pk("best-pet", 1).unwrap();
    let shards = || {
        (0..3)
            .map(|s| Vote::pk("best-pet", s).unwrap())
            .collect::<Vec<_>>()
    };

    // A query: all of the partition, then with a limit and descending.
    let all = db.query(pk()).all().await.unwrap();
    assert_eq!(all.len(), 8);
    assert_eq!(db.query(pk()).await.unwrap(), all);
    assert_eq!(db.query(pk()).send().await.unwrap(), all);
    let newest = db.query(pk()).descending().limit(3).await.unwrap();
    let want: Vec<Vote> = all.iter().rev().take(3).cloned().collect();
    assert_eq!(newest, want);

    // A sort-key condition, and a builder cloned before it is sent.
    let later = db
        .query(pk())
        .sk(Vote::sk().gt(t0 + Duration::seconds(12)).unwrap());
    let again = later.clone();
    assert_eq!(later.await.unwrap(), again.all().await.unwrap());

    // A fan-out, merged in sort-key order; an empty one is empty.
    let merged = db.query_many(shards()).all().await.unwrap();
    assert_eq!(merged.len(), 24);
    assert_eq!(db.query_many(shards()).await.unwrap(), merged);
    assert_eq!(
        db.query_many(shards()).limit(5).await.unwrap(),
        merged[..5].to_vec()
    );
    assert!(db
        .query_many(Vec::<dynakey::PartitionKey<Vote>>::new())
        .await
        .unwrap()
        .is_empty());

    // A scan: the same items as its `all`, in the same order.
    let scanned = db.scan::<Vote>().all().await.unwrap();
    assert_eq!(scanned.len(), 24);
    assert_eq!(db.scan::<Vote>().await.unwrap(), scanned);

    // Sent from a spawned task: the futures are Send and 'static.
    let q = db.query(pk());
    let spawned = tokio::spawn(q.send()).await.unwrap().unwrap();
    assert_eq!(spawned, all);
}
