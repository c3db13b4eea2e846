//! The stale-index fault mode: an index read misses writes newer than the
//! lag; table reads see them at once.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use dynakey::fault::{FaultConfig, FaultInjector, StaleIndex};
use dynakey::{Db, Entity};
use dynakey_tests::notes::Note;

use super::{fixture, note, Fixture};

const LAG: Duration = Duration::from_millis(400);

fn stale_db(f: &Fixture) -> (Db, FaultInjector) {
    let inj =
        FaultInjector::new(FaultConfig::default()).stale_index(StaleIndex::new(LAG, Note::META));
    let conf = f
        .local
        .config_builder()
        .http_client(inj.wrap(f.local.http_client()))
        .build();
    (Db::new(Client::from_conf(conf), f.db.table_name()), inj)
}

fn ids(v: &[Note]) -> Vec<u32> {
    v.iter().map(|n| n.id).collect()
}

#[tokio::test]
async fn an_index_query_misses_writes_newer_than_the_lag() {
    let f = fixture().await;
    let (db, inj) = stale_db(&f);
    // Written before the lag: visible everywhere.
    db.put(&note("ann", 1, Some("red"))).await.unwrap();
    tokio::time::sleep(LAG + Duration::from_millis(50)).await;

    // Fresh writes by put, batch and transaction.
    db.put(&note("ann", 2, Some("red"))).await.unwrap();
    db.batch_write()
        .put(&note("ann", 3, Some("red")))
        .await
        .unwrap();
    db.transact_write()
        .put(&note("ann", 4, Some("red")))
        .await
        .unwrap();

    let by_tag = db.query(Note::gsi1_pk("red").unwrap());
    assert_eq!(ids(&by_tag.all().await.unwrap()), [1]);
    // The table (and a consistent read) sees every write.
    let table = db
        .query(Note::pk("ann").unwrap())
        .consistent()
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&table), [1, 2, 3, 4]);
    assert_eq!(inj.stats().stale_hidden, 3);

    // The same reads through a client without the fault see everything.
    let fresh =
        f.db.query(Note::gsi1_pk("red").unwrap())
            .all()
            .await
            .unwrap();
    assert_eq!(ids(&fresh), [1, 2, 3, 4]);

    tokio::time::sleep(LAG + Duration::from_millis(50)).await;
    assert_eq!(ids(&by_tag.all().await.unwrap()), [1, 2, 3, 4]);
}

#[tokio::test]
async fn an_update_hides_the_item_from_the_index_for_the_lag() {
    let f = fixture().await;
    let (db, _inj) = stale_db(&f);
    db.put(&note("bo", 1, Some("red"))).await.unwrap();
    tokio::time::sleep(LAG + Duration::from_millis(50)).await;
    let by_tag = db.query(Note::gsi1_pk("red").unwrap());
    assert_eq!(ids(&by_tag.all().await.unwrap()), [1]);

    db.update_raw(
        Note::key("bo", 1).unwrap(),
        dynakey::expr::Update::new().set("text", "v2"),
    )
    .await
    .unwrap();
    assert!(by_tag.all().await.unwrap().is_empty());
    tokio::time::sleep(LAG + Duration::from_millis(50)).await;
    let after = by_tag.all().await.unwrap();
    assert_eq!(after[0].text, "v2");
}
