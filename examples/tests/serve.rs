//! The embedded engine served as a DynamoDB endpoint: read by boto3 and
//! the AWS CLI through the library's `local::Endpoint` and through the
//! `design serve` command (stopped by Ctrl-C), and refusing what is not a
//! program on this machine: another `Host`, any `Origin`, CORS preflights,
//! and unsigned or wrongly signed requests when served with credentials.
//! (A real browser's view of it is `browser.rs`.)
//!
//! boto3 and the AWS CLI come from `scripts/test`'s venv (see
//! `support/served.rs`).

#[path = "support/served.rs"]
mod served;

use std::net::TcpStream;

use dynakey::local::Access;
use served::*;

#[test]
fn boto3_lists_and_reads_the_tables_of_a_served_file_database() {
    let Some(py) = python() else { return };
    let path = shop_file("lib");
    let (url, stop, server) = serve_in_process(&path, Access::default());
    let seen = boto3(&py, &url, "shop", ("x", "x")).unwrap();
    eprintln!("boto3 {} read the served file", seen["boto3"]);
    check_boto3_view(&seen);
    stop.send(()).unwrap();
    server.join().unwrap();
    // The server closed the file with boto3's write in it.
    let items = items_in(&path, "shop");
    assert_eq!(items.len(), 14);
    assert!(has_pk(&items, "USER#boto3"));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_request_from_a_page_or_to_another_host_is_refused_and_an_allowed_origin_gets_cors() {
    let path = shop_file("guard");
    let origin = "http://localhost:3000";
    let (url, stop, server) =
        serve_in_process(&path, Access::default().allow_origin(origin).unwrap());
    let addr = url.trim_start_matches("http://").to_owned();
    // A program: answered, and no CORS header.
    let (status, headers, body) = exchange(&addr, &list_tables(&addr, ""));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"shop\""), "{body}");
    assert_eq!(header(&headers, "access-control-allow-origin"), None);
    // DNS rebinding: the page's own name in Host.
    let port = addr.rsplit(':').next().unwrap();
    let rebound = format!("evil.example:{port}");
    let (status, headers, body) = exchange(&addr, &list_tables(&rebound, ""));
    assert_eq!(status, 403, "{body}");
    assert!(
        body.contains("AccessDeniedException") && !body.contains("shop"),
        "{body}"
    );
    assert_eq!(header(&headers, "access-control-allow-origin"), None);
    // A page of another origin: its request and its preflight.
    let (status, headers, body) = exchange(
        &addr,
        &list_tables(&addr, "Origin: http://evil.example\r\n"),
    );
    assert_eq!(status, 403, "{body}");
    assert!(!body.contains("shop"), "{body}");
    assert_eq!(header(&headers, "access-control-allow-origin"), None);
    let preflight = |origin: &str| {
        format!(
            "OPTIONS / HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nAccess-Control-Request-Method: POST\r\n\
             Access-Control-Request-Headers: content-type,x-amz-target,authorization\r\nConnection: close\r\n\r\n"
        )
    };
    let (status, headers, _) = exchange(&addr, &preflight("http://evil.example"));
    assert_eq!(status, 403);
    assert_eq!(header(&headers, "access-control-allow-origin"), None);
    // The allowed origin: its preflight, and its answer names it (never `*`).
    let (status, headers, _) = exchange(&addr, &preflight(origin));
    assert_eq!(status, 204);
    assert_eq!(
        header(&headers, "access-control-allow-origin"),
        Some(origin)
    );
    assert!(header(&headers, "access-control-allow-headers")
        .is_some_and(|h| h.contains("x-amz-target")));
    let (status, headers, body) =
        exchange(&addr, &list_tables(&addr, &format!("Origin: {origin}\r\n")));
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        header(&headers, "access-control-allow-origin"),
        Some(origin)
    );
    stop.send(()).unwrap();
    server.join().unwrap();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[cfg(unix)]
#[test]
fn design_serve_answers_boto3_and_stops_cleanly_on_ctrl_c() {
    let Some(py) = python() else { return };
    let Some(bin) = design_binary() else { return };
    let path = shop_file("cmd");
    let served = Served::start(&bin, &path, &[]);
    eprintln!("design serve: {}", served.banner.trim());
    check_boto3_view(&boto3(&py, &served.url, "shop", ("x", "x")).unwrap());
    let port = served.port();
    served.interrupt();
    // The port is free again, and the file holds boto3's write.
    assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
    let items = items_in(&path, "shop");
    assert_eq!(items.len(), 14);
    assert!(has_pk(&items, "USER#boto3"));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[cfg(unix)]
#[test]
fn design_serve_with_credentials_takes_only_what_they_sign() {
    let Some(py) = python() else { return };
    let Some(cli) = aws_cli() else { return };
    let Some(bin) = design_binary() else { return };
    let path = shop_file("creds");
    let creds = ("AKIDLOCALTEST", "local/secret+key");
    let served = Served::start(
        &bin,
        &path,
        &["--credentials", "AKIDLOCALTEST:local/secret+key"],
    );
    assert!(
        served.banner.contains("SigV4 required"),
        "{}",
        served.banner
    );
    // boto3 and the AWS CLI sign with them: answered.
    check_boto3_view(&boto3(&py, &served.url, "shop", creds).unwrap());
    let tables = aws(&cli, &served.url, creds, &["list-tables"]).unwrap();
    assert_eq!(tables["TableNames"], serde_json::json!(["shop"]));
    let item = aws(
        &cli,
        &served.url,
        creds,
        &[
            "get-item",
            "--table-name",
            "shop",
            "--key",
            r##"{"pk":{"S":"USER#u1"},"sk":{"S":"#PROFILE"}}"##,
        ],
    )
    .unwrap();
    assert_eq!(item["Item"]["name"]["S"], "Alice");
    // Another secret, another key: refused with DynamoDB's error codes.
    let err = boto3(&py, &served.url, "shop", (creds.0, "wrong")).unwrap_err();
    assert!(err.contains("InvalidSignatureException"), "{err}");
    let err = aws(&cli, &served.url, ("AKIDOTHER", creds.1), &["list-tables"]).unwrap_err();
    assert!(err.contains("UnrecognizedClientException"), "{err}");
    // A request whose signature is made up.
    let addr = served.url.trim_start_matches("http://").to_owned();
    let (status, _, body) = exchange(&addr, &list_tables(&addr, ""));
    assert_eq!(status, 400);
    assert!(body.contains("UnrecognizedClientException"), "{body}");
    served.interrupt();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
