//! `design load`: a table export (DynamoDB JSON data files, or stdin)
//! loaded into the embedded engine's file, then shown by `design live`:
//! the recipe `export_to_laptop` as a command on a laptop.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use dynakey_examples::recipes::export_to_laptop::{full_export, incremental_export};

/// `target/<profile>/examples/design`, which `cargo test` builds with the
/// package's examples.
fn design_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe
        .parent()?
        .parent()?
        .join("examples")
        .join(format!("design{}", std::env::consts::EXE_SUFFIX));
    bin.exists().then_some(bin)
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

#[test]
fn design_load_writes_an_export_into_a_file_that_design_live_shows() {
    let Some(bin) = design_binary() else {
        eprintln!(
            "skipped: the design example is not built (cargo test -p dynakey-examples builds it)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("dynakey-load-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let (db, export) = (dir.join("prod.db"), dir.join("part-0.json"));
    std::fs::write(&export, full_export().unwrap().join("\n")).unwrap();

    let out = Command::new(&bin)
        .args(["load", "--file"])
        .arg(&db)
        .args(["--table", "shop"])
        .arg(&export)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        stdout.contains("11 written, 0 deleted, 1 unreadable"),
        "{stdout}"
    );
    assert!(stderr.contains("export line 12: not JSON"), "{stderr}");

    // The incremental export from stdin, on top.
    let mut child = Command::new(&bin)
        .args(["load", "--file"])
        .arg(&db)
        .args(["--table", "shop", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(incremental_export().unwrap().join("\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("2 written, 1 deleted, 0 unreadable"),
        "{}",
        text(&out.stdout)
    );

    let md = dir.join("live.md");
    let out = Command::new(&bin)
        .args(["live", "--file"])
        .arg(&db)
        .args(["--table", "shop", "--markdown"])
        .arg(&md)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let view = std::fs::read_to_string(&md).unwrap();
    assert!(
        view.contains("Sampled 11 items (the whole table)") && view.contains("3 problems"),
        "{view}"
    );
    assert!(
        view.contains("USER#u4") && !view.contains("PRODUCT#p2"),
        "{view}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
