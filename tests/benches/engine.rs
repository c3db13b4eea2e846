//! The embedded engine's request path against dynoxide's own in-process
//! call of the same request: a put (of an item with a GSI key), a get and
//! a 20-item query, each through dynakey, through hand-written SDK calls
//! (`format!` keys, serde_dynamo) on the same client, through the SDK over
//! loopback HTTP to dynoxide's server (the embedded path before the
//! in-process transport), and as `dynoxide::Database::put_item` & co.
//! called directly. `put` also times the SDK alone (a canned response, no
//! engine): the pipeline's own share.
//!
//! Criterion times each case; then every case is timed again, the cases
//! interleaved round by round, and the medians are printed as ratios to
//! dynoxide's call (what the guide's Performance page quotes).
//!
//! `cargo bench -p dynakey-tests --bench engine`

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use criterion::{criterion_group, criterion_main, Criterion};
use dynakey::{Db, Entity, Item};
use dynakey_tests::interleaved::{ratios, timed, Case};
use dynakey_tests::notes::Note;
use dynoxide::actions::{get_item, put_item, query};
use serde::{Deserialize, Serialize};

const TABLE: &str = "bench";
/// The partition the get and the query read (20 notes).
const READ: &str = "reader";

/// The note as a hand-written client keeps it (serde_dynamo's input).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct NoteRow {
    user: String,
    id: u32,
    tag: Option<String>,
    text: String,
}

fn note(user: &str, id: u32) -> Note {
    Note {
        user: user.into(),
        id,
        tag: Some("red".into()),
        text: "x".repeat(100),
    }
}

fn row(n: &Note) -> NoteRow {
    NoteRow {
        user: n.user.clone(),
        id: n.id,
        tag: n.tag.clone(),
        text: n.text.clone(),
    }
}

fn s(v: String) -> AttributeValue {
    AttributeValue::S(v)
}

/// The item a hand-written client writes: `format!` keys and serde_dynamo.
fn hand_item(r: &NoteRow) -> Item {
    let mut item: Item = serde_dynamo::to_item(r).expect("serde_dynamo");
    let sk = format!("NOTE#{:06}", r.id);
    item.insert("pk".into(), s(format!("USER#{}", r.user)));
    if let Some(tag) = &r.tag {
        item.insert("gsi1pk".into(), s(format!("TAG#{tag}")));
        item.insert("gsi1sk".into(), s(sk.clone()));
    }
    item.insert("sk".into(), s(sk));
    item.insert("entity".into(), s("NOTE".into()));
    item
}

/// An SDK value as dynoxide's type.
fn dx(v: &AttributeValue) -> dynoxide::AttributeValue {
    use dynoxide::AttributeValue as D;
    match v {
        AttributeValue::S(s) => D::S(s.clone()),
        AttributeValue::N(n) => D::N(n.clone()),
        AttributeValue::Bool(b) => D::BOOL(*b),
        AttributeValue::Null(b) => D::NULL(*b),
        AttributeValue::L(l) => D::L(l.iter().map(dx).collect()),
        AttributeValue::M(m) => D::M(dx_map(m)),
        other => panic!("not in the bench's items: {other:?}"),
    }
}

fn dx_map(m: &HashMap<String, AttributeValue>) -> HashMap<String, dynoxide::AttributeValue> {
    m.iter().map(|(k, v)| (k.clone(), dx(v))).collect()
}

/// The SDK's cost alone: every request answered `{}` without an engine
/// (the last request body kept, for the engine-on-JSON case).
#[derive(Debug, Clone, Default)]
struct Canned(std::sync::Arc<std::sync::Mutex<String>>);

impl HttpConnector for Canned {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        if let Some(body) = request.body().bytes() {
            *self.0.lock().unwrap() = String::from_utf8_lossy(body).into_owned();
        }
        let mut r = HttpResponse::new(200.try_into().unwrap(), SdkBody::from("{}"));
        r.headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        HttpConnectorFuture::ready(Ok(r))
    }
}

impl HttpClient for Canned {
    fn http_connector(
        &self,
        _: &HttpConnectorSettings,
        _: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

/// Everything the cases share.
struct Bench {
    rt: tokio::runtime::Runtime,
    _backend: dynakey::local::Backend,
    db: Db,
    client: Client,
    loopback: Client,
    canned: Client,
    /// The body of dynakey's put as the SDK wrote it.
    put_json: String,
    engine: dynoxide::Database,
    put_note: Note,
    put_item: HashMap<String, dynoxide::AttributeValue>,
    get_key: HashMap<String, dynoxide::AttributeValue>,
    query: QueryInput,
}

impl Bench {
    fn new() -> Self {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let backend = dynakey::local::memory().unwrap();
        let db = backend.db(TABLE);
        let client = backend.client().clone();
        // The same database through the SDK's own HTTP client and
        // dynoxide's server on loopback: the embedded path until now.
        let loopback = dynakey::local::client_for_endpoint(backend.endpoint());
        let recorder = Canned::default();
        let canned = Client::from_conf(
            backend
                .config_builder()
                .http_client(recorder.clone())
                .build(),
        );
        let engine = dynoxide::Database::memory().unwrap();

        let put_note = note("writer", 1);
        let put_input = db.put(&put_note).to_input().unwrap();
        assert_eq!(put_input.item(), Some(&hand_item(&row(&put_note))));
        let put_item = dx_map(put_input.item().unwrap());
        let get_input = db.get(Note::key(READ, 7).unwrap()).to_input().unwrap();
        let get_key = dx_map(get_input.key().unwrap());
        let query = db.query(Note::pk(READ).unwrap()).to_input().unwrap();
        // The hand-written and dynoxide queries copy these members.
        assert!(query.index_name().is_none() && query.limit().is_none());

        rt.block_on(
            dynakey::Db::new(canned.clone(), TABLE)
                .put(&put_note)
                .send(),
        )
        .unwrap();
        let put_json = recorder.0.lock().unwrap().clone();
        rt.block_on(async {
            db.create_table(&[Note::META]).await.unwrap();
            for id in 0..20 {
                db.put(&note(READ, id)).send().await.unwrap();
            }
        });
        // dynoxide's copy: the same table (dynakey's CreateTable, as JSON)
        // and the same items.
        let defs = ["pk", "sk", "gsi1pk", "gsi1sk"]
            .map(|a| serde_json::json!({"AttributeName": a, "AttributeType": "S"}));
        let create: dynoxide::actions::create_table::CreateTableRequest =
            serde_json::from_value(serde_json::json!({
                "TableName": TABLE,
                "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": defs,
                "KeySchema": [
                    {"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "sk", "KeyType": "RANGE"}
                ],
                "GlobalSecondaryIndexes": [{
                    "IndexName": "GSI1",
                    "KeySchema": [
                        {"AttributeName": "gsi1pk", "KeyType": "HASH"},
                        {"AttributeName": "gsi1sk", "KeyType": "RANGE"}
                    ],
                    "Projection": {"ProjectionType": "ALL"}
                }]
            }))
            .unwrap();
        engine.create_table(create).unwrap();
        for id in 0..20 {
            let item = db.put(&note(READ, id)).to_input().unwrap();
            engine
                .put_item(put_item::PutItemRequest {
                    table_name: TABLE.into(),
                    item: dx_map(item.item().unwrap()),
                    ..Default::default()
                })
                .unwrap();
        }
        let b = Bench {
            rt,
            _backend: backend,
            db,
            client,
            loopback,
            canned,
            put_json,
            engine,
            put_note,
            put_item,
            get_key,
            query,
        };
        // Every reader sees the same 20 notes.
        assert_eq!(b.query_dynakey(), 20);
        assert_eq!(b.query_sdk(&b.client), 20);
        assert_eq!(b.query_dynoxide(), 20);
        b
    }

    fn put_dynoxide(&self) {
        let r = self.engine.put_item(put_item::PutItemRequest {
            table_name: TABLE.into(),
            item: self.put_item.clone(),
            return_consumed_capacity: Some("TOTAL".into()),
            ..Default::default()
        });
        black_box(r.unwrap());
    }

    /// What the in-process transport does with a put's body: the request
    /// read from its JSON, the engine's call, the response written.
    fn put_dynoxide_json(&self) {
        let r: put_item::PutItemRequest = serde_json::from_str(&self.put_json).unwrap();
        let out = self.engine.put_item(r).unwrap();
        black_box(serde_json::to_string(&out).unwrap());
    }

    fn put_dynakey(&self) {
        self.rt
            .block_on(self.db.put(&self.put_note).send())
            .unwrap();
    }

    fn put_sdk(&self, client: &Client) {
        let item = hand_item(&row(&self.put_note));
        self.rt
            .block_on(
                client
                    .put_item()
                    .table_name(TABLE)
                    .set_item(Some(item))
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send(),
            )
            .unwrap();
    }

    fn get_dynoxide(&self) -> usize {
        let r = self.engine.get_item(get_item::GetItemRequest {
            table_name: TABLE.into(),
            key: self.get_key.clone(),
            return_consumed_capacity: Some("TOTAL".into()),
            ..Default::default()
        });
        r.unwrap().item.map_or(0, |i| i.len())
    }

    fn get_dynakey(&self) -> usize {
        let got = self
            .rt
            .block_on(self.db.get(Note::key(READ, 7).unwrap()).send())
            .unwrap();
        got.map_or(0, |n| n.text.len())
    }

    fn get_sdk(&self, client: &Client) -> usize {
        let out = self
            .rt
            .block_on(
                client
                    .get_item()
                    .table_name(TABLE)
                    .key("pk", s(format!("USER#{READ}")))
                    .key("sk", s(format!("NOTE#{:06}", 7)))
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send(),
            )
            .unwrap();
        let row: Option<NoteRow> = out.item.map(|i| serde_dynamo::from_item(i).unwrap());
        row.map_or(0, |r| r.text.len())
    }

    fn query_dynoxide(&self) -> usize {
        let q = &self.query;
        let r = self.engine.query(query::QueryRequest {
            table_name: TABLE.into(),
            key_condition_expression: q.key_condition_expression().map(str::to_owned),
            filter_expression: q.filter_expression().map(str::to_owned),
            projection_expression: q.projection_expression().map(str::to_owned),
            expression_attribute_names: q.expression_attribute_names().cloned(),
            expression_attribute_values: q.expression_attribute_values().map(dx_map),
            scan_index_forward: true,
            return_consumed_capacity: Some("TOTAL".into()),
            ..Default::default()
        });
        r.unwrap().count
    }

    fn query_dynakey(&self) -> usize {
        let q = self.db.query(Note::pk(READ).unwrap());
        self.rt.block_on(q.all()).unwrap().len()
    }

    fn query_sdk(&self, client: &Client) -> usize {
        let q = &self.query;
        let out = self
            .rt
            .block_on(
                client
                    .query()
                    .table_name(TABLE)
                    .set_key_condition_expression(q.key_condition_expression().map(str::to_owned))
                    .set_filter_expression(q.filter_expression().map(str::to_owned))
                    .set_projection_expression(q.projection_expression().map(str::to_owned))
                    .set_expression_attribute_names(q.expression_attribute_names().cloned())
                    .set_expression_attribute_values(q.expression_attribute_values().cloned())
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send(),
            )
            .unwrap();
        let rows: Vec<NoteRow> = serde_dynamo::from_items(out.items.unwrap_or_default()).unwrap();
        rows.len()
    }
}

/// The cases of each operation; the first is dynoxide's call.
fn cases(b: &Bench) -> Vec<(&'static str, Vec<Case<'_>>)> {
    vec![
        (
            "put",
            vec![
                timed("dynoxide in-process", || b.put_dynoxide()),
                timed("dynakey db.put", || b.put_dynakey()),
                timed("dynoxide on the SDK's JSON", || b.put_dynoxide_json()),
                timed("SDK alone, then on JSON", || {
                    b.put_sdk(&b.canned);
                    b.put_dynoxide_json()
                }),
                timed("hand-written SDK call", || b.put_sdk(&b.client)),
                timed("SDK over loopback HTTP", || b.put_sdk(&b.loopback)),
                timed("SDK alone (no engine)", || b.put_sdk(&b.canned)),
            ],
        ),
        (
            "get",
            vec![
                timed("dynoxide in-process", || _ = b.get_dynoxide()),
                timed("dynakey db.get", || _ = b.get_dynakey()),
                timed("hand-written SDK call", || _ = b.get_sdk(&b.client)),
                timed("SDK over loopback HTTP", || _ = b.get_sdk(&b.loopback)),
            ],
        ),
        (
            "query (20 items)",
            vec![
                timed("dynoxide in-process", || _ = b.query_dynoxide()),
                timed("dynakey db.query", || _ = b.query_dynakey()),
                timed("hand-written SDK call", || _ = b.query_sdk(&b.client)),
                timed("SDK over loopback HTTP", || _ = b.query_sdk(&b.loopback)),
            ],
        ),
    ]
}

/// The interleaved ratios (see `dynakey_tests::interleaved`).
fn summary(groups: &[(&'static str, Vec<Case<'_>>)]) {
    println!("\nengine: median of 15 interleaved rounds, ratio to dynoxide's in-process call");
    for (op, cases) in groups {
        ratios(op, cases, 15, Duration::from_millis(40));
    }
}

fn engine(c: &mut Criterion) {
    let b = Bench::new();
    let groups = cases(&b);
    for (op, cases) in &groups {
        let mut g = c.benchmark_group(format!("engine {op}"));
        g.sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for (name, f) in cases {
            g.bench_function(*name, |bench| bench.iter_custom(|n| f(n as u32)));
        }
        g.finish();
    }
    // `--profile-time N` (criterion's mode for a profiler) runs only the
    // chosen cases: no summary either.
    if !std::env::args().any(|a| a == "--profile-time") {
        summary(&groups);
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
