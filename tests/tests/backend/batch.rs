//! Batch write and batch get.

use dynakey::Entity;
use dynakey_tests::notes::{Note, Profile};

use super::{fixture, note};

#[tokio::test]
async fn batch_write_puts_and_deletes_in_chunks_of_25() {
    let f = fixture().await;
    let mut b = f.db.batch_write();
    for id in 0..130 {
        b = b.put(&note("ann", id));
    }
    b = b.put(&Profile {
        user: "ann".into(),
        name: "Ann".into(),
    });
    assert_eq!(b.len(), 131);
    let out = b.send().await.unwrap();
    assert!(out.unprocessed.is_empty());
    assert!(out.calls >= 6, "{}", out.calls); // 131 requests: at least 6 chunks
    assert_eq!(
        f.db.query(Note::pk("ann").unwrap()).count().await.unwrap(),
        130
    );
    let mut d = f.db.batch_write();
    for id in 0..100 {
        d = d.delete(Note::key("ann", id).unwrap());
    }
    assert!(d.send().await.unwrap().unprocessed.is_empty());
    assert_eq!(
        f.db.query(Note::pk("ann").unwrap()).count().await.unwrap(),
        30
    );
    assert!(f
        .db
        .get(Profile::key("ann").unwrap())
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn batch_get_reads_in_chunks_of_100_and_dedupes() {
    let f = fixture().await;
    let mut b = f.db.batch_write();
    for id in 0..250 {
        b = b.put(&note("ann", id));
    }
    assert!(b.send().await.unwrap().unprocessed.is_empty());
    // 260 distinct keys (10 missing) plus duplicates.
    let keys = (0..260)
        .chain(0..20)
        .map(|id| Note::key("ann", id).unwrap());
    let out = f.db.batch_get(keys).consistent().send().await.unwrap();
    assert!(out.unprocessed.is_empty());
    assert_eq!(out.items.len(), 250);
    assert!(out.calls >= 3);
    let mut got: Vec<u32> = out.items.iter().map(|n| n.id).collect();
    got.sort();
    assert_eq!(got, (0..250).collect::<Vec<_>>());
    assert_eq!(out.items[0].item_key().unwrap().pk(), "USER#ann");
}
