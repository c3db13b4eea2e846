//! Kinesis Data Streams for DynamoDB as a source, from the record format
//! AWS documents ("Using Kinesis Data Streams to capture changes to
//! DynamoDB", developerguide/kds.html; the fields as AWS's Powertools for
//! Lambda parser types them, KinesisDynamoDBStreamEvent: `awsRegion`,
//! `eventID`, `eventName`, `userIdentity` null or TTL's, `recordFormat`,
//! `tableName`, `dynamodb` without `SequenceNumber`) inside Lambda's sample
//! Kinesis event (lambda/latest/dg/with-kinesis.html, base64 `data`), and
//! the helper for its at-least-once, reordered delivery.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_lambda_events::event::kinesis::KinesisEvent;
use dynakey::changes::{
    dedupe_and_order, item_to_json, record_from_json, record_from_kinesis,
    record_from_kinesis_data, ChangeDecoder, ChangeKind, ChangeRecord, Operation,
};
use dynakey::Entity;
use dynakey_examples::task_counts::{OrgItem, Task};
use proptest::prelude::*;
use serde_json::{json, Value};

use super::task;

/// A Kinesis Data Streams for DynamoDB record (kds.html's shape).
fn kinesis_record(
    name: &str,
    id: &str,
    time: Value,
    old: Option<&Task>,
    new: Option<&Task>,
) -> Value {
    let keys = old.or(new).unwrap().item_key().unwrap().to_attributes();
    let mut d = json!({
        "ApproximateCreationDateTime": time,
        "Keys": item_to_json(&keys),
        "SizeBytes": 212
    });
    if let Some(o) = old {
        d["OldImage"] = item_to_json(&o.to_item().unwrap());
    }
    if let Some(n) = new {
        d["NewImage"] = item_to_json(&n.to_item().unwrap());
    }
    json!({
        "awsRegion": "us-east-1",
        "eventID": id,
        "eventName": name,
        "userIdentity": null,
        "recordFormat": "application/json",
        "tableName": "Tasks",
        "dynamodb": d,
        "eventSource": "aws:dynamodb"
    })
}

/// Lambda's Kinesis event around `records` (with-kinesis.html's sample).
fn lambda_event(records: &[Value]) -> Value {
    let recs: Vec<Value> = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let seq = format!("4959033827149025660855969253836157109592157598913658889{i}");
            json!({
                "kinesis": {
                    "kinesisSchemaVersion": "1.0",
                    "partitionKey": "0AB18464EFEE6043E48DD4475DABA453",
                    "sequenceNumber": seq,
                    "data": aws_smithy_types::base64::encode(r.to_string()),
                    "approximateArrivalTimestamp": 1545084650.987
                },
                "eventSource": "aws:kinesis",
                "eventVersion": "1.0",
                "eventID": format!("shardId-000000000006:{seq}"),
                "eventName": "aws:kinesis:record",
                "invokeIdentityArn": "arn:aws:iam::123456789012:role/lambda-role",
                "awsRegion": "us-east-2",
                "eventSourceARN": "arn:aws:kinesis:us-east-2:123456789012:stream/lambda-stream"
            })
        })
        .collect();
    json!({ "Records": recs })
}

#[test]
fn kinesis_records_decode_with_their_times_identities_and_table() {
    let t1 = task("acme", "t1");
    let flagged = Task {
        flagged_by: Some("ann".into()),
        ..t1.clone()
    };
    let ms = 1_731_600_037_123u64;
    let us = 1_731_600_038_123_456u64;
    let mut modify = kinesis_record("MODIFY", "e2", json!(us), Some(&t1), Some(&flagged));
    modify["dynamodb"]["ApproximateCreationDateTimePrecision"] = json!("MICROSECOND");
    let mut expire = kinesis_record("REMOVE", "e3", json!(us + 1_000_000), Some(&flagged), None);
    expire["userIdentity"] = json!({"type": "Service", "principalId": "dynamodb.amazonaws.com"});
    let records = [
        kinesis_record("INSERT", "e1", json!(ms), None, Some(&t1)),
        modify,
        expire,
    ];
    let times = [
        UNIX_EPOCH + Duration::from_millis(ms),
        UNIX_EPOCH + Duration::from_micros(us),
        UNIX_EPOCH + Duration::from_micros(us + 1_000_000),
    ];

    let d = ChangeDecoder::<OrgItem>::union();
    let event_json = lambda_event(&records);
    let event: KinesisEvent = serde_json::from_value(event_json.clone()).unwrap();
    let from_data: Vec<_> = records
        .iter()
        .map(|r| d.decode_kinesis_data(r.to_string().as_bytes()).unwrap())
        .collect();
    let from_json: Vec<_> = records.iter().map(|r| d.decode_json(r).unwrap()).collect();
    let from_event_json = d.decode_json_batch(&event_json).unwrap();
    let from_event: Vec<_> = d
        .decode_kinesis_event(&event)
        .into_iter()
        .map(Result::unwrap)
        .collect();

    for (i, c) in from_data.iter().enumerate() {
        assert_eq!(
            c.created_at,
            Some(times[i]),
            "record {i}: not the year 56,800"
        );
        assert_eq!(c.table.as_deref(), Some("Tasks"));
        // Lambda's envelope adds the Kinesis sequence number and shard.
        let seq = format!("4959033827149025660855969253836157109592157598913658889{i}");
        for via_lambda in [&from_event_json[i], &from_event[i]] {
            assert_eq!(via_lambda.sequence_number.as_deref(), Some(seq.as_str()));
            assert_eq!(via_lambda.shard_id.as_deref(), Some("shardId-000000000006"));
            assert_eq!(via_lambda.kind, c.kind);
            assert_eq!(via_lambda.created_at, c.created_at);
        }
        assert_eq!(
            from_json[i], *c,
            "the JSON decoder tells a Kinesis record by its fields"
        );
    }
    assert_eq!(
        from_data[0].kind,
        ChangeKind::Inserted(OrgItem::Task(t1.clone()))
    );
    assert!(from_data[1].entered("GSI1") && from_data[1].changed("flagged_by"));
    assert_eq!(
        from_data[2].kind,
        ChangeKind::Expired(OrgItem::Task(flagged))
    );
    // The typed Lambda record gives the same record as its JSON.
    let typed = record_from_kinesis(&event.records[1]).unwrap();
    assert_eq!(typed, record_from_json(&event_json["Records"][1]).unwrap());
}

#[test]
fn a_bad_kinesis_record_is_a_clear_error() {
    let mut event = lambda_event(&[kinesis_record(
        "INSERT",
        "e1",
        json!(1),
        None,
        Some(&task("a", "b")),
    )]);
    event["Records"][0]["kinesis"]["data"] = json!("***");
    let e = record_from_json(&event["Records"][0])
        .unwrap_err()
        .to_string();
    assert!(e.contains("kinesis.data") && e.contains("base64"), "{e}");
    let e = record_from_kinesis_data(b"{\"eventName\": \"INSERT\"}").unwrap_err();
    assert!(e.to_string().contains("dynamodb"), "{e}");
    let mut bad_precision = kinesis_record("INSERT", "e1", json!(1), None, Some(&task("a", "b")));
    bad_precision["dynamodb"]["ApproximateCreationDateTimePrecision"] = json!("SECOND");
    let e = record_from_json(&bad_precision).unwrap_err().to_string();
    assert!(e.contains("SECOND"), "{e}");
}

/// One change of a history: item, operation, time (ms), old and new value.
#[derive(Debug, Clone)]
struct Step {
    item: usize,
    op: Operation,
    at: u64,
    old: Option<u64>,
    new: Option<u64>,
}

/// Random histories of up to four items: inserts, modifies and removes in
/// order, every value unique, times in milliseconds where a modify or
/// remove may share its predecessor's millisecond (its images chain).
fn histories() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(prop::collection::vec((0u8..3, 0u64..3), 1..8), 1..5).prop_map(|items| {
        let mut value = 0u64;
        let mut steps = Vec::new();
        for (item, moves) in items.into_iter().enumerate() {
            let mut at = 1_731_600_000_000u64 + item as u64;
            let mut current: Option<u64> = None;
            for (kind, gap) in moves {
                value += 1;
                let (op, old, new) = match (current, kind) {
                    (None, _) => (Operation::Insert, None, Some(value)),
                    (Some(v), 0 | 1) => (Operation::Modify, Some(v), Some(value)),
                    (Some(v), _) => (Operation::Remove, Some(v), None),
                };
                // An insert after a remove is a new chain: a later ms.
                at += if op == Operation::Insert {
                    gap + 1
                } else {
                    gap
                };
                current = new;
                steps.push(Step {
                    item,
                    op,
                    at,
                    old,
                    new,
                });
            }
        }
        steps
    })
}

fn image(item: usize, v: u64, form: u8) -> Value {
    let n = match form % 3 {
        0 => v.to_string(),
        1 => format!("{v}E0"),
        _ => format!("{v}.000"),
    };
    json!({"pk": {"S": format!("ITEM#{item}")}, "v": {"N": n}})
}

/// `step` as Kinesis data; `form` writes its numbers in another form (a
/// duplicate compared by value), `id` its event id.
fn data(step: &Step, id: &str, form: u8) -> Vec<u8> {
    let mut d = json!({
        "ApproximateCreationDateTime": step.at,
        "Keys": {"pk": {"S": format!("ITEM#{}", step.item)}}
    });
    if let Some(o) = step.old {
        d["OldImage"] = image(step.item, o, form);
    }
    if let Some(n) = step.new {
        d["NewImage"] = image(step.item, n, form);
    }
    let name = match step.op {
        Operation::Insert => "INSERT",
        Operation::Modify => "MODIFY",
        _ => "REMOVE",
    };
    json!({"eventID": id, "eventName": name, "userIdentity": null, "recordFormat": "application/json",
           "tableName": "T", "dynamodb": d, "eventSource": "aws:dynamodb"})
    .to_string()
    .into_bytes()
}

fn value_of(image: &Option<dynakey::Item>) -> Option<u64> {
    image.as_ref().map(|i| {
        let n = i["v"].as_n().unwrap();
        n.trim_end_matches("E0")
            .trim_end_matches(".000")
            .parse()
            .unwrap()
    })
}

/// What a record says of its item: (item, op, time, old, new).
fn summary(r: &ChangeRecord) -> (usize, Operation, SystemTime, Option<u64>, Option<u64>) {
    let pk = r.keys["pk"].as_s().unwrap();
    let item = pk.trim_start_matches("ITEM#").parse().unwrap();
    (
        item,
        r.op,
        r.created_at.unwrap(),
        value_of(&r.old),
        value_of(&r.new),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Delivered shuffled, with some records twice (the copy with the same
    /// event id, or another id and its numbers in another form), the
    /// helper gives every change once, each item's in the order made.
    #[test]
    fn dedupe_and_order_restores_each_items_history(
        (steps, delivery) in histories().prop_flat_map(|steps| {
            let n = steps.len();
            let copies = prop::collection::vec((0..n, any::<bool>(), 0u8..3), 0..n + 1);
            (Just(steps), copies.prop_flat_map(move |copies| {
                let mut all: Vec<(usize, bool, u8)> = (0..n).map(|i| (i, false, 0)).collect();
                all.extend(copies);
                Just(all).prop_shuffle()
            }))
        })
    ) {
        let records: Vec<ChangeRecord> = delivery
            .iter()
            .enumerate()
            .map(|(k, &(i, new_id, form))| {
                let id = if new_id { format!("copy-{k}") } else { format!("e{i}") };
                record_from_kinesis_data(&data(&steps[i], &id, form)).unwrap()
            })
            .collect();
        let out = dedupe_and_order(records);
        prop_assert_eq!(out.len(), steps.len(), "every change once");
        let mut by_item: BTreeMap<usize, Vec<_>> = BTreeMap::new();
        for r in &out {
            let s = summary(r);
            by_item.entry(s.0).or_default().push(s);
        }
        let mut want: BTreeMap<usize, Vec<_>> = BTreeMap::new();
        for s in &steps {
            want.entry(s.item).or_default().push((s.item, s.op, UNIX_EPOCH + Duration::from_millis(s.at), s.old, s.new));
        }
        prop_assert_eq!(by_item, want);
        prop_assert!(out.windows(2).all(|w| w[0].created_at <= w[1].created_at), "time order");
    }
}
