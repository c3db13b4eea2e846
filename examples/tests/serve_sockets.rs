//! A served endpoint listens on exactly one socket, the address it
//! prints, so the front's checks (`Host`, `Origin`, signatures) are the
//! only way in: no engine server listens anywhere else in the process to
//! be reached around them (issue 41, item 6).
//!
//! Its own test binary: it counts the sockets of this whole process, so
//! no other test may serve in it. Linux only (it reads `/proc`).

#![cfg(target_os = "linux")]

#[path = "support/served.rs"]
mod served;

use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dynakey::local::Access;
use served::*;

/// One test at a time: each starts with no socket listening in this
/// process, and `shop_file` writes its file through the embedded engine
/// (`local::file`), whose own loopback server stops soon after.
static ALONE: Mutex<()> = Mutex::new(());

/// Waits until this process listens on no socket (the last embedded
/// engine's server has stopped).
fn no_listener_left() {
    let start = Instant::now();
    while !listening_tcp("self").is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "still listening: {:?}",
            listening_tcp("self")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The request the engine's own server used to answer: a page's
/// `Origin`, another `Host` and a made-up signature.
fn bypass(addr: &SocketAddr) -> (u16, Vec<(String, String)>, String) {
    exchange(
        &addr.to_string(),
        &list_tables("evil.example", "Origin: http://evil.example\r\n"),
    )
}

/// Every socket in `listening` refuses the bypass, with no CORS header
/// and none of the database's table names.
fn refused_everywhere(listening: &[SocketAddr]) {
    for addr in listening {
        let (status, headers, body) = bypass(addr);
        assert_eq!(status, 403, "{addr} answered the bypass: {body}");
        assert!(body.contains("AccessDeniedException"), "{addr}: {body}");
        assert!(!body.contains("shop"), "{addr}: {body}");
        assert_eq!(header(&headers, "access-control-allow-origin"), None);
    }
}

#[test]
fn an_endpoint_served_in_process_listens_only_on_its_printed_address() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let path = shop_file("sockets-lib");
    no_listener_left();
    let (url, stop, server) = serve_in_process(&path, Access::default());
    let printed: SocketAddr = url.trim_start_matches("http://").parse().unwrap();
    // Answered by the engine once, so whatever it starts lazily has started.
    let (status, _, body) = exchange(&url[7..], &list_tables(&url[7..], ""));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"shop\""), "{body}");
    let listening = listening_tcp("self");
    assert_eq!(listening, [printed]);
    refused_everywhere(&listening);
    stop.send(()).unwrap();
    server.join().unwrap();
    assert!(listening_tcp("self").is_empty());
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn design_serve_listens_only_on_its_printed_address() {
    let Some(bin) = design_binary() else { return };
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let path = shop_file("sockets-cmd");
    let served = Served::start(&bin, &path, &[]);
    let printed: SocketAddr = served.url.trim_start_matches("http://").parse().unwrap();
    let addr = printed.to_string();
    let (status, _, body) = exchange(&addr, &list_tables(&addr, ""));
    assert_eq!(status, 200, "{body}");
    let listening = listening_tcp(&served.pid().to_string());
    assert_eq!(listening, [printed], "{}", served.banner);
    refused_everywhere(&listening);
    // What the front lets through is answered in full by the engine in
    // process: an engine refusal keeps DynamoDB's error type.
    let describe = "{\"TableName\":\"nope\"}";
    let request = list_tables(&addr, "")
        .replace("ListTables", "DescribeTable")
        .replace(
            "Content-Length: 2\r\n",
            &format!("Content-Length: {}\r\n", describe.len()),
        )
        .replace("\r\n\r\n{}", &format!("\r\n\r\n{describe}"));
    let (status, headers, body) = exchange(&addr, &request);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("ResourceNotFoundException"), "{body}");
    assert!(header(&headers, "x-amzn-requestid").is_some());
    served.interrupt();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
