//! Table exports to S3 in DynamoDB JSON as a source, from the shapes AWS
//! documents ("DynamoDB table export output format",
//! developerguide/S3DataExport.Output.html): a full export's `{"Item":
//! {..}}` lines (its Book 103 example), an incremental export's
//! `{"Metadata": {"WriteTimestampMicros": ..}, "Keys", "NewImage",
//! "OldImage"}` lines, with `WriteTimestampMicros` as exports write it
//! (`{"N": ".."}`), as text and as a number; and an export loaded into a
//! table on every backend.

use std::time::{Duration, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::changes::{
    item_to_json, ChangeDecoder, ChangeError, ChangeKind, ExportErrorKind, ExportReader, Operation,
    StreamView,
};
use dynakey::design::TableDesign;
use dynakey::{Entity, Item};
use dynakey_examples::task_counts::{Org, OrgItem, Task};
use serde_json::{json, Value};

use super::{backend, done, table, task};

/// The item of AWS's full-export example, one line as the export holds it.
const BOOK_103: &str = r#"{"Item":{"Authors":{"SS":["Author1","Author2"]},"Dimensions":{"S":"8.5 x 11.0 x 1.5"},"ISBN":{"S":"333-3333333333"},"Id":{"N":"103"},"InPublication":{"BOOL":false},"PageCount":{"N":"600"},"Price":{"N":"2000"},"ProductCategory":{"S":"Book"},"Title":{"S":"Book 103 Title"}}}"#;

fn full_line(item: &Item) -> String {
    json!({ "Item": item_to_json(item) }).to_string()
}

fn incremental_line(micros: Value, keys: &Item, old: Option<&Item>, new: Option<&Item>) -> String {
    let mut v =
        json!({ "Metadata": { "WriteTimestampMicros": micros }, "Keys": item_to_json(keys) });
    if let Some(o) = old {
        v["OldImage"] = item_to_json(o);
    }
    if let Some(n) = new {
        v["NewImage"] = item_to_json(n);
    }
    v.to_string()
}

fn org() -> Org {
    Org {
        org: "acme".into(),
        name: "Acme".into(),
    }
}

#[test]
fn a_full_export_in_the_documented_shape_reads_line_by_line() {
    let item = ExportReader::new(BOOK_103.as_bytes())
        .items()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(
        item["Authors"],
        AttributeValue::Ss(vec!["Author1".into(), "Author2".into()])
    );
    assert_eq!(item["Price"], AttributeValue::N("2000".into()));
    assert_eq!(item["InPublication"], AttributeValue::Bool(false));

    // A table's export: its types, a line of another type, blank lines (an
    // empty partition's file), a bad line, a truncated last line.
    let t1 = task("acme", "t1");
    let mut other_client = task("acme", "t2").to_item().unwrap();
    other_client.insert("title".into(), AttributeValue::S("by a script".into()));
    let text = [
        full_line(&t1.to_item().unwrap()),
        String::new(),
        full_line(&org().to_item().unwrap()),
        BOOK_103.to_owned(),
        r#"{"Item":{"pk":{"S":"ORG#acme"},"sk":{"S":"TASK#t3"},"_type":{"S":"TASK"},"org":{"S":"acme"},"id":{"S":"t3"}}}"#.to_owned(),
        full_line(&other_client),
        r#"{"Item":{"pk":{"S":"ORG#a"},"#.to_owned(),
    ]
    .join("\n");
    let all: Vec<_> = ExportReader::new(text.as_bytes()).items().collect();
    assert_eq!(all.len(), 6, "one result per non-empty line");
    assert_eq!(all.last().unwrap().as_ref().unwrap_err().line, 7);

    let lenient: Vec<_> = ExportReader::new(text.as_bytes())
        .typed(ChangeDecoder::<OrgItem>::union())
        .collect();
    let oks: Vec<_> = lenient.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(oks.len(), 3, "two tasks and the org; the book is skipped");
    assert_eq!(*oks[0], OrgItem::Task(t1));
    let errors: Vec<_> = lenient.iter().filter_map(|r| r.as_ref().err()).collect();
    let lines: Vec<u64> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [5, 7]);
    // Line 5 is a task without its title: the decode error names it.
    let ExportErrorKind::Decode(ChangeError::Decode { source, .. }) = &errors[0].kind else {
        panic!("{}", errors[0])
    };
    assert!(source.to_string().contains("title"), "{source}");
    assert!(matches!(errors[1].kind, ExportErrorKind::Malformed { .. }));

    // A strict decoder reports the book as well.
    let strict: Vec<u64> = ExportReader::new(text.as_bytes())
        .typed(ChangeDecoder::<OrgItem>::union().strict())
        .filter_map(|r| r.err().map(|e| e.line))
        .collect();
    assert_eq!(strict, [4, 5, 7]);
}

#[test]
fn an_incremental_export_reads_as_typed_changes_with_write_times() {
    let t1 = task("acme", "t1");
    let renamed = Task {
        title: "renamed".into(),
        ..t1.clone()
    };
    let t2 = task("acme", "t2");
    let keys = |t: &Task| t.item_key().unwrap().to_attributes();
    let micros = 1_731_600_037_123_456u64;
    // The three forms a write time comes in.
    let text = [
        incremental_line(
            json!({"N": micros.to_string()}),
            &keys(&t1),
            Some(&t1.to_item().unwrap()),
            Some(&renamed.to_item().unwrap()),
        ),
        incremental_line(
            json!(micros.to_string()),
            &keys(&t2),
            None,
            Some(&t2.to_item().unwrap()),
        ),
        incremental_line(
            json!(micros + 1),
            &keys(&t2),
            Some(&t2.to_item().unwrap()),
            None,
        ),
        r#"{"Metadata":{"WriteTimestampMicros":{"N":"soon"}},"Keys":{"pk":{"S":"ORG#acme"}}}"#
            .to_owned(),
    ]
    .join("\n");
    let changes: Vec<_> = ExportReader::new(text.as_bytes())
        .changes(ChangeDecoder::<OrgItem>::union())
        .collect();
    let at = |us| Some(UNIX_EPOCH + Duration::from_micros(us));
    let c0 = changes[0].as_ref().unwrap();
    assert!(matches!(&c0.kind, ChangeKind::Modified { changed, .. } if changed == &["title"]));
    assert_eq!(c0.created_at, at(micros));
    let c1 = changes[1].as_ref().unwrap();
    assert_eq!(c1.kind, ChangeKind::Inserted(OrgItem::Task(t2.clone())));
    assert_eq!(c1.created_at, at(micros));
    let c2 = changes[2].as_ref().unwrap();
    assert_eq!(c2.kind, ChangeKind::Removed(OrgItem::Task(t2.clone())));
    assert_eq!(c2.created_at, at(micros + 1));
    let e = changes[3].as_ref().unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.to_string().contains("WriteTimestampMicros"), "{e}");

    // Under NEW_IMAGE an insert and an update look alike, and a delete is
    // its keys: changes lacking the old image.
    let new_image = [
        incremental_line(
            json!({"N": "1"}),
            &keys(&t2),
            None,
            Some(&t2.to_item().unwrap()),
        ),
        incremental_line(json!({"N": "2"}), &keys(&t2), None, None),
    ]
    .join("\n");
    let ops: Vec<(Operation, bool)> = ExportReader::new(new_image.as_bytes())
        .view(StreamView::NewImage)
        .records()
        .map(|r| r.map(|r| (r.op, r.new.is_some())).unwrap())
        .collect();
    assert_eq!(ops, [(Operation::Modify, true), (Operation::Remove, false)]);
    let partial: Vec<_> = ExportReader::new(new_image.as_bytes())
        .view(StreamView::NewImage)
        .changes(ChangeDecoder::<OrgItem>::union().allow_partial())
        .map(Result::unwrap)
        .collect();
    assert!(
        matches!(&partial[0].kind, ChangeKind::Partial { new: Some(OrgItem::Task(t)), .. } if *t == t2)
    );
}

#[tokio::test]
async fn an_export_loads_into_a_table_and_an_incremental_one_applies_on_every_backend() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    let tasks: Vec<Task> = (0..130)
        .map(|i| task("acme", &format!("t{i:03}")))
        .collect();
    let mut lines: Vec<String> = tasks
        .iter()
        .map(|t| full_line(&t.to_item().unwrap()))
        .collect();
    lines.push(full_line(&org().to_item().unwrap()));
    lines.insert(40, "{\"Item\": 7}".to_owned());
    let load = ExportReader::new(lines.join("\n").as_bytes())
        .load_into(&db)
        .await
        .unwrap();
    assert_eq!((load.puts, load.deletes), (131, 0));
    let bad: Vec<u64> = load.errors.iter().map(|e| e.line).collect();
    assert_eq!(bad, [41]);
    let last = db.get(Task::key("acme", "t129").unwrap()).await.unwrap();
    assert_eq!(last, Some(tasks[129].clone()));

    // The live view of the loaded copy: every item sound.
    let design = TableDesign::from_metas(db.table_name(), &[Task::META, Org::META]);
    let view = design.live(&db, 1000).await.unwrap();
    assert_eq!(view.items().len(), 131);
    assert_eq!(view.problems().count(), 0);

    // An incremental export on top: one task renamed, one deleted, one new.
    let keys = |t: &Task| t.item_key().unwrap().to_attributes();
    let renamed = Task {
        title: "renamed".into(),
        ..tasks[0].clone()
    };
    let fresh = task("acme", "new");
    let inc = [
        incremental_line(
            json!({"N": "1"}),
            &keys(&tasks[0]),
            Some(&tasks[0].to_item().unwrap()),
            Some(&renamed.to_item().unwrap()),
        ),
        incremental_line(
            json!({"N": "2"}),
            &keys(&tasks[1]),
            Some(&tasks[1].to_item().unwrap()),
            None,
        ),
        incremental_line(
            json!({"N": "3"}),
            &keys(&fresh),
            None,
            Some(&fresh.to_item().unwrap()),
        ),
    ]
    .join("\n");
    let applied = ExportReader::new(inc.as_bytes())
        .load_into(&db)
        .await
        .unwrap();
    assert_eq!(
        (applied.puts, applied.deletes, applied.is_complete()),
        (2, 1, true)
    );
    let got = db
        .get(Task::key("acme", "t000").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got.title, "renamed");
    assert!(db
        .get(Task::key("acme", "t001").unwrap())
        .await
        .unwrap()
        .is_none());
    assert!(db
        .get(Task::key("acme", "new").unwrap())
        .await
        .unwrap()
        .is_some());
    done(&b, &db).await;
}
