//! Values nested deeper than DynamoDB stores (32 levels) are refused by
//! every reader with a typed error naming where, before it recurses into
//! them: each reader is run on a thread with a tokio worker's stack (2 MB)
//! over 10,000 levels, in the debug build the tests run in. And 32 levels,
//! the most DynamoDB stores, still read.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue as V;
use aws_sdk_dynamodbstreams::types::AttributeValue as StreamValue;
use dynakey::changes::{
    item_from_json, record_from_json, record_from_kinesis_data, record_from_lambda,
    record_from_stream, ChangeDecoder, ChangeError, ChangeRecord, ExportErrorKind, ExportReader,
    Operation,
};
use dynakey::{DecodeError, DecodeErrorKind, DynamoEntity, DynamoValue, Entity, MAX_NESTING};
use serde_json::{json, Value};

/// A recursive struct: each `next` one level down.
#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Node {
    next: Option<Box<Node>>,
}

/// Recursive through a list: each child two levels down.
#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Tree {
    kids: Vec<Tree>,
}

/// Recursive through a map: each entry two levels down.
#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Dir {
    entries: HashMap<String, Dir>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
struct Doc {
    id: String,
    node: Option<Node>,
    raw: Option<V>,
    tree: Option<Tree>,
    dir: Option<Dir>,
    #[dynamo(serde)]
    meta: Option<Value>,
}

const DEEP: usize = 10_000;

/// Runs `read` over what `build` makes on a thread with a tokio worker's
/// stack (2 MB); the value is built and dropped on a thread with room to
/// spare (dropping 10,000 levels recurses, which is not the reader's
/// doing), and the result handed back.
fn on_2mb<T: Send + Sync, R: Send>(
    build: impl FnOnce() -> T + Send,
    read: impl FnOnce(&T) -> R + Send,
) -> R {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn_scoped(s, || {
                let value = build();
                let out = std::thread::scope(|inner| {
                    std::thread::Builder::new()
                        .stack_size(2 << 20)
                        .spawn_scoped(inner, || read(&value))
                        .unwrap()
                        .join()
                        .expect("the reader overflowed or panicked")
                });
                drop(value);
                out
            })
            .unwrap()
            .join()
            .unwrap()
    })
}

/// `levels` maps `{"next": ..}` around NULL: the outermost is the
/// attribute (level 1), the NULL sits at level `levels + 1`.
fn chain(levels: usize) -> V {
    (0..levels).fold(V::Null(true), |v, _| {
        V::M(HashMap::from([("next".to_owned(), v)]))
    })
}

/// The item of a `Doc` with `attr` set to `value`.
fn doc(attr: &str, value: V) -> HashMap<String, V> {
    let mut item = Doc {
        id: "d".into(),
        node: None,
        raw: None,
        tree: None,
        dir: None,
        meta: None,
    }
    .to_item()
    .unwrap();
    item.insert(attr.to_owned(), value);
    item
}

fn too_deep(e: &DecodeError) -> bool {
    e.kind == DecodeErrorKind::TooDeep
}

#[test]
fn the_most_dynamodb_stores_still_reads() {
    assert_eq!(MAX_NESTING, 32);
    // 31 maps: the innermost node's `next` (NULL) is at level 32.
    let d = Doc::from_item(&doc("node", chain(31))).unwrap();
    let mut n = d.node.unwrap();
    let mut levels = 1;
    while let Some(next) = n.next {
        n = *next;
        levels += 1;
    }
    assert_eq!(levels, 31);
    let raw = Doc::from_item(&doc("raw", chain(31))).unwrap().raw.unwrap();
    assert_eq!(raw, chain(31));
    // One more map is one level too many, refused at the 32nd.
    let e = Doc::from_item(&doc("node", chain(32))).unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert_eq!(e.path, format!("node{}", ".next".repeat(31)));
    let e = Doc::from_item(&doc("raw", chain(32))).unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert_eq!(e.path, format!("raw{}", ".next".repeat(31)));
    // DynamoDB JSON of 32 levels reads.
    let item = obj("raw", json_chain(31));
    assert_eq!(item_from_json(&item).unwrap()["raw"], chain(31));
    assert!(matches!(
        item_from_json(&obj("raw", json_chain(32))),
        Err(ChangeError::TooDeep { .. })
    ));
}

#[test]
fn a_derived_recursive_struct_is_refused_not_overflowed() {
    let e = on_2mb(|| doc("node", chain(DEEP)), Doc::from_item).unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert!(e.path.starts_with("node.next.next"), "{}", e.path);
    assert!(e.to_string().contains("at most 32 levels"), "{e}");
}

#[test]
fn a_raw_attribute_value_is_refused_not_copied() {
    let e = on_2mb(|| doc("raw", chain(DEEP)), Doc::from_item).unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert_eq!(e.path, format!("raw{}", ".next".repeat(31)));
}

#[test]
fn lists_maps_and_serde_fields_are_refused() {
    let tree = || {
        (0..DEEP / 2).fold(V::L(Vec::new()), |v, _| {
            V::L(vec![V::M(HashMap::from([("kids".to_owned(), v)]))])
        })
    };
    let e = on_2mb(
        || doc("tree", V::M(HashMap::from([("kids".to_owned(), tree())]))),
        Doc::from_item,
    )
    .unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert!(e.path.starts_with("tree.kids[0].kids[0]"), "{}", e.path);
    let dir = || {
        (0..DEEP / 2).fold(V::M(HashMap::new()), |v, _| {
            V::M(HashMap::from([(
                "x".to_owned(),
                V::M(HashMap::from([("entries".to_owned(), v)])),
            )]))
        })
    };
    let e = on_2mb(
        || doc("dir", V::M(HashMap::from([("entries".to_owned(), dir())]))),
        Doc::from_item,
    )
    .unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert!(e.path.starts_with("dir.entries.x.entries"), "{}", e.path);
    let e = on_2mb(|| doc("meta", chain(DEEP)), Doc::from_item).unwrap_err();
    assert!(too_deep(&e), "{e}");
    assert!(e.path.starts_with("meta.next"), "{}", e.path);
    // A nested value read on its own, as `Attr` by hand.
    let e = on_2mb(
        || chain(DEEP),
        |v| <Node as dynakey::Attr>::from_attr(v, &dynakey::AttrPath::root("n")),
    )
    .unwrap_err();
    assert!(too_deep(&e), "{e}");
}

/// `{k: v}`, without `json!`, which copies a value it is given (through
/// `Serialize`, recursively).
fn obj(k: &str, v: Value) -> Value {
    Value::Object([(k.to_owned(), v)].into_iter().collect())
}

/// `levels` DynamoDB JSON maps `{"M": {"next": ..}}` around NULL.
fn json_chain(levels: usize) -> Value {
    (0..levels).fold(json!({ "NULL": true }), |v, _| obj("M", obj("next", v)))
}

/// The same as text, built without recursion.
fn json_chain_text(levels: usize) -> String {
    let mut s = "{\"M\":{\"next\":".repeat(levels);
    s.push_str("{\"NULL\":true}");
    s.push_str(&"}}".repeat(levels));
    s
}

fn record(image: Value) -> Value {
    let mut r = json!({
        "eventName": "INSERT",
        "dynamodb": { "Keys": { "pk": { "S": "DOC#d" } } }
    });
    r["dynamodb"]["NewImage"] = image;
    r
}

fn record_text(attr_json: &str) -> String {
    format!(
        r#"{{"eventName":"INSERT","dynamodb":{{"Keys":{{"pk":{{"S":"DOC#d"}}}},"NewImage":{{"pk":{{"S":"DOC#d"}},"raw":{attr_json}}}}}}}"#
    )
}

fn is_too_deep(e: &ChangeError) -> bool {
    matches!(e, ChangeError::TooDeep { .. })
}

#[test]
fn dynamodb_json_values_and_text_are_refused() {
    // A `Value` has no depth limit of its own.
    let e = on_2mb(
        || obj("raw", json_chain(DEEP)),
        |v| item_from_json(v).map(|_| ()),
    )
    .unwrap_err();
    let ChangeError::TooDeep { at } = &e else {
        panic!("{e}")
    };
    assert_eq!(at, &format!("item.raw{}", ".next".repeat(31)));
    let e = on_2mb(
        || record(obj("raw", json_chain(DEEP))),
        |v| record_from_json(v).map(|_| ()),
    )
    .unwrap_err();
    assert!(is_too_deep(&e), "{e}");
    assert!(e.to_string().contains("NewImage.raw.next"), "{e}");
    let d = ChangeDecoder::<Doc>::entity();
    // Text: past serde_json's 128 levels, and below them past DynamoDB's 32.
    for levels in [DEEP, 40] {
        let text = record_text(&json_chain_text(levels));
        let e = on_2mb(|| text.clone(), |t| d.decode_json_str(t).map(|_| ())).unwrap_err();
        assert!(is_too_deep(&e), "{levels}: {e}");
        let e = on_2mb(
            || text.clone().into_bytes(),
            |t| record_from_kinesis_data(t).map(|_| ()),
        )
        .unwrap_err();
        assert!(is_too_deep(&e), "{levels}: {e}");
    }
    // A NULL holding a deep value is NULL, read without recursing.
    let item = on_2mb(
        || obj("x", obj("NULL", json_chain(DEEP))),
        |v| item_from_json(v).unwrap(),
    );
    assert_eq!(item["x"], V::Null(true));
}

#[test]
fn export_lines_are_refused_line_by_line() {
    let text = format!(
        "{{\"Item\":{{\"pk\":{{\"S\":\"DOC#d\"}},\"raw\":{}}}}}\n{{\"Item\":{{\"pk\":{{\"S\":\"DOC#e\"}}}}}}\n",
        json_chain_text(DEEP)
    );
    let results = on_2mb(
        || text,
        |t| {
            ExportReader::new(t.as_bytes())
                .items()
                .map(|r| {
                    r.map(|_| ()).map_err(|e| {
                        let deep =
                            matches!(e.kind, ExportErrorKind::Decode(ChangeError::TooDeep { .. }));
                        (e.line, e.to_string(), deep)
                    })
                })
                .collect::<Vec<_>>()
        },
    );
    let (line, message, deep) = results[0].clone().unwrap_err();
    assert_eq!(line, 1);
    assert!(deep, "{message}");
    assert!(message.contains("Item.raw.next"), "{message}");
    assert!(results[1].is_ok(), "the next line reads");
    // Deep JSON outside the items is left to serde_json's limit.
    let text = format!(
        "{{\"Metadata\":{}, \"Keys\":{{\"pk\":{{\"S\":\"DOC#d\"}}}}}}\n",
        "[".repeat(DEEP) + &"]".repeat(DEEP)
    );
    let r = on_2mb(
        || text,
        |t| {
            ExportReader::new(t.as_bytes())
                .records()
                .next()
                .unwrap()
                .map(|_| ())
        },
    );
    assert!(r.is_err());
}

/// A deep Streams API value.
fn stream_chain(levels: usize) -> StreamValue {
    (0..levels).fold(StreamValue::Null(true), |v, _| {
        StreamValue::M(HashMap::from([("next".to_owned(), v)]))
    })
}

#[test]
fn streams_lambda_and_hand_built_records_are_refused() {
    use aws_sdk_dynamodbstreams::types::{OperationType, Record, StreamRecord};
    let e = on_2mb(
        || {
            let image = StreamRecord::builder()
                .keys("pk", StreamValue::S("DOC#d".into()))
                .new_image("raw", stream_chain(DEEP))
                .build();
            Record::builder()
                .event_name(OperationType::Insert)
                .dynamodb(image)
                .build()
        },
        |r| record_from_stream(r).map(|_| ()),
    )
    .unwrap_err();
    let ChangeError::TooDeep { at } = &e else {
        panic!("{e}")
    };
    assert!(at.starts_with("NewImage.raw.next"), "{at}");
    let e = on_2mb(
        || stream_chain(DEEP),
        |v| dynakey::changes::from_stream_value(v).map(|_| ()),
    )
    .unwrap_err();
    assert!(is_too_deep(&e), "{e}");
    let ok = dynakey::changes::from_stream_value(&stream_chain(31)).unwrap();
    assert_eq!(ok, chain(31));

    // Lambda's DynamoDB event, its image deep.
    let e = on_2mb(
        || {
            let mut r: aws_lambda_events::event::dynamodb::EventRecord =
                serde_json::from_value(json!({
                    "awsRegion": "us-east-1", "eventID": "1", "eventName": "INSERT",
                    "dynamodb": { "Keys": { "pk": { "S": "DOC#d" } }, "SizeBytes": 10 }
                }))
                .unwrap();
            let deep = (0..DEEP).fold(serde_dynamo::AttributeValue::Null(true), |v, _| {
                serde_dynamo::AttributeValue::M(HashMap::from([("next".to_owned(), v)]))
            });
            r.change.new_image = HashMap::from([("raw".to_owned(), deep)]).into();
            r
        },
        |r| record_from_lambda(r).map(|_| ()),
    )
    .unwrap_err();
    assert!(is_too_deep(&e), "{e}");
    assert!(e.to_string().contains("NewImage.raw.next"), "{e}");

    // A record built by hand goes through the decoder's own check.
    let e = on_2mb(
        || {
            let item = doc("raw", chain(DEEP));
            ChangeRecord::new(Operation::Insert, doc("id", V::S("d".into()))).with_new(item)
        },
        |r| ChangeDecoder::<Doc>::entity().decode(r).map(|_| ()),
    )
    .unwrap_err();
    assert!(is_too_deep(&e), "{e}");
}
