//! Seed 000's status-keyed index on a native multi-attribute key, and the
//! move of a live table onto it under concurrent writers.

use dynakey_examples::recipes::native_keys;

use super::fixture;

#[tokio::test]
async fn native_keys_read_by_value_and_a_live_table_moves_onto_them() {
    let f = fixture(native_keys::RECIPE);
    native_keys::setup(&f.db).await.unwrap();
    let r = native_keys::run(&f.db).await.unwrap();
    // Oldest first: v7 ids sort by time inside the fixed status.
    assert_eq!(r.ann_open, [10, 3, 1]);
    assert_eq!(r.ann_this_week, [3, 1]);
    assert_eq!(r.ann_open_after_close, [10, 1]);
    assert_eq!(r.added, ["ByOwner"]);
    // Every seeded item and every concurrent write survived the move, as
    // its last writer left it, and none holds the old synthetic keys.
    assert!(r.concurrent_writes > 0, "{r}");
    assert_eq!(r.items.1, 0, "{r}");
    assert!(
        r.items.0 >= native_keys::WORK.len() + native_keys::BEFORE,
        "{r}"
    );
    assert_eq!(r.leftover_synthetic, 0, "{r}");
    assert_eq!(r.native_found.0, r.native_found.1, "{r}");
    // Every item written before the move lost its synthetic keys.
    assert!(
        r.migrated.0 >= (native_keys::WORK.len() + native_keys::BEFORE) as u64,
        "{r}"
    );
    f.done().await;
}
