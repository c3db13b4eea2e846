//! Regression tests of issue 24, each made from a record in the shape an
//! AWS service writes it (AWS's documentation, not this project's engines):
//! numbers past 28 digits compared by value, ISO 8601 times as the AWS CLI
//! v2 prints a `GetRecords` response, and a Lambda event without a time.
//! Kinesis and exports are in `kinesis.rs` and `exports.rs`.

use std::time::{Duration, UNIX_EPOCH};

use aws_lambda_events::event::dynamodb::Event;
use dynakey::changes::{record_from_json, record_from_lambda, ChangeDecoder, ChangeKind};
use dynakey::DynamoEntity;
use serde_json::{json, Value};

/// A meter whose readings outgrow 28 digits (`u128` holds 38).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "METER")]
#[pk("METER#<id>")]
pub struct Meter {
    pub id: String,
    pub reading: u128,
    pub total: u128,
    pub note: String,
}

fn image(reading: &str, total: &str, note: &str) -> Value {
    json!({
        "pk": {"S": "METER#m1"}, "_type": {"S": "METER"}, "id": {"S": "m1"},
        "reading": {"N": reading}, "total": {"N": total}, "note": {"S": note}
    })
}

/// One record of a `GetRecords` response in the shape of the AWS CLI's
/// `aws dynamodbstreams get-records` example (docs.aws.amazon.com/cli/latest/
/// reference/dynamodbstreams/get-records.html), with `time` as given.
fn get_records_record(old: Value, new: Value, time: Value) -> Value {
    json!({
        "eventID": "c3b5d798eef6215d42f8137b19a88e50",
        "eventName": "MODIFY",
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-west-1",
        "dynamodb": {
            "ApproximateCreationDateTime": time,
            "Keys": {"pk": {"S": "METER#m1"}},
            "OldImage": old,
            "NewImage": new,
            "SequenceNumber": "700000000013256296913",
            "SizeBytes": 119,
            "StreamViewType": "NEW_AND_OLD_IMAGES"
        }
    })
}

#[test]
fn numbers_past_28_digits_are_compared_by_value_not_as_text() {
    let d31 = format!("1{}", "0".repeat(30));
    let d38 = "12345678901234567890123456789012345678".to_owned();
    let d38_exp = "1.2345678901234567890123456789012345678E+37";
    let r = get_records_record(
        image(&d31, &d38, "a"),
        image("1E+30", d38_exp, "b"),
        json!(1571849028.0),
    );
    let d = ChangeDecoder::<Meter>::entity();
    // The same record through the JSON decoder and as a Lambda record.
    let lambda: aws_lambda_events::event::dynamodb::EventRecord =
        serde_json::from_value(r.clone()).unwrap();
    for change in [
        d.decode_json(&r).unwrap(),
        d.decode_lambda_record(&lambda).unwrap(),
    ] {
        let ChangeKind::Modified { old, new, changed } = &change.kind else {
            panic!("{change:?}")
        };
        assert_eq!(changed, &["note"], "31- and 38-digit numbers in two forms");
        assert_eq!((old.reading, new.reading), (10u128.pow(30), 10u128.pow(30)));
        assert_eq!(old.total, new.total);
    }
    // One digit apart at the 38th is a change.
    let next = "12345678901234567890123456789012345679";
    let r = get_records_record(image(&d31, &d38, "a"), image(&d31, next, "a"), json!(1));
    let ChangeKind::Modified { changed, .. } = d.decode_json(&r).unwrap().kind else {
        panic!()
    };
    assert_eq!(changed, &["total"]);
}

#[test]
fn an_iso_8601_time_as_the_aws_cli_v2_prints_it_is_read() {
    // The AWS CLI v2 prints timestamps as ISO 8601 with the local offset;
    // the API reference says "in ISO 8601 format and rounded down to the
    // closest second" (API_streams_StreamRecord).
    let response = json!({
        "Records": [get_records_record(
            image("1", "2", "a"),
            image("1", "2", "b"),
            json!("2024-11-14T08:00:37-08:00"),
        )],
        "NextShardIterator": "arn:aws:dynamodb:us-west-1:123456789012:table/Music/stream/2019-10-22T18:02:01.576|1|AAAA"
    });
    let changes = ChangeDecoder::<Meter>::entity()
        .decode_json_batch(&response)
        .unwrap();
    let want = UNIX_EPOCH + Duration::from_secs(1_731_600_037); // 2024-11-14T16:00:37Z
    assert_eq!(changes[0].created_at, Some(want));
    // UTC and a fraction too.
    for (text, ms) in [
        ("2024-11-14T16:00:37Z", 1_731_600_037_000),
        ("2024-11-14T17:00:37.5+01:00", 1_731_600_037_500),
    ] {
        let r = get_records_record(image("1", "2", "a"), image("1", "2", "b"), json!(text));
        let t = record_from_json(&r).unwrap().created_at.unwrap();
        assert_eq!(
            t.duration_since(UNIX_EPOCH).unwrap().as_millis(),
            ms,
            "{text}"
        );
    }
    // A time that is there but no time is an error naming the field.
    let r = get_records_record(image("1", "2", "a"), image("1", "2", "b"), json!("tuesday"));
    let e = record_from_json(&r).unwrap_err().to_string();
    assert!(
        e.contains("ApproximateCreationDateTime") && e.contains("tuesday"),
        "{e}"
    );
}

/// Lambda's sample DynamoDB event (docs.aws.amazon.com/lambda/latest/dg/
/// with-ddb.html, "Example event"): its records carry no
/// `ApproximateCreationDateTime`.
fn lambda_sample_event() -> Value {
    json!({"Records": [{
        "eventID": "1",
        "eventVersion": "1.0",
        "dynamodb": {
            "Keys": {"Id": {"N": "101"}},
            "NewImage": {"Message": {"S": "New item!"}, "Id": {"N": "101"}},
            "StreamViewType": "NEW_AND_OLD_IMAGES",
            "SequenceNumber": "111",
            "SizeBytes": 26
        },
        "awsRegion": "us-west-2",
        "eventName": "INSERT",
        "eventSourceARN": "arn:aws:dynamodb:us-west-2:123456789012:table/Example/stream/2015-06-27T00:48:05.899",
        "eventSource": "aws:dynamodb"
    }]})
}

#[test]
fn a_record_without_a_time_has_none_from_every_entry_point() {
    let v = lambda_sample_event();
    let event: Event = serde_json::from_value(v.clone()).unwrap();
    // aws_lambda_events fills the missing time with the epoch.
    assert_eq!(
        event.records[0]
            .change
            .approximate_creation_date_time
            .timestamp(),
        0
    );
    let from_lambda = record_from_lambda(&event.records[0]).unwrap();
    let from_json = record_from_json(&v["Records"][0]).unwrap();
    assert_eq!(from_lambda.created_at, None);
    assert_eq!(from_json.created_at, None);
    assert_eq!(from_lambda.sequence_number.as_deref(), Some("111"));
    // The table, from the record's eventSourceARN (a function may read
    // several tables' streams).
    assert_eq!(from_lambda.table.as_deref(), Some("Example"));
    assert_eq!(from_json.table.as_deref(), Some("Example"));
    // With a time, both read it (seconds with a fraction).
    let mut timed = v.clone();
    timed["Records"][0]["dynamodb"]["ApproximateCreationDateTime"] = json!(1479499740.0);
    let event: Event = serde_json::from_value(timed.clone()).unwrap();
    let want = Some(UNIX_EPOCH + Duration::from_secs(1_479_499_740));
    assert_eq!(
        record_from_lambda(&event.records[0]).unwrap().created_at,
        want
    );
    assert_eq!(
        record_from_json(&timed["Records"][0]).unwrap().created_at,
        want
    );
}
