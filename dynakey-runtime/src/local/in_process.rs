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

use std::sync::Arc;

use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;

use super::dispatch::{request_id, EngineSlot};

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
                Some((op, body)) => run(&engine, &db, op, body).await,
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

/// The operations the direct path answers: those the handler reads on
/// DynamoDB's current validation layer. It reads the others
/// (BatchWriteItem, the transactions, PartiQL) on the older layer, which
/// words some refusals otherwise, and only the handler can select it.
/// Control-plane calls are listed because every test makes them.
const DIRECT: [&str; 10] = [
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
];

/// `deserialize → method → serialize` of one operation, as the handler
/// runs it; `None` on any error (the handler words it).
async fn run(engine: &EngineSlot, db: &dynoxide::Database, op: &str, body: &str) -> Option<String> {
    if !DIRECT.contains(&op) {
        return None;
    }
    // The engine has run once this is `Some`: from here on the request is
    // answered here, never sent again.
    engine.run(db, op, body).await?.ok()
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
