//! `design export` and `design verify` run as a deployment pipeline runs
//! them: the exported template is the golden file byte for byte, and the
//! live check's exit code and report are right for a table made as the
//! code needs it and for tables made wrong on purpose, on the backend under
//! test (the embedded engine's endpoint, or the server `DYNAKEY_ENDPOINT`
//! names).

#[path = "support/served.rs"]
mod served;

use std::path::Path;
use std::process::{Command, Output};

use dynakey::local::Backend;
use dynakey_examples::infra;

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

fn run(bin: &Path, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().unwrap()
}

#[test]
fn design_export_prints_the_golden_templates_and_writes_them_with_out() {
    let Some(bin) = served::design_binary() else {
        return;
    };
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/infra");
    for (format, ext) in [
        ("cfn-json", "cfn.json"),
        ("cfn-yaml", "cfn.yaml"),
        ("terraform", "tf.json"),
    ] {
        let out = run(&bin, &["export", format, "shop-production"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let want = std::fs::read_to_string(golden.join(format!("shop-production.{ext}"))).unwrap();
        assert_eq!(
            text(&out.stdout),
            want,
            "design export {format} shop-production"
        );
    }

    let dir =
        std::env::temp_dir().join(format!("dynakey-export-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("shop.tf.json");
    let out = run(
        &bin,
        &[
            "export",
            "terraform",
            "shop-production",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(
        written["resource"]["aws_dynamodb_table"].is_object(),
        "{written}"
    );

    // A format or a table it does not know: a failure that says why.
    let out = run(&bin, &["export", "xml", "shop"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("unknown format \\\"xml\\\""),
        "{}",
        text(&out.stderr)
    );
    let out = run(&bin, &["export", "cfn-json", "no-such-table"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no table named"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `design verify --endpoint <backend> --table <name> --design <design>`.
fn verify(bin: &Path, local: &Backend, table: &str, design: &str) -> Output {
    run(
        bin,
        &[
            "verify",
            "--endpoint",
            local.endpoint(),
            "--table",
            table,
            "--design",
            design,
        ],
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn design_verify_passes_a_fitting_table_and_fails_wrong_ones_with_the_difference() {
    let Some(bin) = served::design_binary() else {
        return;
    };
    let local = dynakey::local::from_env().unwrap();
    let shop = infra::find("shop").unwrap();
    let native = infra::find("native_keys").unwrap();

    // Made as the code needs it: exit 0.
    let right = local.db(dynakey_examples::table_name("verify-right"));
    right
        .create_table_with(&shop.entities, shop.options.clone())
        .await
        .unwrap();
    let out = verify(&bin, &local, right.table_name(), "shop");
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("matches the code"),
        "{}",
        text(&out.stdout)
    );

    // The shop's table checked against code that needs another index:
    // exit 1, the missing index named, and what fixes it.
    let out = verify(&bin, &local, right.table_name(), "native_keys");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(
        report.contains("global index ByOwner is missing") && report.contains("sync_table"),
        "{report}"
    );
    assert!(
        text(&out.stderr).contains("does not fit the code of native_keys"),
        "{}",
        text(&out.stderr)
    );

    // A table of the native design checked against the shop's code: the
    // same table key and one index no entity declares. Reported, but the
    // code still works on it: exit 0.
    let wider = local.db(dynakey_examples::table_name("verify-wider"));
    wider
        .create_table_with(&native.entities, native.options.clone())
        .await
        .unwrap();
    let out = verify(&bin, &local, wider.table_name(), "shop");
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("1 difference")
            && report.contains("global index ByOwner is declared by no entity"),
        "{report}"
    );

    // No table at all.
    let missing = dynakey_examples::table_name("verify-missing");
    let out = verify(&bin, &local, &missing, "shop");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("the table does not exist"),
        "{}",
        text(&out.stdout)
    );

    // A design it does not know: refused before any request.
    let out = verify(&bin, &local, right.table_name(), "no-such-design");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no table named"),
        "{}",
        text(&out.stderr)
    );

    dynakey_examples::finish(&local, &[&right, &wider])
        .await
        .unwrap();
}
