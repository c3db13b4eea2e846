//! The send path stays the one way a request reaches the SDK: a scan of
//! the runtime's source for calls that send outside it. The runtime's own
//! builders (`Put`, `Query`, `BatchWrite`, `TransactWrite`, …) are also
//! sent by a `.send()`, and a scan of text cannot tell them from the SDK's
//! fluent builders, so every file that still says `.send()` is listed
//! below with how many times and why; a new one fails the test until it
//! goes through [`send`](super::send) or is listed here with its reason.

use std::collections::BTreeMap;
use std::path::Path;

/// What sends directly: an SDK fluent builder's `.send()`, an input
/// builder's `send_with(..)` (the send path's own call, in `send/`), and
/// the SDK's paginators (which send each page themselves).
const DIRECT: [&str; 3] = [".send()", "send_with(", "into_paginator("];

/// Each file (under `src/`) still holding a `.send()` outside comments,
/// how many (exactly: a stale count fails too), and why it is not a
/// bypass.
const ALLOWED: [(&str, usize, &str); 16] = [
    ("ops.rs", 2, "the IntoFuture of dynakey's batch builders"),
    ("ops/put.rs", 1, "the IntoFuture of dynakey's Put"),
    ("ops/patch.rs", 1, "the IntoFuture of dynakey's PatchItem"),
    ("ops/delete.rs", 1, "the IntoFuture of dynakey's Delete"),
    (
        "ops/get.rs",
        2,
        "the IntoFuture of dynakey's Get and GetProjected",
    ),
    (
        "ops/update.rs",
        4,
        "dynakey's UpdateItem and its RawUpdate (send::send inside)",
    ),
    ("query.rs", 1, "the IntoFuture of dynakey's Query"),
    ("query/scan.rs", 1, "the IntoFuture of dynakey's Scan"),
    ("query/fanout.rs", 1, "the IntoFuture of dynakey's FanOut"),
    (
        "query/hydrate.rs",
        1,
        "dynakey's BatchGet (send::open and send::call per chunk)",
    ),
    ("vector/search.rs", 1, "the IntoFuture of dynakey's search"),
    ("schema/runner.rs", 1, "the IntoFuture of dynakey's Migrate"),
    (
        "changes/export_load.rs",
        1,
        "dynakey's BatchWrite (send::open and send::call per chunk)",
    ),
    (
        "rules/unique.rs",
        1,
        "dynakey's TransactWrite (send::send_then)",
    ),
    (
        "transact/moves.rs",
        2,
        "dynakey's Put and TransactWrite (send::send, send::send_then)",
    ),
    (
        "local/lean.rs",
        2,
        "a unit test of the embedded engine's HTTP headers: a bare client's \
         ListTables, no Db and no user request",
    ),
];

/// How many direct sends each file of `dir` (outside `send.rs` and
/// `send/`) holds in code, comments left out.
fn direct_sends(src: &Path, dir: &Path, out: &mut BTreeMap<String, usize>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let rel = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel == "send.rs" || rel == "send" {
            continue;
        }
        if path.is_dir() {
            direct_sends(src, &path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let n: usize = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|code| {
                DIRECT
                    .iter()
                    .map(|d| code.matches(d).count())
                    .sum::<usize>()
            })
            .sum();
        if n > 0 {
            out.insert(rel, n);
        }
    }
}

#[test]
fn no_request_reaches_the_sdk_outside_the_send_path() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = BTreeMap::new();
    direct_sends(&src, &src, &mut found);
    let allowed: BTreeMap<String, usize> = ALLOWED
        .iter()
        .map(|(f, n, _)| ((*f).to_owned(), *n))
        .collect();
    assert_eq!(
        found, allowed,
        "a request sent outside src/send.rs: build it as the SDK's input \
         (XInput::builder()) and send it with send::send / send_then / \
         send_or_none (an operation not yet there is one line of \
         send/admin.rs, or an impl in send/data.rs); a `.send()` of \
         dynakey's own builder goes in ALLOWED with its reason"
    );
}
