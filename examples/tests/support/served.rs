//! What the tests of a served engine share: the tools they drive (boto3,
//! the AWS CLI, Chromium), a file database holding the shop recipe, and
//! `design serve` run as a child process.
//!
//! Each tool comes from its `DYNAKEY_*` variable (set by `scripts/test`),
//! else the workspace's `.venv` or PATH. A test without its tool says so
//! and passes, unless the matching `DYNAKEY_REQUIRE_*=1` is set (as
//! `scripts/test` does).

#![allow(dead_code)] // each test file uses part of it

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dynakey::local;
use dynakey_examples::demo;
use dynakey_examples::recipes::users_orders_products;

fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The first of `candidates` for which `works` holds; `None` (and a note)
/// when none does, a failure when `require` is set.
fn find(
    what: &str,
    require: &str,
    candidates: impl IntoIterator<Item = PathBuf>,
    works: impl Fn(&Path) -> bool,
) -> Option<PathBuf> {
    if let Some(found) = candidates.into_iter().find(|c| works(c)) {
        return Some(found);
    }
    assert!(!required(require), "{require}=1 but no {what} was found");
    eprintln!("skipped: no {what} (run scripts/test, which installs it)");
    None
}

fn runs(cmd: &Path, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var).map(PathBuf::from)
}

/// A Python with boto3: `DYNAKEY_PYTHON`, the workspace's `.venv`, `python3`.
pub fn python() -> Option<PathBuf> {
    let candidates = env_path("DYNAKEY_PYTHON")
        .into_iter()
        .chain([root().join(".venv/bin/python"), PathBuf::from("python3")]);
    find(
        "python with boto3",
        "DYNAKEY_REQUIRE_BOTO3",
        candidates,
        |p| runs(p, &["-c", "import boto3"]),
    )
}

/// The AWS CLI: `DYNAKEY_AWS_CLI`, the workspace's `.venv`, `aws`.
pub fn aws_cli() -> Option<PathBuf> {
    let candidates = env_path("DYNAKEY_AWS_CLI")
        .into_iter()
        .chain([root().join(".venv/bin/aws"), PathBuf::from("aws")]);
    find("AWS CLI", "DYNAKEY_REQUIRE_BOTO3", candidates, |p| {
        runs(p, &["--version"])
    })
}

/// cfn-lint: `DYNAKEY_CFN_LINT`, the workspace's `.venv`, `cfn-lint`;
/// required when `DYNAKEY_REQUIRE_CFN_LINT=1`.
pub fn cfn_lint() -> Option<PathBuf> {
    let candidates = env_path("DYNAKEY_CFN_LINT")
        .into_iter()
        .chain([root().join(".venv/bin/cfn-lint"), PathBuf::from("cfn-lint")]);
    find("cfn-lint", "DYNAKEY_REQUIRE_CFN_LINT", candidates, |p| {
        runs(p, &["--version"])
    })
}

/// parliament (an IAM policy auditor): `DYNAKEY_PARLIAMENT`, the
/// workspace's `.venv`, `parliament`; required when
/// `DYNAKEY_REQUIRE_PARLIAMENT=1`.
pub fn parliament() -> Option<PathBuf> {
    let candidates = env_path("DYNAKEY_PARLIAMENT").into_iter().chain([
        root().join(".venv/bin/parliament"),
        PathBuf::from("parliament"),
    ]);
    find(
        "parliament",
        "DYNAKEY_REQUIRE_PARLIAMENT",
        candidates,
        |p| runs(p, &["--version"]),
    )
}

/// Chromium: `DYNAKEY_CHROMIUM`, else `chromium` on PATH.
pub fn chromium() -> Option<PathBuf> {
    let candidates = env_path("DYNAKEY_CHROMIUM")
        .into_iter()
        .chain(["chromium", "chromium-browser"].map(PathBuf::from));
    find("Chromium", "DYNAKEY_REQUIRE_BROWSER", candidates, |p| {
        runs(p, &["--version"])
    })
}

/// A new directory for one test's files.
/// Runs a checker (cfn-lint, parliament) and fails unless it exits 0 and
/// prints nothing; `what` names the run in the failure, with the report.
pub fn assert_clean(cmd: &mut Command, what: &str) {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && report.trim().is_empty(),
        "{what} found problems:\n{report}"
    );
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dynakey-serve-{name}-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The shop recipe written into a new file database, closed again.
pub fn shop_file(name: &str) -> PathBuf {
    let path = temp_dir(name).join("data.db");
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
pub fn items_in(path: &Path, table: &str) -> Vec<dynakey::Item> {
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

/// Whether an item of partition `pk` is among `items`.
pub fn has_pk(items: &[dynakey::Item], pk: &str) -> bool {
    items.iter().any(|i| {
        i.get("pk")
            .and_then(|v| v.as_s().ok())
            .is_some_and(|s| s == pk)
    })
}

/// `target/<profile>/examples/design`, which `cargo test` builds with the
/// package's examples.
pub fn design_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let bin = profile_dir
        .join("examples")
        .join(format!("design{}", std::env::consts::EXE_SUFFIX));
    if bin.exists() {
        return Some(bin);
    }
    eprintln!(
        "skipped: the design example is not built (cargo test -p dynakey-examples builds it)"
    );
    None
}

/// `design serve` running as a child process; killed when dropped.
pub struct Served {
    child: Child,
    /// Its URL, from its banner.
    pub url: String,
    /// Its banner line.
    pub banner: String,
}

impl Served {
    /// Runs `design serve --file PATH --port 0 EXTRA..` and waits for its
    /// banner.
    pub fn start(bin: &Path, path: &Path, extra: &[&str]) -> Served {
        let mut child = Command::new(bin)
            .args(["serve", "--file"])
            .arg(path)
            .args(["--port", "0"])
            .args(extra)
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
        });
        let banner = rx.recv_timeout(Duration::from_secs(60)).unwrap();
        let url = banner
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no URL in {banner:?}"))
            .to_owned();
        Served { child, url, banner }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The port it serves on.
    pub fn port(&self) -> u16 {
        self.url.rsplit(':').next().unwrap().parse().unwrap()
    }

    /// Stops it with SIGINT (as Ctrl-C does) and waits for a clean exit.
    #[cfg(unix)]
    pub fn interrupt(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success());
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            assert!(
                Instant::now() < deadline,
                "design serve did not stop on SIGINT"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        assert!(status.success(), "exit {status}: {err}");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Lists the tables, describes one, gets a profile, queries a user's
/// orders, counts by scan, and writes an item; prints what it saw as JSON.
/// Arguments: URL, table, access key, secret.
const BOTO3: &str = r##"
import json, sys, boto3
url, table, key, secret = sys.argv[1:5]
c = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                 aws_access_key_id=key, aws_secret_access_key=secret)
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

/// What boto3 saw of `table` at `url`, signing with `(key, secret)`; its
/// error output when it failed.
pub fn boto3(
    py: &Path,
    url: &str,
    table: &str,
    (key, secret): (&str, &str),
) -> Result<serde_json::Value, String> {
    let out = Command::new(py)
        .args(["-c", BOTO3, url, table, key, secret])
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(serde_json::from_slice(&out.stdout).unwrap())
}

/// What boto3 sees of the shop recipe's table.
pub fn check_boto3_view(v: &serde_json::Value) {
    assert_eq!(v["tables"], serde_json::json!(["shop"]));
    assert_eq!(v["key"], serde_json::json!(["pk", "sk"]));
    assert_eq!(v["name"], "Alice");
    assert_eq!(
        v["orders"],
        serde_json::json!(["ORDER#o1", "ORDER#o2", "ORDER#o3"])
    );
    assert_eq!(v["count"], 13);
}

/// `aws dynamodb ARGS.. --endpoint-url URL` signing with `(key, secret)`:
/// its JSON output, or its error output.
pub fn aws(
    cli: &Path,
    url: &str,
    (key, secret): (&str, &str),
    args: &[&str],
) -> Result<serde_json::Value, String> {
    let out = Command::new(cli)
        .arg("dynamodb")
        .args(args)
        .args([
            "--endpoint-url",
            url,
            "--region",
            "us-east-1",
            "--output",
            "json",
        ])
        .env("AWS_ACCESS_KEY_ID", key)
        .env("AWS_SECRET_ACCESS_KEY", secret)
        .env_remove("AWS_SESSION_TOKEN")
        .env_remove("AWS_PROFILE")
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(serde_json::from_slice(&out.stdout).unwrap())
}

/// The TCP sockets process `pid` (`"self"`: this one) listens on: the
/// rows of `/proc/<pid>/net/tcp` and `tcp6` in state LISTEN whose inode
/// is a socket among the process's open files (those tables list every
/// socket of the network namespace, the inodes say which are its own).
/// Linux only.
pub fn listening_tcp(pid: &str) -> Vec<std::net::SocketAddr> {
    let proc = Path::new("/proc").join(pid);
    let own: std::collections::HashSet<String> = std::fs::read_dir(proc.join("fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| {
            let l = l.to_str()?;
            Some(l.strip_prefix("socket:[")?.strip_suffix(']')?.to_owned())
        })
        .collect();
    let mut found = Vec::new();
    for table in ["tcp", "tcp6"] {
        let text = std::fs::read_to_string(proc.join("net").join(table)).unwrap_or_default();
        for row in text.lines().skip(1) {
            let cols: Vec<&str> = row.split_whitespace().collect();
            // local_address, st (0A: LISTEN), inode
            if cols.len() > 9 && cols[3] == "0A" && own.contains(cols[9]) {
                found.push(proc_addr(cols[1]));
            }
        }
    }
    found
}

/// An address as `/proc/net/tcp{,6}` writes it: the IP's 32-bit words in
/// host order (little-endian here), in hex, then `:` and the port.
fn proc_addr(text: &str) -> std::net::SocketAddr {
    let (ip, port) = text.split_once(':').unwrap();
    let port = u16::from_str_radix(port, 16).unwrap();
    let words: Vec<u32> = (0..ip.len() / 8)
        .map(|i| u32::from_str_radix(&ip[i * 8..i * 8 + 8], 16).unwrap())
        .collect();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let ip = match bytes.len() {
        4 => std::net::IpAddr::from(<[u8; 4]>::try_from(bytes).unwrap()),
        _ => std::net::IpAddr::from(<[u8; 16]>::try_from(bytes).unwrap()),
    };
    std::net::SocketAddr::new(ip, port)
}

/// One HTTP/1.1 exchange with `addr`: the status, the headers (lowercase
/// names) and the body.
pub fn exchange(addr: &str, request: &str) -> (u16, Vec<(String, String)>, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

/// The value of header `name` (lowercase) in `headers`.
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A ListTables POST with `extra` headers, as a page's script or a
/// program would send it (a dummy SigV4 header: the engine checks only
/// that there is one).
pub fn list_tables(host: &str, extra: &str) -> String {
    let body = "{}";
    format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-amz-json-1.0\r\n\
         X-Amz-Target: DynamoDB_20120810.ListTables\r\nX-Amz-Date: 20260101T000000Z\r\n\
         Authorization: AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00\r\n\
         {extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Serves `path` in-process with `access` on a thread of its own until
/// the returned sender is used (or dropped).
pub fn serve_in_process(
    path: &std::path::Path,
    access: local::Access,
) -> (
    String,
    tokio::sync::oneshot::Sender<()>,
    std::thread::JoinHandle<()>,
) {
    let ep = local::Endpoint::file(path, 0).unwrap().with_access(access);
    let url = ep.url();
    assert!(url.starts_with("http://127.0.0.1:"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(ep.serve_until(async move {
            let _ = stopped.await;
        }))
        .unwrap();
        drop(rt);
    });
    (url, stop, server)
}
