//! DynamoDB's JSON protocol over HTTP, answered by the engine inside the
//! process for the front of a served endpoint, in the steps and words of
//! dynoxide's own handler (3.2's `server` module): path and method, content
//! type, JSON, target, auth material, then the operation (`dispatch.rs`).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};

use super::dispatch::{request_id, EngineSlot, OPERATIONS};

/// The content type DynamoDB's JSON protocol uses (what the SDKs send).
const AMZ_JSON: &str = "application/x-amz-json-1.0";
const TARGET_PREFIX: &str = "DynamoDB_20120810.";
const STREAMS_TARGET_PREFIX: &str = "DynamoDBStreams_20120810.";
/// What DynamoDB answers a method or path it has no operation for.
const NOT_FOUND_BODY: &str = "<UnknownOperationException/>\n";
const HEALTHY: &str = "healthy: dynamodb.us-east-1.amazonaws.com ";
const BARE_SERIALIZATION: &str = r#"{"__type":"com.amazon.coral.service#SerializationException"}"#;
const UNKNOWN_OPERATION: &str =
    r#"{"__type":"com.amazon.coral.service#UnknownOperationException"}"#;

/// The engine's answer to one request the front let through.
pub(crate) async fn answer(
    engine: &EngineSlot,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> Response<Body> {
    if uri.path() != "/" {
        return reply(StatusCode::NOT_FOUND, None, NOT_FOUND_BODY.into());
    }
    match *method {
        Method::GET => return reply(StatusCode::OK, None, HEALTHY.into()),
        Method::POST => {}
        _ => return reply(StatusCode::NOT_FOUND, None, NOT_FOUND_BODY.into()),
    }
    let raw_ct = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let base_ct = raw_ct.split(';').next().unwrap_or("").trim();
    // The answer's content type echoes the request's media type.
    let ct = if base_ct.eq_ignore_ascii_case(AMZ_JSON) {
        AMZ_JSON
    } else if base_ct.eq_ignore_ascii_case("application/json") {
        "application/json"
    } else if !body.is_empty() || !raw_ct.is_empty() {
        return reply(StatusCode::NOT_FOUND, None, NOT_FOUND_BODY.into());
    } else {
        "application/json"
    };
    let bad = |text: &str| reply(StatusCode::BAD_REQUEST, Some(ct), text.to_owned());
    let Ok(text) = std::str::from_utf8(body) else {
        return bad(BARE_SERIALIZATION);
    };
    if !text.is_empty() && serde_json::from_str::<serde::de::IgnoredAny>(text).is_err() {
        return bad(BARE_SERIALIZATION);
    }
    let op = headers
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .and_then(|t| {
            t.strip_prefix(TARGET_PREFIX)
                .or_else(|| t.strip_prefix(STREAMS_TARGET_PREFIX))
        })
        .filter(|op| OPERATIONS.contains(op));
    let Some(op) = op else {
        return bad(UNKNOWN_OPERATION);
    };
    let material = dynoxide::auth_material::AuthMaterial {
        authorization: headers.get("authorization").and_then(|v| v.to_str().ok()),
        query: uri.query().unwrap_or(""),
        has_date_header: headers.contains_key("x-amz-date") || headers.contains_key("date"),
    };
    if let Some(refusal) = dynoxide::auth_material::validate(material) {
        return bad(&refusal);
    }
    let Some(db) = engine.get() else {
        return reply(
            StatusCode::SERVICE_UNAVAILABLE,
            Some(ct),
            r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"the endpoint is stopping"}"#.into(),
        );
    };
    if text.is_empty() {
        return bad(BARE_SERIALIZATION);
    }
    match engine.run(&db, op, text).await {
        None => bad(UNKNOWN_OPERATION),
        Some(Ok(json)) => reply(StatusCode::OK, Some(ct), json),
        Some(Err(e)) => reply(
            StatusCode::from_u16(e.status_code()).unwrap_or(StatusCode::BAD_REQUEST),
            Some(ct),
            e.to_json(),
        ),
    }
}

/// A response with the headers DynamoDB sends: content type, request id
/// and the body's CRC32 (which some SDKs check).
fn reply(status: StatusCode, content_type: Option<&'static str>, body: String) -> Response<Body> {
    let crc = crc32fast::hash(body.as_bytes());
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = status;
    let h = resp.headers_mut();
    if let Some(ct) = content_type {
        h.insert("content-type", HeaderValue::from_static(ct));
    }
    if let Ok(id) = HeaderValue::from_str(&request_id()) {
        h.insert("x-amzn-requestid", id);
    }
    h.insert("x-amz-crc32", HeaderValue::from(crc));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTH: &str = "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00";

    fn headers(target: Option<&str>, auth: bool) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("content-type", HeaderValue::from_static(AMZ_JSON));
        h.insert("x-amz-date", HeaderValue::from_static("20260101T000000Z"));
        if let Some(t) = target {
            h.insert("x-amz-target", HeaderValue::from_str(t).unwrap());
        }
        if auth {
            h.insert("authorization", HeaderValue::from_static(AUTH));
        }
        h
    }

    async fn call(
        engine: &EngineSlot,
        method: Method,
        h: &HeaderMap,
        body: &str,
    ) -> (StatusCode, String) {
        let uri = Uri::from_static("/");
        let resp = answer(engine, &method, &uri, h, body.as_bytes()).await;
        let status = resp.status();
        let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn the_handlers_steps_in_its_order_and_words() {
        let engine = EngineSlot::new(dynoxide::Database::memory().unwrap());
        let list = Some("DynamoDB_20120810.ListTables");
        let (s, b) = call(&engine, Method::GET, &HeaderMap::new(), "").await;
        assert_eq!((s, b.as_str()), (StatusCode::OK, HEALTHY));
        let (s, b) = call(&engine, Method::POST, &headers(None, true), "{}").await;
        assert_eq!(
            (s, b.as_str()),
            (StatusCode::BAD_REQUEST, UNKNOWN_OPERATION)
        );
        let nope = Some("DynamoDB_20120810.Nope");
        let (_, b) = call(&engine, Method::POST, &headers(nope, true), "{}").await;
        assert_eq!(b, UNKNOWN_OPERATION);
        let (_, b) = call(&engine, Method::POST, &headers(list, true), "{x").await;
        assert_eq!(b, BARE_SERIALIZATION);
        let (s, b) = call(&engine, Method::POST, &headers(list, false), "{}").await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert!(b.contains("MissingAuthenticationToken"), "{b}");
        let (_, b) = call(&engine, Method::POST, &headers(list, true), "").await;
        assert_eq!(b, BARE_SERIALIZATION);
        let (s, b) = call(&engine, Method::DELETE, &headers(list, true), "{}").await;
        assert_eq!((s, b.as_str()), (StatusCode::NOT_FOUND, NOT_FOUND_BODY));
        let (s, b) = call(&engine, Method::POST, &headers(list, true), "{}").await;
        assert_eq!((s, b.as_str()), (StatusCode::OK, r#"{"TableNames":[]}"#));
        engine.stop();
        let (s, _) = call(&engine, Method::POST, &headers(list, true), "{}").await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE);
    }
}
