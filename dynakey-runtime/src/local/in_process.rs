//! The embedded engine's transport: the SDK's requests handed to dynoxide
//! inside the process, without a socket.
//!
//! dynoxide 3.2 keeps its HTTP request handler private (the axum router
//! behind `dynoxide::server`); what it makes public is the engine's
//! per-operation methods (`Database::put_item(PutItemRequest)`, ...) and
//! the request types, whose `Deserialize` impls hold the checks DynamoDB
//! makes of a request's members and values. The handler's own steps are
//! content type, target, auth material, JSON shape, then
//! `deserialize → method → serialize`, and every error worded for its
//! operation.
//!
//! So a request takes the *direct* path when nothing in it can make the
//! two differ: a `POST` of `application/x-amz-json-1.0` to a DynamoDB
//! operation read on DynamoDB's current validation layer (see [`direct`]),
//! with auth material that passes dynoxide's own check
//! (`dynoxide::auth_material::validate`, the function the handler calls),
//! whose body the request type reads and the engine runs without error.
//! Everything else — a body the request type refuses, an error from the
//! engine, an operation read on the older layer (batch writes,
//! transactions, PartiQL), the Streams API, anything unexpected — goes to
//! the loopback server's handler unchanged, which answers it exactly as it
//! always did, error message included. A refused request changed nothing,
//! so sending it again is safe; a request that succeeded is never sent
//! twice. The differential tests (`tests/tests/backend/in_process.rs`)
//! send the same requests, good and bad, both ways and compare every
//! response and the tables after.
//!
//! The engine runs on the calling thread, one request at a time (it
//! serves one at a time behind its own lock either way). A request waits
//! for its turn without holding its thread, so on a multi-thread runtime
//! the other threads go on with other tasks' work; reading the request and
//! writing the response happen outside the turn.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use dynoxide::actions;

/// The engine a transport reaches, until its backend stops it, and the
/// turn its requests take (see the module doc).
pub(crate) struct EngineSlot {
    db: Mutex<Option<dynoxide::Database>>,
    turn: tokio::sync::Mutex<()>,
}

impl EngineSlot {
    pub(crate) fn new(db: dynoxide::Database) -> Arc<Self> {
        Arc::new(Self {
            db: Mutex::new(Some(db)),
            turn: tokio::sync::Mutex::new(()),
        })
    }

    /// Stops the direct path: later requests fail as the stopped server's do.
    pub(crate) fn stop(&self) {
        if let Ok(mut g) = self.db.lock() {
            *g = None;
        }
    }

    fn get(&self) -> Option<dynoxide::Database> {
        self.db.lock().ok()?.clone()
    }
}

/// The HTTP client of the embedded engine (see the module doc): requests
/// go to the engine directly when they can, else to `fallback`, a client
/// of the loopback server.
#[derive(Clone)]
pub(crate) struct InProcess {
    engine: Arc<EngineSlot>,
    fallback: SharedHttpClient,
}

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InProcess").finish_non_exhaustive()
    }
}

impl InProcess {
    pub(crate) fn new(engine: Arc<EngineSlot>, fallback: SharedHttpClient) -> Self {
        Self { engine, fallback }
    }
}

impl HttpClient for InProcess {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(Connector {
            engine: self.engine.clone(),
            fallback: self.fallback.http_connector(settings, components),
        })
    }
}

#[derive(Debug)]
struct Connector {
    engine: Arc<EngineSlot>,
    fallback: SharedHttpConnector,
}

impl std::fmt::Debug for EngineSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineSlot").finish_non_exhaustive()
    }
}

impl HttpConnector for Connector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let Some(db) = self.engine.get() else {
            return HttpConnectorFuture::ready(Err(ConnectorError::io(
                "the embedded engine is stopped (its Backend was dropped)".into(),
            )));
        };
        let engine = self.engine.clone();
        let fallback = self.fallback.clone();
        HttpConnectorFuture::new(async move {
            let answer = match direct_request(&request) {
                Some((op, body)) => run(&db, &engine.turn, op, body).await,
                None => None,
            };
            match answer {
                Some(json) => Ok(ok_response(json)),
                None => fallback.call(request).await,
            }
        })
    }
}

/// The content type DynamoDB's JSON protocol uses (what the SDK sends).
const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// The operation and body of a request the direct path may answer, or
/// `None` for the handler (see the module doc for what takes which path).
pub(crate) fn direct_request(request: &HttpRequest) -> Option<(&str, &str)> {
    let headers = request.headers();
    if request.method() != "POST" || headers.get("content-type") != Some(CONTENT_TYPE) {
        return None;
    }
    let op = headers
        .get("x-amz-target")?
        .strip_prefix("DynamoDB_20120810.")?;
    let uri = request.uri();
    let auth = dynoxide::auth_material::AuthMaterial {
        authorization: headers.get("authorization"),
        query: uri.split_once('?').map_or("", |(_, q)| q),
        has_date_header: headers.get("x-amz-date").is_some() || headers.get("date").is_some(),
    };
    if dynoxide::auth_material::validate(auth).is_some() {
        return None;
    }
    let body = std::str::from_utf8(request.body().bytes()?).ok()?;
    if body.is_empty() {
        return None;
    }
    Some((op, body))
}

/// `deserialize → method → serialize` of one operation, as the handler
/// runs it; `None` on any error (the handler words it).
///
/// Only operations the handler reads on DynamoDB's current validation
/// layer are listed: it reads the others (BatchWriteItem, the
/// transactions, PartiQL) on the older layer, which accepts other number
/// forms, and only the handler can select it. Control-plane calls are
/// listed because every test makes them.
async fn run(
    db: &dynoxide::Database,
    turn: &tokio::sync::Mutex<()>,
    op: &str,
    body: &str,
) -> Option<String> {
    macro_rules! ops {
        ($($name:literal => $module:ident :: $request:ident => $method:ident,)*) => {
            match op {
                $($name => call(turn, body, |r: actions::$module::$request| db.$method(r)).await,)*
                _ => None,
            }
        };
    }
    ops! {
        "PutItem" => put_item::PutItemRequest => put_item,
        "GetItem" => get_item::GetItemRequest => get_item,
        "DeleteItem" => delete_item::DeleteItemRequest => delete_item,
        "UpdateItem" => update_item::UpdateItemRequest => update_item,
        "Query" => query::QueryRequest => query,
        "Scan" => scan::ScanRequest => scan,
        "BatchGetItem" => batch_get_item::BatchGetItemRequest => batch_get_item,
        "CreateTable" => create_table::CreateTableRequest => create_table,
        "DescribeTable" => describe_table::DescribeTableRequest => describe_table,
        "DeleteTable" => delete_table::DeleteTableRequest => delete_table,
    }
}

async fn call<Req, Resp>(
    turn: &tokio::sync::Mutex<()>,
    body: &str,
    f: impl FnOnce(Req) -> dynoxide::Result<Resp>,
) -> Option<String>
where
    Req: serde::de::DeserializeOwned,
    Resp: serde::Serialize,
{
    let request: Req = serde_json::from_str(body).ok()?;
    let response = {
        let _turn = turn.lock().await;
        f(request).ok()?
    };
    // The engine has run: from here on the request is answered here, never
    // sent again. (Serialising a response of maps and strings cannot fail;
    // if it did, this is the handler's answer to it.)
    Some(serde_json::to_string(&response).unwrap_or_else(|e| {
        serde_json::json!({
            "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
            "message": e.to_string(),
        })
        .to_string()
    }))
}

/// A 200 with the headers DynamoDB sends: content type, request id and
/// the body's CRC32 (which some SDKs check).
fn ok_response(json: String) -> HttpResponse {
    let crc = crc32fast::hash(json.as_bytes());
    let len = json.len();
    let mut response = HttpResponse::new(
        200.try_into().expect("200 is a status code"),
        SdkBody::from(json),
    );
    let headers = response.headers_mut();
    headers.insert("content-type", CONTENT_TYPE);
    headers.insert("content-length", len.to_string());
    headers.insert("x-amzn-requestid", request_id());
    headers.insert("x-amz-crc32", crc.to_string());
    response
}

/// A request id in DynamoDB's form, 52 characters of `[0-9A-Z]`: a v7
/// uuid made once per process (its start and randomness) and a count of
/// the process's requests. (A uuid per request reads the OS's random
/// source each time, a system call on every request.)
fn request_id() -> String {
    static PROCESS: OnceLock<u128> = OnceLock::new();
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let process = *PROCESS.get_or_init(|| uuid::Uuid::now_v7().as_u128());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{process:032X}{n:020}")
}
