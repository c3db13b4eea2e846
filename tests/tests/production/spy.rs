//! The request recorder: which requests code sent, with their
//! expressions, batches and transactions included.

use dynakey::expr::Update;
use dynakey::spy::Recorder;
use dynakey::{Condition, Db};
use dynakey_tests::notes::Note;

use super::{fixture, note};

/// `db` through a recorded client, and the recorder.
pub fn recorded_db(db: &Db) -> (Db, Recorder) {
    let spy = Recorder::new();
    (spy.db(db), spy)
}

#[tokio::test]
async fn records_every_operation_with_its_expressions() {
    let f = fixture().await;
    let (db, spy) = recorded_db(&f.db);

    db.put(&note("ann", 1, Some("red")))
        .if_not_exists()
        .await
        .unwrap();
    db.update_raw(
        Note::key("ann", 1).unwrap(),
        Update::new().set("text", "v2"),
    )
    .if_exists()
    .await
    .unwrap();
    db.get(Note::key("ann", 1).unwrap()).await.unwrap();
    db.query(Note::gsi1_pk("red").unwrap()).all().await.unwrap();
    db.delete(Note::key("ann", 1).unwrap()).await.unwrap();

    assert_eq!(
        spy.operations(),
        ["PutItem", "UpdateItem", "GetItem", "Query", "DeleteItem"]
    );
    let put = &spy.of("PutItem")[0];
    assert_eq!(
        put.explain.condition.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(put.succeeded, Some(true));
    let upd = &spy.of("UpdateItem")[0];
    assert_eq!(upd.explain.update.as_deref(), Some("SET #n0 = :v0"));
    assert_eq!(
        upd.explain.resolved(),
        "SET text = \"v2\"; attribute_exists(pk)"
    );
    let q = &spy.of("Query")[0];
    assert_eq!(q.explain.index.as_deref(), Some("GSI1"));
    assert!(q.explain.resolved().starts_with("gsi1pk = \"TAG#red\""));
    assert!(spy.requests().iter().all(|r| !r.consumed.is_empty()));

    spy.clear();
    let err = db.put(&note("ann", 2, None)).if_exists().await.unwrap_err();
    assert!(matches!(err, dynakey::Error::ConditionFailed { .. }));
    assert_eq!(spy.requests()[0].succeeded, Some(false));
}

#[tokio::test]
async fn records_batches_and_transactions_action_by_action() {
    let f = fixture().await;
    let (db, spy) = recorded_db(&f.db);

    let batch = (0..30).fold(db.batch_write(), |b, id| b.put(&note("bo", id, None)));
    batch.delete(Note::key("bo", 99).unwrap()).await.unwrap();
    let calls = spy.of("BatchWriteItem");
    assert_eq!(calls.len(), 2);
    let mut sizes: Vec<usize> = calls.iter().map(|c| c.explain.actions.len()).collect();
    sizes.sort();
    assert_eq!(sizes, [6, 25]);
    let deletes: Vec<_> = calls
        .iter()
        .flat_map(|c| &c.explain.actions)
        .filter(|a| a.operation == "DeleteRequest")
        .collect();
    assert_eq!(deletes.len(), 1);

    db.batch_get((0..3).map(|id| Note::key("bo", id).unwrap()))
        .await
        .unwrap();
    assert_eq!(spy.of("BatchGetItem")[0].explain.actions.len(), 3);

    db.transact_write()
        .put_with(&note("bo", 100, None), |p| p.if_not_exists())
        .update_raw(Note::key("bo", 1).unwrap(), Update::new().set("text", "x"))
        .check(
            Note::key("bo", 2).unwrap(),
            Condition::attr("text").exists(),
        )
        .delete(Note::key("bo", 3).unwrap())
        .await
        .unwrap();
    let tx = &spy.of("TransactWriteItems")[0];
    let ops: Vec<_> = tx
        .explain
        .actions
        .iter()
        .map(|a| a.operation.as_str())
        .collect();
    assert_eq!(ops, ["Put", "Update", "ConditionCheck", "Delete"]);
    assert_eq!(
        tx.explain.actions[0].condition.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(
        tx.explain.actions[1].update.as_deref(),
        Some("SET #n0 = :v0")
    );
    assert_eq!(tx.explain.actions[2].resolved(), "attribute_exists(text)");

    let tg = db.transact_get().get(Note::key("bo", 1).unwrap());
    tg.await.unwrap();
    assert_eq!(spy.of("TransactGetItems")[0].explain.actions.len(), 1);

    // What was recorded is what `explain` shows for the same builder.
    spy.clear();
    let q = db.query(Note::pk("bo").unwrap()).page_size(7);
    q.page(None).await.unwrap();
    assert_eq!(spy.of("Query")[0].explain, q.explain().unwrap());
}
