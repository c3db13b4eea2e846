//! Every builder shows its request without sending it: the SDK input and
//! a readable form whose expressions hold only placeholders.

use dynakey::expr::Update;
use dynakey::Condition;
use dynakey_tests::notes::Note;

use super::spy::recorded_db;
use super::{fixture, note};

/// A user value that must never appear in expression text.
const SECRET: &str = "s3cr3t value";

#[tokio::test]
async fn single_item_builders_explain_without_sending() {
    let f = fixture().await;
    let (db, spy) = recorded_db(&f.db);
    let n = note(SECRET, 1, Some(SECRET));

    let put = db.put(&n).if_not_exists().explain().unwrap();
    assert_eq!(
        (put.operation.as_str(), put.table.as_str()),
        ("PutItem", db.table_name())
    );
    assert_eq!(put.condition.as_deref(), Some("attribute_not_exists(#n0)"));
    assert_eq!(put.names["#n0"], "pk");
    assert!(put.item.contains_key("gsi1pk"));
    let input = db.put(&n).if_not_exists().to_input().unwrap();
    assert_eq!(input.table_name(), Some(db.table_name()));

    let get = db
        .get(Note::key(SECRET, 1).unwrap())
        .consistent()
        .explain()
        .unwrap();
    assert_eq!(get.operation, "GetItem");
    assert!(get
        .options
        .contains(&("ConsistentRead".into(), "true".into())));

    let upd = db
        .update_raw(
            Note::key(SECRET, 1).unwrap(),
            Update::new().set("text", SECRET),
        )
        .condition(Condition::attr("text").ne(SECRET))
        .explain()
        .unwrap();
    assert_eq!(upd.update.as_deref(), Some("SET #n0 = :v0"));
    assert_eq!(upd.condition.as_deref(), Some("#n0 <> :v1"));
    assert!(!upd.expressions().contains(SECRET));
    assert!(upd.resolved().contains(SECRET));

    let del = db
        .delete(Note::key(SECRET, 1).unwrap())
        .if_exists()
        .explain()
        .unwrap();
    assert_eq!(del.operation, "DeleteItem");
    assert_eq!(del.key.len(), 2);

    let text = upd.to_string();
    assert!(
        text.starts_with(&format!("UpdateItem {}", db.table_name())),
        "{text}"
    );
    assert!(
        text.contains("update: SET #n0 = :v0    (SET text = \"s3cr3t value\")"),
        "{text}"
    );
    assert!(text.contains("cost: "), "{text}");

    assert!(spy.is_empty(), "explain sent {:?}", spy.operations());
}

#[tokio::test]
async fn reads_batches_and_transactions_explain_without_sending() {
    let f = fixture().await;
    let (db, spy) = recorded_db(&f.db);

    let q = db
        .query(Note::gsi1_pk(SECRET).unwrap())
        .sk(Note::gsi1_sk().between(1u32, 9u32).unwrap())
        .filter(Condition::attr("text").begins_with(SECRET))
        .descending()
        .page_size(5);
    let x = q.explain().unwrap();
    assert_eq!(x.index.as_deref(), Some("GSI1"));
    assert_eq!(
        x.key_condition.as_deref(),
        Some("#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2")
    );
    assert!(x.filter.as_deref().unwrap().contains("begins_with("));
    assert!(x
        .options
        .contains(&("ScanIndexForward".into(), "false".into())));
    assert!(x.options.contains(&("Limit".into(), "5".into())));
    assert!(!x.expressions().contains(SECRET));
    assert_eq!(q.to_input().unwrap().limit(), Some(5));

    let shards = ["a", "b", "c"].map(|u| Note::pk(u).unwrap());
    let fan = db.query_many(shards).explain().unwrap();
    assert_eq!(fan.actions.len(), 3);
    assert!(fan.actions.iter().all(|a| a.operation == "Query"));

    let scan = db.scan::<Note>().segments(2).explain().unwrap();
    assert_eq!(scan.actions.len(), 2);
    assert_eq!(db.scan::<Note>().segments(2).to_input().unwrap().len(), 2);

    let bw = (0..30)
        .fold(db.batch_write(), |b, id| b.put(&note("ann", id, None)))
        .delete(Note::key("ann", 99).unwrap());
    let x = bw.explain().unwrap();
    assert_eq!(x.actions.len(), 31);
    assert_eq!(x.actions[30].operation, "DeleteRequest");
    let bw = (0..30).fold(db.batch_write(), |b, id| b.put(&note("ann", id, None)));
    assert_eq!(bw.to_input().unwrap().len(), 2);

    let bg = db.batch_get((0..3).map(|id| Note::key("ann", id).unwrap()));
    assert_eq!(bg.explain().unwrap().actions.len(), 3);
    assert_eq!(bg.to_input().unwrap().len(), 1);

    let tx = db
        .transact_write()
        .put_with(&note("ann", 1, None), |p| p.if_not_exists())
        .update_raw(
            Note::key("ann", 2).unwrap(),
            Update::new().set("text", SECRET),
        )
        .delete(Note::key("ann", 3).unwrap())
        .check(
            Note::key("ann", 4).unwrap(),
            Condition::attr("text").exists(),
        );
    let x = tx.explain().unwrap();
    let ops: Vec<_> = x.actions.iter().map(|a| a.operation.as_str()).collect();
    assert_eq!(ops, ["Put", "Update", "Delete", "ConditionCheck"]);
    assert!(!x.expressions().contains(SECRET));
    assert!(x.to_string().contains("TransactWriteItems"));

    let tg = db.transact_get().get(Note::key("ann", 1).unwrap());
    assert_eq!(tg.explain().unwrap().actions[0].operation, "Get");

    assert!(spy.is_empty(), "explain sent {:?}", spy.operations());
}
