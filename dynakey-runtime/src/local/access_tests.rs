//! Who a served endpoint answers: `Host` and `Origin` checks, CORS
//! preflights, and SigV4 verified against AWS's published signing test
//! vectors (the `aws-signing-test-suite` of the SDK's signer) and against
//! requests the SDK's own signer signs.

use std::time::{Duration, SystemTime};

use axum::http::{HeaderMap, HeaderValue, Method};

use super::*;

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.append(*k, HeaderValue::from_str(v).unwrap());
    }
    h
}

fn forbidden(v: &Verdict) -> bool {
    matches!(v, Verdict::Refuse(r) if r.status == 403)
}

#[test]
fn programs_on_this_machine_are_answered_and_pages_are_not() {
    let a = Access::default();
    let post = Method::POST;
    // The AWS CLI, boto3 and the SDKs: no Origin, the Host of the URL.
    for host in ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000"] {
        assert_eq!(
            a.judge(&post, &headers(&[("host", host)]), 8000),
            Verdict::Forward { origin: None },
            "{host}"
        );
    }
    // DNS rebinding: another name, or another port, or none.
    for host in [
        "evil.example:8000",
        "127.0.0.1:8001",
        "127.0.0.1",
        "",
        "127.0.0.2:8000",
    ] {
        assert!(
            forbidden(&a.judge(&post, &headers(&[("host", host)]), 8000)),
            "{host}"
        );
    }
    assert!(forbidden(&a.judge(&post, &HeaderMap::new(), 8000)));
    // Port 80 may be left out of Host.
    assert!(!forbidden(&a.judge(
        &post,
        &headers(&[("host", "localhost")]),
        80
    )));
    // A page of any origin, `null` included, and its preflight.
    for origin in [
        "http://evil.example",
        "http://127.0.0.1:5173",
        "null",
        "http://localhost:8000",
    ] {
        let h = headers(&[("host", "127.0.0.1:8000"), ("origin", origin)]);
        assert!(forbidden(&a.judge(&post, &h, 8000)), "{origin}");
        let mut pre = h.clone();
        pre.insert(
            "access-control-request-method",
            HeaderValue::from_static("POST"),
        );
        assert!(
            forbidden(&a.judge(&Method::OPTIONS, &pre, 8000)),
            "{origin}"
        );
    }
    // OPTIONS without a preflight's headers.
    assert!(forbidden(&a.judge(
        &Method::OPTIONS,
        &headers(&[("host", "127.0.0.1:8000")]),
        8000
    )));
}

#[test]
fn an_allowed_origin_gets_its_preflight_and_its_answers() {
    let a = Access::default()
        .allow_origin("http://localhost:3000")
        .unwrap();
    let h = headers(&[
        ("host", "127.0.0.1:8000"),
        ("origin", "http://localhost:3000"),
        ("access-control-request-method", "POST"),
        (
            "access-control-request-headers",
            "content-type,x-amz-target",
        ),
    ]);
    assert_eq!(
        a.judge(&Method::OPTIONS, &h, 8000),
        Verdict::Preflight {
            origin: "http://localhost:3000".into(),
            headers: Some("content-type,x-amz-target".into())
        }
    );
    assert_eq!(
        a.judge(&Method::POST, &h, 8000),
        Verdict::Forward {
            origin: Some("http://localhost:3000".into())
        }
    );
    // Another port of the same host is another origin.
    let other = headers(&[
        ("host", "127.0.0.1:8000"),
        ("origin", "http://localhost:3001"),
    ]);
    assert!(forbidden(&a.judge(&Method::POST, &other, 8000)));
    // The Host check still holds for an allowed origin.
    let rebound = headers(&[
        ("host", "evil.example:8000"),
        ("origin", "http://localhost:3000"),
    ]);
    assert!(forbidden(&a.judge(&Method::POST, &rebound, 8000)));
    for bad in [
        "*",
        "localhost:3000",
        "http://x/path",
        "ftp://x",
        "http://",
        "http://a b",
        "http://u@x",
    ] {
        assert!(Access::default().allow_origin(bad).is_err(), "{bad}");
    }
}

const KEY: &str = "AKIDEXAMPLE";
const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

/// 2015-08-30T12:36:00Z, the suite's time.
fn suite_time() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_440_938_160)
}

fn check(a: &Access, h: &HeaderMap, body: &[u8], now: SystemTime) -> Result<(), Refusal> {
    a.check_signature(&Method::POST, "/", h, body, now)
}

#[test]
fn sigv4_is_verified_on_aws_s_own_test_vectors() {
    let a = Access::default().credentials(KEY, SECRET);
    // post-vanilla
    let vanilla = headers(&[
        ("host", "example.amazonaws.com"),
        ("x-amz-date", "20150830T123600Z"),
        ("authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
    ]);
    check(&a, &vanilla, b"", suite_time()).unwrap();
    // post-x-www-form-urlencoded: a body, and its hash signed as a header.
    let form = headers(&[
        ("content-type", "application/x-www-form-urlencoded"),
        ("host", "example.amazonaws.com"),
        ("content-length", "13"),
        ("x-amz-date", "20150830T123600Z"),
        ("x-amz-content-sha256", "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e"),
        ("authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date, Signature=d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b"),
    ]);
    check(&a, &form, b"Param1=value1", suite_time()).unwrap();
    // Another body, another secret, another key, a stale time: refused.
    let kind = |r: Result<(), Refusal>| r.unwrap_err().kind;
    assert_eq!(
        kind(check(&a, &form, b"Param1=value2", suite_time())),
        "InvalidSignatureException"
    );
    let other = Access::default().credentials(KEY, "another secret");
    assert_eq!(
        kind(check(&other, &vanilla, b"", suite_time())),
        "InvalidSignatureException"
    );
    let stranger = Access::default().credentials("AKIDOTHER", SECRET);
    assert_eq!(
        kind(check(&stranger, &vanilla, b"", suite_time())),
        "UnrecognizedClientException"
    );
    let later = suite_time() + Duration::from_secs(16 * 60);
    assert_eq!(
        kind(check(&a, &vanilla, b"", later)),
        "InvalidSignatureException"
    );
    assert_eq!(
        kind(check(&a, &headers(&[("host", "x")]), b"", suite_time())),
        "MissingAuthenticationTokenException"
    );
    for auth in ["Basic abc", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service, SignedHeaders=host, Signature=00"] {
        let mut h = vanilla.clone();
        h.insert("authorization", HeaderValue::from_str(auth).unwrap());
        assert_eq!(kind(check(&a, &h, b"", suite_time())), "IncompleteSignatureException", "{auth}");
    }
    // A signed header that is not there.
    let mut h = vanilla.clone();
    h.insert("authorization", HeaderValue::from_static("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"));
    assert_eq!(
        kind(check(&a, &h, b"", suite_time())),
        "InvalidSignatureException"
    );
    // No credentials asked: nothing checked.
    check(&Access::default(), &HeaderMap::new(), b"", suite_time()).unwrap();
}

/// A DynamoDB request signed by the SDK's signer, as the Rust SDK sends it.
#[test]
fn sigv4_of_the_sdk_s_signer_is_verified() {
    use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
    use aws_sigv4::sign::v4::SigningParams;
    let now = SystemTime::now();
    let body = br#"{"TableName":"shop"}"#;
    let identity =
        aws_credential_types::Credentials::new("AKIDLOCAL", "s3cr3t", None, None, "t").into();
    let params = SigningParams::builder()
        .identity(&identity)
        .region("eu-west-1")
        .name("dynamodb")
        .time(now)
        .settings(SigningSettings::default())
        .build()
        .unwrap()
        .into();
    let base = [
        ("content-type", "application/x-amz-json-1.0"),
        ("x-amz-target", "DynamoDB_20120810.DescribeTable"),
        ("host", "127.0.0.1:8000"),
    ];
    let req = SignableRequest::new(
        "POST",
        "http://127.0.0.1:8000/",
        base.iter().copied(),
        SignableBody::Bytes(body),
    )
    .unwrap();
    let (instructions, _) = sign(req, &params).unwrap().into_parts();
    let mut h = headers(&base);
    for (k, v) in instructions.headers() {
        h.insert(
            axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    // An unsigned header (the SDK's user agent) may be added freely.
    h.insert("user-agent", HeaderValue::from_static("aws-sdk-rust"));
    let a = Access::default().credentials("AKIDLOCAL", "s3cr3t");
    check(&a, &h, body, now).unwrap();
    // A signed header changed: refused.
    h.insert(
        "x-amz-target",
        HeaderValue::from_static("DynamoDB_20120810.DeleteTable"),
    );
    assert!(check(&a, &h, body, now).is_err());
}
