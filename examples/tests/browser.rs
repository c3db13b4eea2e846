//! A served engine seen from a real browser: a page served from another
//! port of 127.0.0.1, opened in headless Chromium, runs `fetch()` against
//! `design serve` and gets nothing (its preflighted request, a plain GET,
//! a request to the endpoint under another host name as DNS rebinding
//! sends it, and a write that needs no preflight), while the AWS CLI and
//! boto3 read and write the same endpoint. The same page, with its origin
//! let in by `--allow-origin`, reads the table names: what the page does
//! works, and the refusals are the endpoint's.
//!
//! Chromium comes from `DYNAKEY_CHROMIUM` (scripts/test installs it); the
//! page writes what each fetch got into the DOM, which `--dump-dom` prints.

#[path = "support/served.rs"]
mod served;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use served::*;

/// The page: four fetches, their outcomes as JSON in `#out`. The requests
/// carry what an attacker's script would add (a made-up SigV4 header,
/// which the engine behind the front does not check).
const PAGE: &str = r##"<!doctype html>
<html><head><title>probe</title></head><body><pre id="out">pending</pre><script>
const q = new URLSearchParams(location.search);
const ep = q.get("ep"), rebound = q.get("rebound");
const headers = {
  "Content-Type": "application/x-amz-json-1.0",
  "X-Amz-Target": "DynamoDB_20120810.ListTables",
  "X-Amz-Date": "20260101T000000Z",
  "Authorization": "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00",
};
async function probe(url, init) {
  try {
    const r = await fetch(url, init);
    return "answered " + r.status + ": " + (await r.text()).slice(0, 300);
  } catch (e) {
    return "refused: " + e;
  }
}
(async () => {
  const out = {};
  out.list = await probe(ep + "/", { method: "POST", headers, body: "{}" });
  out.get = await probe(ep + "/", {});
  out.rebound = await probe(rebound + "/", { method: "POST", headers, body: "{}" });
  const put = { TableName: "shop", Item: { pk: { S: "USER#page" }, sk: { S: "#PROFILE" } } };
  out.write = await probe(ep + "/", { method: "POST", mode: "no-cors",
    headers: { "Content-Type": "text/plain" }, body: JSON.stringify(put) });
  document.getElementById("out").textContent = JSON.stringify(out);
})();
</script></body></html>"##;

/// Serves `page` to every GET on a port of 127.0.0.1 of its own, from a
/// thread that lives as long as the test; returns the page's URL.
fn serve_page(page: &'static str) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/probe.html", l.local_addr().unwrap());
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let mut r = BufReader::new(&s);
            let mut line = String::new();
            while r.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let mut s = &s;
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    url
}

/// What each fetch of the page at `url` got, read from the DOM headless
/// Chromium leaves; `rebind.test` resolves to 127.0.0.1 (as a rebound
/// name does) and nothing else resolves.
fn run_page(chrome: &Path, url: &str) -> Value {
    let profile = temp_dir("chromium");
    let started = Instant::now();
    let out = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP rebind.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--virtual-time-budget=10000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    let dom = String::from_utf8_lossy(&out.stdout);
    let json = dom
        .split_once("<pre id=\"out\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(j, _)| {
            j.replace("&quot;", "\"")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
        })
        .unwrap_or_else(|| {
            panic!(
                "no result in the DOM:\n{dom}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    eprintln!("Chromium ran the page in {:?}", started.elapsed());
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// The page's URL for probing `endpoint`.
fn probe(page: &str, endpoint: &str) -> String {
    let port = endpoint.rsplit(':').next().unwrap();
    format!("{page}?ep={endpoint}&rebound=http://rebind.test:{port}")
}

#[cfg(unix)]
#[test]
fn a_page_on_another_port_gets_nothing_while_the_aws_cli_and_boto3_work() {
    let Some(chrome) = chromium() else { return };
    let Some(py) = python() else { return };
    let Some(cli) = aws_cli() else { return };
    let Some(bin) = design_binary() else { return };
    let path = shop_file("browser");

    // Served by default: the page gets nothing.
    let page = serve_page(PAGE);
    let served = Served::start(&bin, &path, &[]);
    let seen = run_page(&chrome, &probe(&page, &served.url));
    eprintln!("the page got: {seen:#}");
    for probe in ["list", "get", "rebound"] {
        let got = seen[probe].as_str().unwrap();
        assert!(got.starts_with("refused: TypeError"), "{probe}: {got}");
    }
    // A write needs no preflight; its answer is opaque to the page, and the
    // front refused it (it carried the page's Origin).
    assert_eq!(seen["write"], "answered 0: ");
    // The AWS CLI and boto3 are answered as before.
    let tables = aws(&cli, &served.url, ("x", "x"), &["list-tables"]).unwrap();
    assert_eq!(tables["TableNames"], serde_json::json!(["shop"]));
    check_boto3_view(&boto3(&py, &served.url, "shop", ("x", "x")).unwrap());
    served.interrupt();
    let items = items_in(&path, "shop");
    assert!(!has_pk(&items, "USER#page"), "the page wrote into the file");
    assert!(has_pk(&items, "USER#boto3"));

    // The page's origin let in: the same page reads the table names.
    let origin = page.trim_end_matches("/probe.html").to_owned();
    let served = Served::start(&bin, &path, &["--allow-origin", &origin]);
    let seen = run_page(&chrome, &probe(&page, &served.url));
    let got = seen["list"].as_str().unwrap();
    assert!(
        got.starts_with("answered 200") && got.contains("\"shop\""),
        "{got}"
    );
    // Not under another host name, though.
    let got = seen["rebound"].as_str().unwrap();
    assert!(got.starts_with("refused: TypeError"), "rebound: {got}");
    served.interrupt();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
