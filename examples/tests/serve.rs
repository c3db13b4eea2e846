//! The embedded engine served as a DynamoDB endpoint, read by boto3: the
//! library's `local::Endpoint`, and the `design serve` command stopped by
//! Ctrl-C (SIGINT).
//!
//! boto3 comes from `DYNAKEY_PYTHON`, else the workspace's `.venv` (which
//! `scripts/test` creates), else `python3`. Without boto3 these tests say
//! so and pass, unless `DYNAKEY_REQUIRE_BOTO3=1` (set by `scripts/test`).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dynakey::local::{self, Endpoint};
use dynakey_examples::designs::demo;
use dynakey_examples::recipes::users_orders_products;
use serde_json::Value;

/// Lists the tables, describes one, gets a profile, queries a user's
/// orders, counts by scan, and writes an item; prints what it saw as JSON.
const BOTO3: &str = r##"
import json, sys, boto3
url, table = sys.argv[1], sys.argv[2]
c = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                 aws_access_key_id="x", aws_secret_access_key="x")
names = c.list_tables()["TableNames"]
desc = c.describe_table(TableName=table)["Table"]
item = c.get_item(TableName=table, ConsistentRead=True,
                  Key={"pk": {"S": "USER#u1"}, "sk": {"S": "#PROFILE"}})["Item"]
orders = c.query(TableName=table,
                 KeyConditionExpression="pk = :p AND begins_with(sk, :o)",
                 ExpressionAttributeValues={":p": {"S": "USER#u1"}, ":o": {"S": "ORDER#"}})["Items"]
count = c.scan(TableName=table, Select="COUNT")["Count"]
c.put_item(TableName=table, Item={"pk": {"S": "USER#boto3"}, "sk": {"S": "#PROFILE"},
                                   "_type": {"S": "NOTE_FROM_BOTO3"}})
print(json.dumps({"tables": names, "key": [k["AttributeName"] for k in desc["KeySchema"]],
                  "name": item["name"]["S"], "orders": [i["sk"]["S"] for i in orders],
                  "count": count, "boto3": boto3.__version__}))
"##;

fn python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let candidates = std::env::var_os("DYNAKEY_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain([root.join(".venv/bin/python"), PathBuf::from("python3")]);
    for py in candidates {
        let ok = Command::new(&py)
            .args(["-c", "import boto3"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(py);
        }
    }
    let required = std::env::var("DYNAKEY_REQUIRE_BOTO3").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "DYNAKEY_REQUIRE_BOTO3=1 but no python with boto3 was found"
    );
    eprintln!("skipped: no python with boto3 (set DYNAKEY_PYTHON, or run scripts/test)");
    None
}

fn boto3(py: &Path, url: &str, table: &str) -> Value {
    let out = Command::new(py)
        .args(["-c", BOTO3, url, table])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "boto3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dynakey-serve-{name}-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("data.db")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The shop recipe written into a new file database, closed again.
fn shop_file(name: &str) -> PathBuf {
    let path = temp_db(name);
    let rt = runtime();
    rt.block_on(async {
        let backend = local::file(&path).unwrap();
        let tables = demo::write_recipe(&backend, &users_orders_products::RECIPE)
            .await
            .unwrap();
        assert_eq!(tables, ["shop"]);
    });
    drop(rt);
    path
}

/// The items of `table` in the file, read through the embedded engine.
fn items_in(path: &Path, table: &str) -> Vec<dynakey::Item> {
    let rt = runtime();
    rt.block_on(async {
        let backend = local::file(path).unwrap();
        let out = backend
            .client()
            .scan()
            .table_name(table)
            .send()
            .await
            .unwrap();
        out.items().to_vec()
    })
}

fn check_boto3_view(v: &Value) {
    assert_eq!(v["tables"], serde_json::json!(["shop"]));
    assert_eq!(v["key"], serde_json::json!(["pk", "sk"]));
    assert_eq!(v["name"], "Alice");
    assert_eq!(
        v["orders"],
        serde_json::json!(["ORDER#o1", "ORDER#o2", "ORDER#o3"])
    );
    assert_eq!(v["count"], 13);
}

fn has_boto3_note(items: &[dynakey::Item]) -> bool {
    items.iter().any(|i| {
        i.get("pk")
            .and_then(|v| v.as_s().ok())
            .is_some_and(|s| s == "USER#boto3")
    })
}

#[test]
fn boto3_lists_and_reads_the_tables_of_a_served_file_database() {
    let Some(py) = python() else { return };
    let path = shop_file("lib");
    let ep = Endpoint::file(&path, 0).unwrap();
    let url = ep.url();
    assert!(url.starts_with("http://127.0.0.1:"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let r = rt.block_on(ep.serve_until(async move {
            let _ = stopped.await;
        }));
        drop(rt);
        r
    });
    let seen = boto3(&py, &url, "shop");
    eprintln!("boto3 {} read the served file", seen["boto3"]);
    check_boto3_view(&seen);
    stop.send(()).unwrap();
    server.join().unwrap().unwrap();
    // The server closed the file with boto3's write in it.
    let items = items_in(&path, "shop");
    assert_eq!(items.len(), 14);
    assert!(has_boto3_note(&items));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// `target/<profile>/examples/design`, which `cargo test` builds with the
/// package's examples.
fn design_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let bin = profile_dir
        .join("examples")
        .join(format!("design{}", std::env::consts::EXE_SUFFIX));
    bin.exists().then_some(bin)
}

#[cfg(unix)]
#[test]
fn design_serve_answers_boto3_and_stops_cleanly_on_ctrl_c() {
    let Some(py) = python() else { return };
    let Some(bin) = design_binary() else {
        eprintln!(
            "skipped: the design example is not built (cargo test -p dynakey-examples builds it)"
        );
        return;
    };
    let path = shop_file("cmd");
    let mut child = Command::new(&bin)
        .args(["serve", "--file"])
        .arg(&path)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = stdout.read_line(&mut first);
        let _ = tx.send(first);
        let mut rest = String::new();
        let _ = stdout.read_to_string(&mut rest);
        rest
    });
    let started = Instant::now();
    let banner = rx.recv_timeout(Duration::from_secs(60)).unwrap();
    let url = banner
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {banner:?}"))
        .to_owned();
    eprintln!(
        "design serve up in {:?}: {}",
        started.elapsed(),
        banner.trim()
    );
    check_boto3_view(&boto3(&py, &url, "shop"));
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "design serve did not stop on SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "exit {status}: {err}");
    // The port is free again, and the file holds boto3's write.
    let port: u16 = url.rsplit(':').next().unwrap().parse().unwrap();
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err());
    let items = items_in(&path, "shop");
    assert_eq!(items.len(), 14);
    assert!(has_boto3_note(&items));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
