//! The README's Observability and Cost examples, compiled and run.

use dynakey::Result;
use dynakey_tests::notes::Note;

use super::{capture::capture, fixture, note, on_server};

#[rustfmt::skip]
#[tokio::test]
async fn readme_observability() -> Result<()> {
    let f = fixture().await;
    let db = f.db.clone();
    db.put(&note("ann", 1, Some("red"))).await?;
    let (cap, _outer) = capture();
    let subscriber = cap.clone();
// README: "Observability".
// Any subscriber works: tracing-subscriber's fmt layer, an OpenTelemetry layer, …
let _guard = tracing::subscriber::set_default(subscriber);
db.query(Note::gsi1_pk("red")?).all().await?;
// dynakey.request{db.system="dynamodb" db.operation.name="Query" aws.dynamodb.table_names="notes"
//   aws.dynamodb.index_name="GSI1" dynakey.entity="Note" aws.dynamodb.count=1
//   aws.dynamodb.scanned_count=1 aws.dynamodb.consumed_capacity=0.5 …}
// End of the README's example.
    let span = &cap.of("Query")[0];
    assert_eq!(span.get("aws.dynamodb.index_name"), Some("GSI1"));
    assert_eq!(span.get("aws.dynamodb.count"), Some("1"));
    if !on_server() {
        // An eventually consistent read of one small item: half a unit.
        assert_eq!(span.num("aws.dynamodb.consumed_capacity"), Some(0.5));
    }

    let note = note("ann", 2, None);
    let old = Note::key("ann", 1)?;
// README: the request recorder.
let spy = dynakey::spy::Recorder::new();
let db = spy.db(&db);                                   // the same table, its client recorded
db.transact_write().put_with(&note, |p| p.if_not_exists()).delete(old).await?;
assert_eq!(spy.operations(), ["TransactWriteItems"]);
let tx = &spy.of("TransactWriteItems")[0].explain;
assert_eq!(tx.actions[0].condition.as_deref(), Some("attribute_not_exists(#n0)"));
// End of the README's example.
    let _ = db;
    Ok(())
}

#[rustfmt::skip]
#[tokio::test]
async fn readme_cost() -> Result<()> {
    let f = fixture().await;
    let db = &f.db;
    let shown = db
        .update(Note::update("ann", 1u32).set_tag(Some("blue".into())))
        .explain()?
        .to_string();
    assert!(shown.contains("cost: at most 3 WCU: table 1, GSI1 2 ([Move])"), "{shown}");
// README: "Cost".
let x = db.update(Note::update("ann", 1u32).set_tag(Some("blue".into()))).explain()?;
println!("{x}");
// UpdateItem notes
//   key: pk = "USER#ann", sk = "NOTE#000001"
//   update: SET #n0 = :v0, #n1 = :v1    (SET tag = "blue", gsi1pk = "TAG#blue")
//   condition: attribute_exists(#n2)    (attribute_exists(pk))
//   #n0 = tag
//   #n1 = gsi1pk
//   #n2 = pk
//   :v0 = "blue"
//   :v1 = "TAG#blue"
//   cost: at most 3 WCU: table 1, GSI1 2 ([Move]); each write taken as up to 1 KB
let cost = x.cost.unwrap();
assert_eq!((cost.total(), cost.amplification()), (3.0, 2)); // one table write, two index writes
assert_eq!(cost.sized(3000).total(), 9.0);                    // for a 3 KB item
// End of the README's example.
    Ok(())
}
