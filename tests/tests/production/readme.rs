//! The README's Observability and Cost examples, compiled and run.

use dynakey::prelude::*;
use dynakey_tests::notes::Note;

use super::{capture::capture, fixture, note, on_server};

#[tokio::test]
async fn readme_observability() -> Result<()> {
    let f = fixture().await;
    let db = f.db.clone();
    db.put(&note("ann", 1, Some("red"))).await?;
    let (cap, _guard) = capture();
    db.query(Note::gsi1_pk("red")?).all().await?;
    let span = &cap.of("Query")[0];
    assert_eq!(span.get("aws.dynamodb.index_name"), Some("GSI1"));
    assert_eq!(span.get("aws.dynamodb.count"), Some("1"));
    if !on_server() {
        // An eventually consistent read of one small item: half a unit.
        assert_eq!(span.num("aws.dynamodb.consumed_capacity"), Some(0.5));
    }

    let spy = dynakey::spy::Recorder::new();
    let db = spy.db(&db); // the same table, its client recorded
    let old = Note::key("ann", 1)?;
    db.transact_write()
        .put_with(&note("ann", 2, None), |p| p.if_not_exists())
        .delete(old)
        .await?;
    assert_eq!(spy.operations(), ["TransactWriteItems"]);
    let tx = &spy.of("TransactWriteItems")[0].explain;
    assert_eq!(
        tx.actions[0].condition.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    Ok(())
}

#[tokio::test]
async fn readme_cost() -> Result<()> {
    let f = fixture().await;
    let db = &f.db;
    let x = db
        .update(Note::update("ann", 1u32).set_tag(Some("blue".into())))
        .explain()?;
    println!("{x}");
    assert!(x
        .to_string()
        .contains("cost: at most 3 WCU: table 1, GSI1 2 ([Move])"));
    let cost = x.cost.unwrap();
    assert_eq!((cost.total(), cost.amplification()), (3.0, 2)); // one table write, two index writes
    assert_eq!(cost.sized(3000).total(), 9.0); // for a 3 KB item
    Ok(())
}
