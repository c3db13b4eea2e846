//! Request rates of the backends, measured in one run (ignored by default):
//!
//! ```text
//! DYNAKEY_ENDPOINT=http://127.0.0.1:PORT \
//!   cargo test --release -p dynakey-tests --test backend rates -- --ignored --nocapture
//! ```
//!
//! Backends: the embedded engine over loopback HTTP (what `local::memory()`
//! gives), the same engine dispatched in-process (an experiment: dynoxide's
//! public per-operation methods behind an `HttpConnector`, without the
//! request checks its private router runs), and `DYNAKEY_ENDPOINT` if set.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use dynakey::{Db, Entity};
use dynakey_tests::notes::Note;

use super::note;

/// dynoxide called in-process: only the operations this measurement uses.
#[derive(Clone)]
struct InProcess(dynoxide::Database);

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InProcess")
    }
}

impl HttpClient for InProcess {
    fn http_connector(
        &self,
        _: &HttpConnectorSettings,
        _: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

fn dispatch(
    db: &dynoxide::Database,
    op: &str,
    body: &str,
) -> Result<String, dynoxide::DynoxideError> {
    use dynoxide::actions::*;
    let de = |e: serde_json::Error| dynoxide::DynoxideError::ValidationException(e.to_string());
    let ser = |s: Result<String, serde_json::Error>| {
        s.map_err(|e| dynoxide::DynoxideError::InternalServerError(e.to_string()))
    };
    match op {
        "CreateTable" => ser(serde_json::to_string(&db.create_table(
            serde_json::from_str::<create_table::CreateTableRequest>(body).map_err(de)?,
        )?)),
        "DescribeTable" => ser(serde_json::to_string(&db.describe_table(
            serde_json::from_str::<describe_table::DescribeTableRequest>(body).map_err(de)?,
        )?)),
        "PutItem" => ser(serde_json::to_string(&db.put_item(
            serde_json::from_str::<put_item::PutItemRequest>(body).map_err(de)?,
        )?)),
        "Query" => ser(serde_json::to_string(&db.query(
            serde_json::from_str::<query::QueryRequest>(body).map_err(de)?,
        )?)),
        other => Err(dynoxide::DynoxideError::ValidationException(format!(
            "{other} not wired in-process"
        ))),
    }
}

impl HttpConnector for InProcess {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let op = request
            .headers()
            .get("x-amz-target")
            .and_then(|t| t.rsplit('.').next())
            .unwrap_or("")
            .to_owned();
        let body = String::from_utf8_lossy(request.body().bytes().unwrap_or_default()).into_owned();
        let (status, json) = match dispatch(&self.0, &op, &body) {
            Ok(j) => (200u16, j),
            Err(e) => (e.status_code(), e.to_json()),
        };
        let mut resp = HttpResponse::new(status.try_into().unwrap(), SdkBody::from(json));
        resp.headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        HttpConnectorFuture::ready(Ok(resp))
    }
}

struct Rates {
    puts: f64,
    queries: f64,
}

async fn measure(db: &Db, puts: u32, queries: u32) -> Rates {
    db.create_table(&[Note::META]).await.unwrap();
    let t = Instant::now();
    for id in 0..puts {
        db.put(&note(&format!("u{}", id % 50), id)).await.unwrap();
    }
    let put_s = t.elapsed();
    let t = Instant::now();
    let mut read = 0;
    for i in 0..queries {
        read += db
            .query(Note::pk(format!("u{}", i % 50)).unwrap())
            .all()
            .await
            .unwrap()
            .len();
    }
    let query_s = t.elapsed();
    assert!(read > 0);
    let per_s = |n: u32, d: Duration| f64::from(n) / d.as_secs_f64();
    Rates {
        puts: per_s(puts, put_s),
        queries: per_s(queries, query_s),
    }
}

#[tokio::test]
#[ignore = "measurement; run with --ignored --nocapture"]
async fn rates() {
    let (puts, queries) = (500, 300);
    let table = format!("rates_{}", uuid::Uuid::new_v4().simple());
    let mut rows = Vec::new();

    let local = dynakey::local::memory().unwrap();
    rows.push((
        "embedded, loopback HTTP",
        measure(&local.db(&table), puts, queries).await,
    ));

    let conf = dynakey::local::config_for_endpoint("http://in-process.invalid")
        .http_client(InProcess(dynoxide::Database::memory().unwrap()))
        .build();
    let db = Db::new(Client::from_conf(conf), &table);
    rows.push((
        "embedded, in-process dispatch",
        measure(&db, puts, queries).await,
    ));

    if let Ok(url) = std::env::var(dynakey::local::ENDPOINT_VAR) {
        let db = Db::new(dynakey::local::client_for_endpoint(&url), &table);
        rows.push((
            "DYNAKEY_ENDPOINT",
            measure(&db, puts / 5, queries / 5).await,
        ));
    }
    println!("{puts} sequential puts, {queries} sequential queries (10 items each)");
    for (name, r) in rows {
        println!(
            "{name:32} {:8.0} puts/s {:8.0} queries/s",
            r.puts, r.queries
        );
    }
}
