//! The front of a served endpoint: it judges every request ([`Access`])
//! and answers what it lets through with the engine inside the process
//! (`dispatch.rs`), speaking DynamoDB's JSON protocol as dynoxide's own
//! server does. Its listener is the process's only one: no engine server
//! listens anywhere a page or a program could reach around the front.

use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderValue};
use axum::http::{Response, StatusCode};

use super::access::{Access, Refusal, Verdict};
use super::dispatch::EngineSlot;
use super::protocol::answer;

/// DynamoDB's largest request body.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// What the front needs for each request.
struct Front {
    access: Access,
    /// The port the front listens on (what `Host` must name).
    port: u16,
    /// The engine, answering in process.
    engine: Arc<EngineSlot>,
}

/// Serves the front on `listener` (the endpoint's port `port`), answering
/// with `engine`, until `shutdown` resolves.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    port: u16,
    engine: Arc<EngineSlot>,
    access: Access,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let front = Arc::new(Front {
        access,
        port,
        engine,
    });
    let app = axum::Router::new().fallback(handle).with_state(front);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

async fn handle(State(front): State<Arc<Front>>, req: Request) -> Response<Body> {
    let origin = match front.access.judge(req.method(), req.headers(), front.port) {
        Verdict::Refuse(r) => return refusal(&r),
        Verdict::Preflight { origin, headers } => return preflight(&origin, headers.as_deref()),
        Verdict::Forward { origin } => origin,
    };
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return refusal(&Refusal {
            status: 413,
            kind: "SerializationException",
            message: format!("the request body is over {MAX_BODY} bytes or was cut off"),
        });
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    if front.access.requires_signature() {
        if let Err(r) = front.access.check_signature(
            &parts.method,
            path,
            &parts.headers,
            &bytes,
            SystemTime::now(),
        ) {
            return refusal(&r);
        }
    }
    let mut resp = answer(
        &front.engine,
        &parts.method,
        &parts.uri,
        &parts.headers,
        &bytes,
    )
    .await;
    if let Some(origin) = origin {
        allow_origin(resp.headers_mut(), &origin);
        resp.headers_mut().insert(
            "access-control-expose-headers",
            HeaderValue::from_static("x-amzn-RequestId, x-amz-crc32"),
        );
    }
    resp
}

/// A refusal as DynamoDB shapes an error (no CORS header: a page reads
/// nothing of it).
fn refusal(r: &Refusal) -> Response<Body> {
    let mut resp = Response::new(Body::from(r.body()));
    *resp.status_mut() = StatusCode::from_u16(r.status).unwrap_or(StatusCode::FORBIDDEN);
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-amz-json-1.0"),
    );
    resp
}

fn allow_origin(headers: &mut axum::http::HeaderMap, origin: &str) {
    if let Ok(v) = HeaderValue::from_str(origin) {
        headers.insert("access-control-allow-origin", v);
    }
    headers.insert(header::VARY, HeaderValue::from_static("Origin"));
}

/// The answer to a CORS preflight of an allowed origin.
fn preflight(origin: &str, requested: Option<&str>) -> Response<Body> {
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = StatusCode::NO_CONTENT;
    let h = resp.headers_mut();
    allow_origin(h, origin);
    h.insert(
        "access-control-allow-methods",
        HeaderValue::from_static("POST, GET"),
    );
    let allowed = requested.and_then(|r| HeaderValue::from_str(r).ok()).unwrap_or(
        HeaderValue::from_static(
            "content-type, x-amz-target, x-amz-date, x-amz-user-agent, x-amz-security-token, x-amz-content-sha256, authorization, amz-sdk-invocation-id, amz-sdk-request",
        ),
    );
    h.insert("access-control-allow-headers", allowed);
    h.insert("access-control-max-age", HeaderValue::from_static("600"));
    resp
}
