//! The front of a served endpoint: a thin HTTP proxy that judges every
//! request ([`Access`]) and passes what it lets through to the engine's
//! own server (dynoxide's, whose answers to browsers cannot be configured:
//! it allows every origin and every `Host`).
//!
//! The engine listens where only the front knows: on a port the OS picks,
//! of an address drawn at random from `127.0.0.0/8` (all of it is loopback
//! on Linux; elsewhere `127.0.0.1`), so a page would have to find one of
//! about 10^11 addresses and ports to reach it around the front.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Response, StatusCode, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use super::access::{Access, Refusal, Verdict};

/// DynamoDB's largest request body.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// What the front needs for each request.
struct Front {
    access: Access,
    /// The port the front listens on (what `Host` must name).
    port: u16,
    /// The engine's address.
    engine: SocketAddr,
    client: Client<HttpConnector, Body>,
}

/// A loopback listener for the engine, where only this process knows to
/// look (see the module docs).
pub(crate) async fn engine_listener() -> std::io::Result<tokio::net::TcpListener> {
    let b = uuid::Uuid::new_v4().into_bytes();
    let hidden = Ipv4Addr::new(127, 1 + b[0] % 254, b[1], 1 + b[2] % 254);
    match tokio::net::TcpListener::bind((hidden, 0)).await {
        Ok(l) => Ok(l),
        // Only 127.0.0.1 is configured (macOS, some containers).
        Err(_) => tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await,
    }
}

/// Serves the front on `listener` (the endpoint's port `port`), passing
/// requests to the engine at `engine`, until `shutdown` resolves.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    port: u16,
    engine: SocketAddr,
    access: Access,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let front = Arc::new(Front {
        access,
        port,
        engine,
        client: Client::builder(TokioExecutor::new()).build_http(),
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
    let (mut parts, body) = req.into_parts();
    let body = if front.access.requires_signature() {
        let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
            Ok(b) => b,
            Err(_) => {
                return refusal(&Refusal {
                    status: 413,
                    kind: "SerializationException",
                    message: format!("the request body is over {MAX_BODY} bytes or was cut off"),
                })
            }
        };
        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        if let Err(r) = front.access.check_signature(
            &parts.method,
            path,
            &parts.headers,
            &bytes,
            SystemTime::now(),
        ) {
            return refusal(&r);
        }
        Body::from(bytes)
    } else {
        body
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    parts.uri = match Uri::try_from(format!("http://{}{path}", front.engine)) {
        Ok(u) => u,
        Err(_) => return refusal(&bad_gateway("the request's path is not a URI path")),
    };
    // The engine answers any `Origin` with `Access-Control-Allow-Origin: *`:
    // it never sees one, and the front answers CORS itself.
    for h in [
        "origin",
        "host",
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "upgrade",
    ] {
        parts.headers.remove(h);
    }
    let resp = match front.client.request(Request::from_parts(parts, body)).await {
        Ok(r) => r,
        Err(e) => return refusal(&bad_gateway(&format!("the engine did not answer: {e}"))),
    };
    let (mut parts, body) = resp.into_parts();
    let cors: Vec<HeaderName> = parts
        .headers
        .keys()
        .filter(|k| k.as_str().starts_with("access-control-"))
        .cloned()
        .collect();
    for k in cors {
        parts.headers.remove(k);
    }
    if let Some(origin) = origin {
        allow_origin(&mut parts.headers, &origin);
        parts.headers.insert(
            "access-control-expose-headers",
            HeaderValue::from_static("x-amzn-RequestId, x-amz-crc32"),
        );
    }
    Response::from_parts(parts, Body::new(body))
}

fn bad_gateway(message: &str) -> Refusal {
    Refusal {
        status: 502,
        kind: "InternalServerError",
        message: message.to_owned(),
    }
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
