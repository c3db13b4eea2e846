//! Shard ends and new shards. The embedded engine and moto keep one shard
//! per table that never ends, so the feed's shard handling is tested
//! against a scripted Streams API: an HTTP client that answers
//! DescribeStream, GetShardIterator and GetRecords from shards the test
//! lays out (a parent that closes, children listed before it, a
//! grandchild that appears while the feed runs, pages of two records).

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodbstreams::config::{BehaviorVersion, Credentials, Region};
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use dynakey::changes::{ChangeDecoder, ChangeKind, Checkpoint};
use dynakey::{Entity, Item};
use dynakey_examples::task_counts::{OrgItem, Task};
use serde_json::{json, Value};

use super::task;

const ARN: &str = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1";

#[derive(Debug)]
struct Shard {
    id: &'static str,
    parent: Option<&'static str>,
    records: Vec<Value>,
    closed: bool,
}

#[derive(Debug, Default)]
struct Script {
    shards: Vec<Shard>,
    next_seq: u64,
    requests: Vec<String>,
}

/// DynamoDB JSON of an item (what a `GetRecords` response holds).
fn item_json(item: &Item) -> Value {
    use aws_sdk_dynamodb::types::AttributeValue as V;
    let one = |v: &V| match v {
        V::S(s) => json!({ "S": s }),
        V::N(n) => json!({ "N": n }),
        other => panic!("the script writes strings and numbers only, not {other:?}"),
    };
    Value::Object(item.iter().map(|(k, v)| (k.clone(), one(v))).collect())
}

impl Script {
    /// Appends a record of `name` to shard `shard` (`old` / `new` images).
    fn record(&mut self, shard: &str, name: &str, old: Option<&Task>, new: Option<&Task>) {
        self.next_seq += 1;
        let seq = format!("{:021}", 100 + self.next_seq);
        let t = new.or(old).unwrap();
        let mut d = json!({
            "Keys": item_json(&t.item_key().unwrap().to_attributes()),
            "SequenceNumber": seq,
            "SizeBytes": 1,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        });
        if let Some(o) = old {
            d["OldImage"] = item_json(&o.to_item().unwrap());
        }
        if let Some(n) = new {
            d["NewImage"] = item_json(&n.to_item().unwrap());
        }
        let r = json!({ "eventID": seq, "eventName": name, "eventSource": "aws:dynamodb",
                        "awsRegion": "us-east-1", "dynamodb": d });
        let s = self.shards.iter_mut().find(|s| s.id == shard).unwrap();
        assert!(!s.closed, "a closed shard takes no records");
        s.records.push(r);
    }

    fn answer(&mut self, target: &str, body: &Value) -> Value {
        self.requests.push(target.to_owned());
        match target {
            // Two shards a page, so the feed must follow LastEvaluatedShardId.
            "DescribeStream" => {
                let start = match body["ExclusiveStartShardId"].as_str() {
                    Some(after) => self.shards.iter().position(|s| s.id == after).unwrap() + 1,
                    None => 0,
                };
                let page: Vec<Value> = self.shards[start..]
                    .iter()
                    .take(2)
                    .map(|s| {
                        let mut range =
                            json!({ "StartingSequenceNumber": "000000000000000000001" });
                        if s.closed {
                            range["EndingSequenceNumber"] = json!("999999999999999999999");
                        }
                        let mut v = json!({ "ShardId": s.id, "SequenceNumberRange": range });
                        if let Some(p) = s.parent {
                            v["ParentShardId"] = json!(p);
                        }
                        v
                    })
                    .collect();
                let mut desc = json!({ "StreamArn": ARN, "StreamStatus": "ENABLED",
                                       "StreamViewType": "NEW_AND_OLD_IMAGES", "Shards": page });
                if start + 2 < self.shards.len() {
                    desc["LastEvaluatedShardId"] = json!(self.shards[start + 1].id);
                }
                json!({ "StreamDescription": desc })
            }
            "GetShardIterator" => {
                let shard = body["ShardId"].as_str().unwrap();
                let s = self.shards.iter().find(|s| s.id == shard).unwrap();
                let pos = match body["ShardIteratorType"].as_str().unwrap() {
                    "TRIM_HORIZON" => 0,
                    "LATEST" => s.records.len(),
                    "AFTER_SEQUENCE_NUMBER" => {
                        let seq = body["SequenceNumber"].as_str().unwrap();
                        1 + s
                            .records
                            .iter()
                            .position(|r| r["dynamodb"]["SequenceNumber"] == seq)
                            .unwrap()
                    }
                    other => panic!("iterator type {other}"),
                };
                json!({ "ShardIterator": format!("{shard}|{pos}") })
            }
            "GetRecords" => {
                let it = body["ShardIterator"].as_str().unwrap();
                let (shard, pos) = it.split_once('|').unwrap();
                let pos: usize = pos.parse().unwrap();
                let s = self.shards.iter().find(|s| s.id == shard).unwrap();
                let end = (pos + 2).min(s.records.len());
                let mut out = json!({ "Records": s.records[pos..end] });
                // A closed shard read to its end has no next iterator.
                if !(s.closed && end == s.records.len()) {
                    out["NextShardIterator"] = json!(format!("{shard}|{end}"));
                }
                out
            }
            other => panic!("unexpected request {other}"),
        }
    }
}

#[derive(Debug, Clone)]
struct Scripted(Arc<Mutex<Script>>);

impl HttpClient for Scripted {
    fn http_connector(
        &self,
        _: &HttpConnectorSettings,
        _: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

impl HttpConnector for Scripted {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let target = request
            .headers()
            .get("x-amz-target")
            .and_then(|t| t.rsplit('.').next())
            .unwrap_or("")
            .to_owned();
        let body: Value = serde_json::from_slice(request.body().bytes().unwrap_or(b"{}")).unwrap();
        let answer = self.0.lock().unwrap().answer(&target, &body).to_string();
        let mut resp = HttpResponse::new(200.try_into().unwrap(), SdkBody::from(answer.clone()));
        resp.headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        resp.headers_mut()
            .insert("content-length", answer.len().to_string());
        HttpConnectorFuture::new(async move { Ok(resp) })
    }
}

fn streams_client(script: &Arc<Mutex<Script>>) -> aws_sdk_dynamodbstreams::Client {
    let conf = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("k", "s", None, None, "test"))
        .endpoint_url("http://scripted.invalid")
        .http_client(SharedHttpClient::new(Scripted(script.clone())))
        .build();
    aws_sdk_dynamodbstreams::Client::from_conf(conf)
}

fn rev(t: &Task, title: &str) -> Task {
    Task {
        title: title.into(),
        ..t.clone()
    }
}

/// (item id, operation, title after) of each change, in the order handed out.
fn summary(changes: &[dynakey::changes::Change<OrgItem>]) -> Vec<(String, &'static str, String)> {
    changes
        .iter()
        .map(|c| {
            let (op, t) = match &c.kind {
                ChangeKind::Inserted(OrgItem::Task(t)) => ("insert", t),
                ChangeKind::Modified {
                    new: OrgItem::Task(t),
                    ..
                } => ("modify", t),
                ChangeKind::Removed(OrgItem::Task(t)) => ("remove", t),
                other => panic!("{other:?}"),
            };
            (t.id.clone(), op, t.title.clone())
        })
        .collect()
}

fn s(id: &str, op: &'static str, title: &str) -> (String, &'static str, String) {
    (id.into(), op, title.into())
}

#[tokio::test]
async fn parents_before_children_new_shards_found_and_a_checkpoint_resumes() {
    let script = Arc::new(Mutex::new(Script::default()));
    let x = task("acme", "x");
    let y = task("acme", "y");
    {
        let mut sc = script.lock().unwrap();
        // The children are listed before their parent: the feed must not
        // read them until the parent is done.
        sc.shards.push(Shard {
            id: "B",
            parent: Some("A"),
            records: vec![],
            closed: false,
        });
        sc.shards.push(Shard {
            id: "C",
            parent: Some("A"),
            records: vec![],
            closed: false,
        });
        sc.shards.push(Shard {
            id: "A",
            parent: None,
            records: vec![],
            closed: false,
        });
        sc.record("A", "INSERT", None, Some(&x));
        sc.record("A", "MODIFY", Some(&x), Some(&rev(&x, "x2")));
        sc.record("A", "MODIFY", Some(&rev(&x, "x2")), Some(&rev(&x, "x3")));
        sc.shards[2].closed = true;
        sc.record("B", "MODIFY", Some(&rev(&x, "x3")), Some(&rev(&x, "x4")));
        sc.record("C", "INSERT", None, Some(&y));
        sc.record("B", "REMOVE", Some(&rev(&x, "x4")), None);
    }
    let backend = dynakey::local::memory().unwrap();
    let db = backend.db("t");
    let feed = || {
        db.changes(ChangeDecoder::<OrgItem>::union())
            .streams_client(streams_client(&script))
            .stream_arn(ARN)
    };
    let mut f = feed();
    let first = f.catch_up().await.unwrap();
    assert_eq!(
        summary(&first),
        [
            s("x", "insert", "task x"),
            s("x", "modify", "x2"),
            s("x", "modify", "x3"),
            s("x", "modify", "x4"),
            s("x", "remove", "x4"),
            s("y", "insert", "task y"),
        ]
    );
    let shards: Vec<_> = first.iter().map(|c| c.shard_id.clone().unwrap()).collect();
    assert_eq!(shards, ["A", "A", "A", "B", "B", "C"]);
    assert!(f.checkpoint().is_finished("A"));
    assert_eq!(
        f.checkpoint().position("C"),
        first[5].sequence_number.as_deref()
    );
    let saved = f.checkpoint().to_json();

    // B closes and a grandchild D appears while the feed runs.
    {
        let mut sc = script.lock().unwrap();
        sc.shards[0].closed = true;
        sc.shards.push(Shard {
            id: "D",
            parent: Some("B"),
            records: vec![],
            closed: false,
        });
        sc.record("D", "INSERT", None, Some(&rev(&x, "again")));
        sc.record("C", "MODIFY", Some(&y), Some(&rev(&y, "y2")));
    }
    let second = f.catch_up().await.unwrap();
    assert_eq!(
        summary(&second),
        [s("y", "modify", "y2"), s("x", "insert", "again")]
    );
    assert!(f.checkpoint().is_finished("B"));

    // A new feed from the saved checkpoint hands out exactly the same
    // later changes, nothing twice; from no checkpoint, everything.
    let mut resumed = feed().resume(Checkpoint::from_json(&saved).unwrap());
    assert_eq!(
        summary(&resumed.catch_up().await.unwrap()),
        summary(&second)
    );
    let all = feed().catch_up().await.unwrap();
    assert_eq!(all.len(), first.len() + second.len());
    let requests = script.lock().unwrap().requests.clone();
    assert!(
        requests.iter().filter(|r| *r == "DescribeStream").count() >= 4,
        "{requests:?}"
    );
}
