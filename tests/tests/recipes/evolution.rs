//! Schema evolution: the recipe on every backend, and the snapshots.

use dynakey_examples::recipes::schema_evolution::{self, ShopV1, ShopV2};

use super::fixture;

/// The v1 snapshot is the v1 code's; the v2 code differs from it (the
/// drift its migrations cover), which is what `check_schema` reports until
/// the snapshot is rewritten after the migration.
#[test]
fn the_v1_snapshot_is_current_and_v2_drifted_from_it() {
    ShopV1::check_schema().unwrap();
    if std::env::var("DYNAKEY_SCHEMA").is_err() {
        let err = ShopV2::check_schema().unwrap_err();
        assert!(err.contains("is stale"), "{err}");
    }
}

#[tokio::test]
async fn v1_to_v2_under_writers_with_a_kill_loses_nothing() {
    let f = fixture(schema_evolution::RECIPE);
    schema_evolution::setup(&f.db).await.unwrap();
    let r = schema_evolution::run(&f.db).await.unwrap();
    let (orders, users) = schema_evolution::sizes(f.local.is_embedded());
    assert_eq!(r.written, (orders, users));
    assert_eq!(r.added_indexes, ["GSI1"]);
    // The dry run counted every v1 item each step touches.
    let dry: Vec<(&str, u64)> = r.dry_run.iter().map(|(n, c, _)| (*n, *c)).collect();
    let with_mail = (0..users).filter(|i| i % 10 != 0).count() as u64;
    assert_eq!(
        dry,
        [
            ("orders-sk-d6", u64::from(orders)),
            ("users-mail-to-email", with_mail),
            // Every user gets the index's constant sort key (`PROFILE`);
            // the partition key needs the address, renamed first when run.
            ("users-by-email", u64::from(users)),
            ("users-tier", u64::from(users)),
        ]
    );
    assert!(r.dry_run.iter().all(|(_, c, wcu)| *c == 0 || wcu >= c));
    assert!(r.killed_after_pages >= 1);
    assert!(r.concurrent.0 > 0, "the writers wrote while it ran");
    // Nothing lost, nothing duplicated, everything in v2 shape and order.
    assert_eq!(r.orders, (r.orders_expected, true));
    assert_eq!(r.v1_keys_left, 0);
    assert_eq!(r.users.0, r.users.1);
    assert_eq!(r.by_email.0, r.by_email.1);
    assert!(r.by_email.1 > 0);
    assert_eq!(r.tiers.1, r.users.0, "every user holds its tier");
    assert_eq!(r.tiers.0, users as usize, "old users read as free");
    // A second run after the resumed one changes nothing.
    assert_eq!(r.third_run_changed, 0);
    f.done().await;
}
