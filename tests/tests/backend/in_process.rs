//! The embedded engine's in-process transport against dynoxide's HTTP
//! handler: the same requests, good and bad, sent to two engines in the
//! same state, one through `Backend::client()` (requests answered in the
//! process where that gives the handler's answer, the rest by the
//! handler) and one through the SDK's HTTP client to the loopback server
//! only (the path every request took before). Every response (status and
//! body) and the tables afterwards must be the same; and the requests that
//! can be answered in the process must have been.
//!
//! Embedded only by nature: both sides are `local::memory()` whatever
//! `DYNAKEY_ENDPOINT` says.

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    KeysAndAttributes, Projection, ProjectionType, ReturnConsumedCapacity, ReturnValue,
    ScalarAttributeType,
};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::byte_stream::ByteStream;
use dynakey::local;
use proptest::prelude::*;
use serde_json::Value;

const TABLE: &str = "diff";

/// One exchange as the client saw it.
#[derive(Debug, Clone)]
struct Seen {
    op: String,
    status: u16,
    body: Value,
    /// Answered by dynoxide's HTTP server (it names itself in `server`).
    by_server: bool,
}

/// Records every response of the client it wraps.
#[derive(Debug, Clone)]
struct Recorder {
    inner: SharedHttpClient,
    seen: Arc<Mutex<Vec<Seen>>>,
}

#[derive(Debug)]
struct RecordingConnector {
    inner: SharedHttpConnector,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl HttpClient for Recorder {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(RecordingConnector {
            inner: self.inner.http_connector(settings, components),
            seen: self.seen.clone(),
        })
    }
}

impl HttpConnector for RecordingConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let op = request
            .headers()
            .get("x-amz-target")
            .unwrap_or_default()
            .to_owned();
        let call = self.inner.call(request);
        let seen = self.seen.clone();
        HttpConnectorFuture::new(async move {
            let resp = call.await?;
            let status = resp.status().as_u16();
            let by_server = resp.headers().get("server").is_some();
            let headers = resp.headers().clone();
            let bytes = ByteStream::new(resp.into_body())
                .collect()
                .await
                .map_err(|e| aws_smithy_runtime_api::client::result::ConnectorError::io(e.into()))?
                .into_bytes();
            seen.lock().unwrap().push(Seen {
                op,
                status,
                body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                by_server,
            });
            let mut out = HttpResponse::new(status.try_into().unwrap(), SdkBody::from(bytes));
            *out.headers_mut() = headers;
            Ok(out)
        })
    }
}

/// A client on `conf` whose responses are recorded.
fn recorded(
    conf: aws_sdk_dynamodb::config::Builder,
    http: SharedHttpClient,
) -> (Client, Arc<Mutex<Vec<Seen>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let rec = Recorder {
        inner: http,
        seen: seen.clone(),
    };
    let conf = conf
        .http_client(rec)
        .retry_config(RetryConfig::disabled())
        .build();
    (Client::from_conf(conf), seen)
}

/// Members that differ between two engines in the same state: times and
/// ids of their own making.
fn normalize(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for k in [
                "CreationDateTime",
                "TableId",
                "LatestStreamLabel",
                "LatestStreamArn",
            ] {
                m.remove(k);
            }
            // A batch's responses come in no promised order.
            if let Some(Value::Object(r)) = m.get_mut("Responses") {
                for items in r.values_mut() {
                    if let Value::Array(a) = items {
                        a.sort_by_key(|x| x.to_string());
                    }
                }
            }
            m.values_mut().for_each(normalize);
        }
        Value::Array(a) => a.iter_mut().for_each(normalize),
        _ => {}
    }
}

// ---- what the requests are made of ----

/// Text values, nasty ones included.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just(String::new()),
        1 => Just(" ".to_owned()),
        1 => Just("a#b".to_owned()),
        1 => Just("Zürich 🚀".to_owned()),
        6 => "[a-c]{1,3}",
        1 => Just("x".repeat(1025)),
    ]
}

/// Number text in every form a client writes, and some no number has.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => good_number(),
        1 => bad_number(),
    ]
}

/// Numbers DynamoDB takes, in the forms clients write them.
fn good_number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1".to_owned()),
        Just("-0".to_owned()),
        Just("1E+2".to_owned()),
        Just("0.10".to_owned()),
        Just("9".repeat(38)),
        Just("-1e125".to_owned()),
        (-1000i64..1000).prop_map(|n| n.to_string()),
    ]
}

/// Number text DynamoDB refuses (or that only some layers take).
fn bad_number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1".to_owned()),
        Just("-0".to_owned()),
        Just("1E+2".to_owned()),
        Just("0.10".to_owned()),
        Just("+5".to_owned()),
        Just(".5".to_owned()),
        Just("5.".to_owned()),
        Just(" 1".to_owned()),
        Just("".to_owned()),
        Just("abc".to_owned()),
        Just("1e126".to_owned()),
        Just("1e-131".to_owned()),
        Just("9".repeat(39)),
    ]
}

fn value() -> impl Strategy<Value = AttributeValue> {
    prop_oneof![4 => good_value(), 1 => any_value()]
}

/// Values DynamoDB stores.
fn good_value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        "[a-c ]{1,4}".prop_map(AttributeValue::S),
        good_number().prop_map(AttributeValue::N),
        prop::collection::vec(any::<u8>(), 1..4).prop_map(|b| AttributeValue::B(Blob::new(b))),
        any::<bool>().prop_map(AttributeValue::Bool),
        Just(AttributeValue::Null(true)),
        prop::collection::btree_set("[a-c]{1,2}", 1..3)
            .prop_map(|v| AttributeValue::Ss(v.into_iter().collect())),
        prop::collection::btree_set(0u32..20, 1..3)
            .prop_map(|v| AttributeValue::Ns(v.into_iter().map(|n| n.to_string()).collect())),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(AttributeValue::L),
            prop::collection::hash_map("[a-c]{1,2}", inner, 0..3)
                .prop_map(|m| AttributeValue::M(m.into_iter().collect())),
        ]
    })
}

/// Any value, those DynamoDB refuses included.
fn any_value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        text().prop_map(AttributeValue::S),
        number().prop_map(AttributeValue::N),
        prop::collection::vec(any::<u8>(), 0..4).prop_map(|b| AttributeValue::B(Blob::new(b))),
        any::<bool>().prop_map(AttributeValue::Bool),
        any::<bool>().prop_map(AttributeValue::Null),
        prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("")], 0..3)
            .prop_map(|v| AttributeValue::Ss(v.into_iter().map(str::to_owned).collect())),
        prop::collection::vec(prop_oneof![Just("1"), Just("1.0"), Just("x")], 0..3)
            .prop_map(|v| AttributeValue::Ns(v.into_iter().map(str::to_owned).collect())),
        prop::collection::vec(prop::collection::vec(any::<u8>(), 0..2), 0..3)
            .prop_map(|v| AttributeValue::Bs(v.into_iter().map(Blob::new).collect())),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(AttributeValue::L),
            prop::collection::hash_map(prop_oneof![Just(""), Just("k"), Just("#")], inner, 0..3)
                .prop_map(|m| AttributeValue::M(
                    m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
        ]
    })
}

/// A key value: mostly one of a few (so requests meet the same items),
/// sometimes of the wrong type or empty.
fn key_part(pool: &'static [&'static str]) -> impl Strategy<Value = AttributeValue> {
    prop_oneof![
        16 => prop::sample::select(pool).prop_map(|s| AttributeValue::S(s.to_owned())),
        1 => Just(AttributeValue::S(String::new())),
        1 => Just(AttributeValue::N("1".into())),
    ]
}

type Item = std::collections::HashMap<String, AttributeValue>;

fn key() -> impl Strategy<Value = Item> {
    (key_part(&["a", "b"]), key_part(&["1", "2", "3"]), 0u8..30).prop_map(|(pk, sk, shape)| {
        let mut k = Item::new();
        k.insert("pk".into(), pk);
        match shape {
            0 => {} // no sort key
            1 => {
                k.insert("sk".into(), AttributeValue::S("1".into()));
                k.insert("extra".into(), AttributeValue::S("x".into()));
            }
            _ => {
                k.insert("sk".into(), sk);
            }
        }
        k
    })
}

fn item() -> impl Strategy<Value = Item> {
    (
        key(),
        prop::collection::hash_map(
            prop_oneof![8 => Just("a"), 8 => Just("b"), 1 => Just("")],
            value(),
            0..3,
        ),
        prop::option::of(prop_oneof![
            6 => good_number().prop_map(AttributeValue::N),
            1 => bad_number().prop_map(AttributeValue::N),
            1 => Just(AttributeValue::S("1".into())),
        ]),
        prop::option::of(prop_oneof![
            8 => "[a-c]{1,3}".prop_map(AttributeValue::S),
            1 => text().prop_map(AttributeValue::S),
            1 => Just(AttributeValue::Bool(true))
        ]),
    )
        .prop_map(|(mut k, attrs, g, gs)| {
            k.extend(attrs.into_iter().map(|(n, v)| (n.to_owned(), v)));
            if let Some(g) = g {
                k.insert("g".into(), g);
            }
            if let Some(gs) = gs {
                k.insert("gs".into(), gs);
            }
            k
        })
}

/// A condition with its names and values: good ones, and ones DynamoDB
/// refuses (syntax, unused or missing placeholders, a wrong function).
#[derive(Debug, Clone)]
struct Cond {
    expr: String,
    names: Vec<(&'static str, &'static str)>,
    values: Vec<(&'static str, AttributeValue)>,
}

fn cond() -> impl Strategy<Value = Cond> {
    let attr = prop::sample::select(&["a", "b", "pk", "g", "select"][..]);
    (attr, value(), 0u8..12).prop_map(|(a, v, shape)| {
        let (expr, names, values): (&str, Vec<_>, Vec<_>) = match shape {
            0 | 9 | 10 | 11 => ("attribute_not_exists(#a)", vec![("#a", a)], vec![]),
            1 => ("attribute_exists(#a)", vec![("#a", a)], vec![]),
            2 => ("#a = :v", vec![("#a", a)], vec![(":v", v)]),
            3 => ("size(#a) > :v", vec![("#a", a)], vec![(":v", v)]),
            4 => ("begins_with(#a, :v)", vec![("#a", a)], vec![(":v", v)]),
            5 => ("#a IN (:v)", vec![("#a", a)], vec![(":v", v)]),
            6 => ("#a = ", vec![("#a", a)], vec![]),
            7 => (
                "#a = :v",
                vec![("#a", a), ("#unused", "b")],
                vec![(":v", v)],
            ),
            _ => ("nosuchfn(#a)", vec![("#a", a)], vec![]),
        };
        Cond {
            expr: expr.to_owned(),
            names,
            values,
        }
    })
}

fn update_expr() -> impl Strategy<Value = Cond> {
    let attr = prop::sample::select(&["a", "b", "g", "sk"][..]);
    (attr, value(), 0u8..12).prop_map(|(a, v, shape)| {
        let (expr, names, values): (&str, Vec<_>, Vec<_>) = match shape {
            0 | 9 | 10 | 11 => ("SET #a = :v", vec![("#a", a)], vec![(":v", v)]),
            1 => ("SET #a = #a + :v", vec![("#a", a)], vec![(":v", v)]),
            2 => ("ADD #a :v", vec![("#a", a)], vec![(":v", v)]),
            3 => ("REMOVE #a", vec![("#a", a)], vec![]),
            4 => ("DELETE #a :v", vec![("#a", a)], vec![(":v", v)]),
            5 => (
                "SET #a = list_append(if_not_exists(#a, :v), :v)",
                vec![("#a", a)],
                vec![(":v", v)],
            ),
            6 => ("SET #a = :v, #a = :v", vec![("#a", a)], vec![(":v", v)]),
            7 => ("SET", vec![], vec![]),
            _ => ("SET #a = :v REMOVE #a", vec![("#a", a)], vec![(":v", v)]),
        };
        Cond {
            expr: expr.to_owned(),
            names,
            values,
        }
    })
}

/// `ReturnValues`; puts and deletes take only `NONE` and `ALL_OLD`.
fn return_values() -> impl Strategy<Value = Option<ReturnValue>> {
    prop::option::of(prop_oneof![
        3 => Just(ReturnValue::None),
        3 => Just(ReturnValue::AllOld),
        1 => Just(ReturnValue::AllNew),
        1 => Just(ReturnValue::UpdatedNew),
    ])
}

#[derive(Debug, Clone)]
enum Req {
    Put(Item, Option<Cond>, Option<ReturnValue>),
    Get(Item, bool, Option<&'static str>),
    Delete(Item, Option<Cond>, Option<ReturnValue>),
    Update(Item, Cond, Option<Cond>, Option<ReturnValue>),
    Query {
        pk: AttributeValue,
        sk: Option<(u8, AttributeValue)>,
        filter: Option<Cond>,
        limit: Option<i32>,
        index: bool,
        forward: bool,
    },
    Scan(Option<Cond>, Option<i32>),
    BatchGet(Vec<Item>),
    Describe(&'static str),
}

fn req() -> impl Strategy<Value = Req> {
    prop_oneof![
        4 => (item(), prop::option::of(cond()), return_values())
            .prop_map(|(i, c, r)| Req::Put(i, c, r)),
        2 => (key(), any::<bool>(), prop::option::of(prop::sample::select(&["a, sk", "#nope", "a.b[0]"][..])))
            .prop_map(|(k, c, p)| Req::Get(k, c, p)),
        1 => (key(), prop::option::of(cond()), return_values())
            .prop_map(|(k, c, r)| Req::Delete(k, c, r)),
        3 => (key(), update_expr(), prop::option::of(cond()), return_values())
            .prop_map(|(k, u, c, r)| Req::Update(k, u, c, r)),
        2 => (
            key_part(&["a", "b"]),
            prop::option::of((0u8..4, prop_oneof![
                Just(AttributeValue::S("2".into())),
                Just(AttributeValue::N("2".into())),
                Just(AttributeValue::S(String::new())),
            ])),
            prop::option::of(cond()),
            prop::option::of(prop_oneof![6 => 1i32..4, 1 => -1i32..1]),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(pk, sk, filter, limit, index, forward)| Req::Query { pk, sk, filter, limit, index, forward }),
        1 => (prop::option::of(cond()), prop::option::of(prop_oneof![6 => 1i32..4, 1 => Just(0)]))
            .prop_map(|(c, l)| Req::Scan(c, l)),
        1 => prop::collection::vec(key(), 0..4).prop_map(Req::BatchGet),
        1 => prop::sample::select(&[TABLE, "missing", ""][..]).prop_map(Req::Describe),
    ]
}

/// Sends `r` (its outcome is in the recorder; the SDK's result only says
/// whether it parsed).
async fn send(c: &Client, r: &Req) {
    macro_rules! with_cond {
        ($b:expr, $c:expr, $set_expr:ident) => {{
            let mut b = $b;
            if let Some(c) = $c {
                b = b.$set_expr(&c.expr);
                for (n, a) in &c.names {
                    b = b.expression_attribute_names(*n, *a);
                }
                for (n, v) in &c.values {
                    b = b.expression_attribute_values(*n, v.clone());
                }
            }
            b
        }};
    }
    let cap = ReturnConsumedCapacity::Total;
    match r {
        Req::Put(item, cond, rv) => {
            let b = c
                .put_item()
                .table_name(TABLE)
                .set_item(Some(item.clone()))
                .set_return_values(rv.clone())
                .return_consumed_capacity(cap);
            let _ = with_cond!(b, cond, condition_expression).send().await;
        }
        Req::Get(key, consistent, projection) => {
            let mut b = c
                .get_item()
                .table_name(TABLE)
                .set_key(Some(key.clone()))
                .consistent_read(*consistent)
                .return_consumed_capacity(cap);
            if let Some(p) = projection {
                b = b.projection_expression(*p);
            }
            let _ = b.send().await;
        }
        Req::Delete(key, cond, rv) => {
            let b = c
                .delete_item()
                .table_name(TABLE)
                .set_key(Some(key.clone()))
                .set_return_values(rv.clone());
            let _ = with_cond!(b, cond, condition_expression).send().await;
        }
        Req::Update(key, upd, cond, rv) => {
            let mut b = c
                .update_item()
                .table_name(TABLE)
                .set_key(Some(key.clone()))
                .update_expression(&upd.expr)
                .set_return_values(rv.clone());
            for (n, a) in &upd.names {
                b = b.expression_attribute_names(*n, *a);
            }
            for (n, v) in &upd.values {
                b = b.expression_attribute_values(*n, v.clone());
            }
            if let Some(c) = cond {
                b = b.condition_expression(c.expr.replace(":v", ":c").replace("#a", "#c"));
                for (n, a) in &c.names {
                    b = b.expression_attribute_names(n.replace("#a", "#c"), *a);
                }
                for (n, v) in &c.values {
                    b = b.expression_attribute_values(n.replace(":v", ":c"), v.clone());
                }
            }
            let _ = b.send().await;
        }
        Req::Query {
            pk,
            sk,
            filter,
            limit,
            index,
            forward,
        } => {
            let (pk_attr, sk_attr) = if *index { ("g", "gs") } else { ("pk", "sk") };
            let mut kc = "#pk = :pk".to_owned();
            let mut b = c
                .query()
                .table_name(TABLE)
                .expression_attribute_names("#pk", pk_attr)
                .expression_attribute_values(":pk", pk.clone())
                .scan_index_forward(*forward)
                .set_limit(*limit)
                .return_consumed_capacity(cap);
            if *index {
                b = b.index_name("GSI");
            }
            if let Some((op, v)) = sk {
                kc.push_str(match op {
                    0 => " AND #sk = :sk",
                    1 => " AND #sk > :sk",
                    2 => " AND begins_with(#sk, :sk)",
                    _ => " AND #sk BETWEEN :sk AND :sk",
                });
                b = b
                    .expression_attribute_names("#sk", sk_attr)
                    .expression_attribute_values(":sk", v.clone());
            }
            if let Some(f) = filter {
                b = b.filter_expression(f.expr.replace(":v", ":f").replace("#a", "#f"));
                for (n, a) in &f.names {
                    b = b.expression_attribute_names(n.replace("#a", "#f"), *a);
                }
                for (n, v) in &f.values {
                    b = b.expression_attribute_values(n.replace(":v", ":f"), v.clone());
                }
            }
            let _ = b.key_condition_expression(kc).send().await;
        }
        Req::Scan(filter, limit) => {
            let b = c
                .scan()
                .table_name(TABLE)
                .set_limit(*limit)
                .return_consumed_capacity(cap);
            let _ = with_cond!(b, filter, filter_expression).send().await;
        }
        Req::BatchGet(keys) => {
            let ka = KeysAndAttributes::builder()
                .set_keys(Some(keys.clone()))
                .build();
            let mut b = c.batch_get_item().return_consumed_capacity(cap);
            if let Ok(ka) = ka {
                b = b.request_items(TABLE, ka);
            }
            let _ = b.send().await;
        }
        Req::Describe(name) => {
            let _ = c.describe_table().table_name(*name).send().await;
        }
    }
}

async fn create(c: &Client) {
    let def = |n: &str, t| {
        AttributeDefinition::builder()
            .attribute_name(n)
            .attribute_type(t)
            .build()
            .unwrap()
    };
    let ks = |n: &str, t| {
        KeySchemaElement::builder()
            .attribute_name(n)
            .key_type(t)
            .build()
            .unwrap()
    };
    c.create_table()
        .table_name(TABLE)
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .attribute_definitions(def("pk", ScalarAttributeType::S))
        .attribute_definitions(def("sk", ScalarAttributeType::S))
        .attribute_definitions(def("g", ScalarAttributeType::N))
        .attribute_definitions(def("gs", ScalarAttributeType::S))
        .key_schema(ks("pk", KeyType::Hash))
        .key_schema(ks("sk", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI")
                .key_schema(ks("g", KeyType::Hash))
                .key_schema(ks("gs", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
}

/// A value in a form whose maps compare without their order.
fn canon(v: &AttributeValue) -> Value {
    match v {
        AttributeValue::M(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), canon(v))).collect())
        }
        AttributeValue::L(l) => Value::Array(l.iter().map(canon).collect()),
        other => Value::String(format!("{other:?}")),
    }
}

/// Every item of the table, in a stable order.
async fn contents(c: &Client) -> Vec<String> {
    let out = c.scan().table_name(TABLE).send().await.unwrap();
    let mut items: Vec<String> = out
        .items()
        .iter()
        .map(|i| {
            let m: serde_json::Map<String, Value> =
                i.iter().map(|(k, v)| (k.clone(), canon(v))).collect();
            Value::Object(m).to_string()
        })
        .collect();
    items.sort();
    items
}

/// Runs `reqs` both ways and compares (see the module doc), one request
/// at a time, so that a request whose answer the handler picks by hash
/// order can be asked again in the same state.
async fn compare(reqs: &[Req]) -> Result<(), TestCaseError> {
    let (a, b) = (local::memory().unwrap(), local::memory().unwrap());
    let (direct, seen_a) = recorded(a.config_builder(), a.http_client());
    let (routed, seen_b) = recorded(
        local::config_for_endpoint(b.endpoint()),
        aws_smithy_http_client::Builder::new().build_http(),
    );
    create(&direct).await;
    create(&routed).await;
    let taken = |seen: &Arc<Mutex<Vec<Seen>>>| std::mem::take(&mut *seen.lock().unwrap());
    let mut all = Vec::new();
    for r in reqs {
        taken(&seen_a);
        taken(&seen_b);
        send(&direct, r).await;
        send(&routed, r).await;
        let (sa, sb) = (taken(&seen_a), taken(&seen_b));
        prop_assert_eq!(sa.len(), sb.len());
        for (x, y) in sa.iter().zip(&sb) {
            let y = if same(x, y) {
                y.clone()
            } else {
                handler_also_answers(&routed, &seen_b, r, x)
                    .await
                    .unwrap_or_else(|| y.clone())
            };
            prop_assert_eq!(
                (&x.op, x.status, normalized(x)),
                (&y.op, y.status, normalized(&y)),
                "in-process (left) and the handler (right) differ"
            );
            prop_assert!(y.by_server, "the routed client reached the server");
            // A good request of an operation the process answers is
            // answered there; everything else by the handler.
            let direct_op = [
                "PutItem",
                "GetItem",
                "DeleteItem",
                "UpdateItem",
                "Query",
                "Scan",
                "BatchGetItem",
                "CreateTable",
                "DescribeTable",
                "DeleteTable",
            ]
            .iter()
            .any(|o| x.op.ends_with(o));
            prop_assert_eq!(
                x.by_server,
                !(direct_op && x.status == 200),
                "{} {} answered by the server: {}",
                &x.op,
                x.status,
                x.by_server
            );
        }
        all.extend(sa);
    }
    prop_assert_eq!(contents(&direct).await, contents(&routed).await);
    if std::env::var_os("DIFF_STATS").is_some() {
        for x in &all {
            let msg = x.body.get("message").map(Value::to_string);
            eprintln!("STAT {} {} {} {msg:?}", x.op, x.status, x.by_server);
        }
    }
    Ok(())
}

/// The body of `x` without what two engines make up on their own.
fn normalized(x: &Seen) -> Value {
    let mut v = x.body.clone();
    normalize(&mut v);
    v
}

fn same(x: &Seen, y: &Seen) -> bool {
    (&x.op, x.status, normalized(x)) == (&y.op, y.status, normalized(y))
}

/// dynoxide checks an item's attributes (and a request's values) in the
/// order of a `HashMap`, so a request with two faults of one kind (an
/// empty string set in one attribute, an empty binary set in another) is
/// answered with either message, by the handler alone as much as through
/// the process. When both sides refused `r` as invalid with different
/// messages, the handler is asked again (a refused request changes
/// nothing) until it gives the in-process answer `x`: the answer found, or
/// `None` if 64 tries never gave it.
async fn handler_also_answers(
    routed: &Client,
    seen: &Arc<Mutex<Vec<Seen>>>,
    r: &Req,
    x: &Seen,
) -> Option<Seen> {
    let invalid = |s: &Seen| {
        s.status == 400
            && s.body.get("__type").and_then(Value::as_str)
                == Some("com.amazon.coral.validate#ValidationException")
    };
    if !invalid(x) {
        return None;
    }
    for _ in 0..64 {
        send(routed, r).await;
        let again = std::mem::take(&mut *seen.lock().unwrap());
        match again.as_slice() {
            [y] if !invalid(y) => return None,
            [y] if same(x, y) => return Some(y.clone()),
            [_] => {}
            _ => return None,
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    #[test]
    fn in_process_answers_what_dynoxides_handler_answers(reqs in prop::collection::vec(req(), 1..14)) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(compare(&reqs))?;
    }
}

#[tokio::test]
async fn requests_the_process_cannot_answer_exactly_go_to_the_handler() {
    // A batch write (read on DynamoDB's older validation layer, which
    // takes `1E+2`), and an operation the process does not run.
    let backend = local::memory().unwrap();
    let (c, seen) = recorded(backend.config_builder(), backend.http_client());
    create(&c).await;
    let put = aws_sdk_dynamodb::types::PutRequest::builder()
        .item("pk", AttributeValue::S("a".into()))
        .item("sk", AttributeValue::S("1".into()))
        .item("n", AttributeValue::N("1E+2".into()))
        .build()
        .unwrap();
    c.batch_write_item()
        .request_items(
            TABLE,
            vec![aws_sdk_dynamodb::types::WriteRequest::builder()
                .put_request(put)
                .build()],
        )
        .send()
        .await
        .unwrap();
    c.list_tables().send().await.unwrap();
    let got = c
        .get_item()
        .table_name(TABLE)
        .key("pk", AttributeValue::S("a".into()))
        .key("sk", AttributeValue::S("1".into()))
        .send()
        .await
        .unwrap();
    assert_eq!(got.item().unwrap()["n"], AttributeValue::N("100".into()));
    let seen = seen.lock().unwrap();
    let by_server: Vec<(&str, bool)> = seen
        .iter()
        .map(|s| (s.op.trim_start_matches("DynamoDB_20120810."), s.by_server))
        .collect();
    assert_eq!(
        by_server,
        [
            ("CreateTable", false),
            ("BatchWriteItem", true),
            ("ListTables", true),
            ("GetItem", false)
        ]
    );
}

#[tokio::test]
async fn a_dropped_backend_stops_the_in_process_path_too() {
    let backend = local::memory().unwrap();
    let client = backend.client().clone();
    client.list_tables().send().await.unwrap();
    create(&client).await;
    drop(backend);
    let err = client
        .describe_table()
        .table_name(TABLE)
        .send()
        .await
        .unwrap_err();
    let text = format!("{err:?}");
    assert!(text.contains("stopped"), "{text}");
}

#[tokio::test]
async fn a_plain_http_client_in_the_config_reaches_the_same_database() {
    let backend = local::memory().unwrap();
    create(backend.client()).await;
    let conf = backend
        .config_builder()
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .build();
    let over_http = Client::from_conf(conf);
    over_http
        .put_item()
        .table_name(TABLE)
        .item("pk", AttributeValue::S("a".into()))
        .item("sk", AttributeValue::S("1".into()))
        .send()
        .await
        .unwrap();
    let got = backend
        .client()
        .get_item()
        .table_name(TABLE)
        .key("pk", AttributeValue::S("a".into()))
        .key("sk", AttributeValue::S("1".into()))
        .send()
        .await
        .unwrap();
    assert!(got.item().is_some());
}
