//! The design view and the live view: golden Markdown and Workbench models
//! of the seeds' tables, every table of the catalogue drawn in every form,
//! escaping, and the live view's findings on a real table.
//!
//! `UPDATE_GOLDEN=1 cargo test -p dynakey-examples --test design` rewrites
//! the golden files after a deliberate change (review the diff).

#[path = "support/golden.rs"]
mod golden;

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::design::{ItemStatus, KeyDrift, TableDesign};
use dynakey::{Entity, EntityMeta};
use dynakey_examples::demo;
use dynakey_examples::designs::{self, tables, values};
use dynakey_examples::recipes::users_orders_products;
use golden::golden;

fn build(name: &str) -> TableDesign {
    (designs::find(name).unwrap().build)().unwrap()
}

#[test]
fn golden_shop_table_of_seed_002() {
    let shop = build("shop");
    golden("shop.md", &shop.markdown());
    golden("shop.workbench.json", &shop.workbench());
}

#[test]
fn golden_design_patterns_table_of_seeds_000_and_003() {
    let patterns = build("patterns");
    golden("patterns.md", &patterns.markdown());
    golden("patterns.workbench.json", &patterns.workbench());
}

#[test]
fn golden_tracker_with_its_allowed_overlap() {
    golden("tracker.md", &build("tracker").markdown());
}

#[test]
fn every_table_is_drawn_from_its_dynamo_table_in_every_form() {
    let declared: &[(&str, &[&EntityMeta])] = &[
        ("shop", tables::Shop::ENTITIES),
        ("adjacency", tables::Adjacency::ENTITIES),
        ("patterns", tables::Patterns::ENTITIES),
        ("tracker", tables::Tracker::ENTITIES),
        ("queue-priority", tables::QueuePriority::ENTITIES),
    ];
    for (name, metas) in declared {
        let d = build(name);
        let got: Vec<_> = d.metas().iter().map(|m| m.type_name).collect();
        let want: Vec<_> = metas.iter().map(|m| m.type_name).collect();
        assert_eq!(got, want, "{name}");
    }
    for entry in designs::ALL {
        let d = (entry.build)().unwrap();
        let md = d.markdown();
        let html = d.html();
        assert!(md.starts_with(&format!("# Table `{}`", entry.name)), "{md}");
        for m in d.metas() {
            assert!(
                md.contains(&format!("### {}\n", m.type_name)),
                "{}: {}",
                entry.name,
                m.type_name
            );
            assert!(html.contains(
                m.pk.template
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .split('&')
                    .next()
                    .unwrap()
            ));
        }
        // One file, nothing fetched: no script, no link, no URL.
        assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
        for banned in [
            "<script", "<link", "src=", "href=", "http://", "https://", "@import", "url(",
        ] {
            assert!(!html.contains(banned), "{}: {banned}", entry.name);
        }
        assert!(html.contains("@media print"));
    }
}

#[test]
fn the_design_shows_formats_examples_sparse_inputs_and_overlap_costs() {
    let patterns = build("patterns").markdown();
    // Item collections in sort-key order: expenses before hires in GSI1.
    let team = patterns.find("### index GSI1 · `TEAM#<…>`").unwrap();
    let expense = patterns[team..].find("| Expense |").unwrap();
    let staffer = patterns[team..].find("| Staffer |").unwrap();
    assert!(expense < staffer);
    // Formats and example keys from the example values.
    assert!(
        patterns.contains("| sk | `number` | `d6` | unsigned, zero\\-padded to 6 digits |")
            || patterns.contains("| sk | `number` | `d6` | unsigned, zero-padded to 6 digits |"),
        "{patterns}"
    );
    assert!(patterns.contains("`SITE#CH#Zurich#EMP#000042`"));
    assert!(
        patterns.contains("`AMOUNT#-99999984.50`"),
        "−15.50 under n8.2"
    );
    // Which fields feed which key.
    assert!(patterns.contains("| `group_id` | `group_id` | no | sk, GSI1 pk |"));
    // Sparse: what puts an item in.
    assert!(patterns.contains("an item is in it while `plan` and `since` are set"));
    assert!(patterns.contains("Its partition key is the constant `FEATURED`"));
    assert!(patterns.contains("| Subscriber | `PLAN#<plan>` | `SINCE#<since>` | sparse: items with `plan` and `since` set |"));
    // A bare partition key can meet every other partition of its index.
    assert!(patterns.contains("Bare partition key: in index `GSI2`, the partition key of OwnedNote is the placeholder `<owner>` alone"));
    // No overlap in the seeds' table; the tracker's is allowed, with its cost.
    assert!(patterns.contains("## Sort-key overlaps (DYNA305)\n\nNone"));
    let tracker = build("tracker").markdown();
    assert!(tracker
        .contains("the prefix `TASK#` of Task (`TASK#<n:d4>`) begins every sort key of Comment"));
    assert!(tracker.contains("`begins_with(sk, \"TASK#\")`"));
}

/// An entity whose names and values are hostile to Markdown and HTML.
#[derive(dynakey::DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "A|B`<i>")]
#[pk("P|<owner>")]
#[sk("<at>")]
struct Hostile {
    owner: String,
    at: String,
    note: String,
}

#[test]
fn names_and_values_are_escaped_in_every_form() {
    let evil = Hostile {
        owner: "</td><script>alert(1)</script>".into(),
        at: "x`|y".into(),
        note: "**bold** & <b>\n".into(),
    };
    let d = TableDesign::new("t<&>\"'")
        .describe("<img src=x onerror=alert(1)> | `code` *em* # heading")
        .example(&evil)
        .unwrap();
    let html = d.html();
    assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("<i>"));
    assert!(html.contains("&lt;script&gt;") && html.contains("t&lt;&amp;&gt;&quot;&#39;"));
    let md = d.markdown();
    // Every table row has as many cell breaks as its header (escaped
    // pipes do not break a cell).
    let mut width = 0;
    for line in md.lines() {
        if !line.starts_with('|') {
            width = 0;
            continue;
        }
        let cells = line.replace("\\|", "").matches('|').count();
        if width == 0 {
            width = cells;
        }
        assert_eq!(cells, width, "{line}");
    }
    assert!(
        md.contains("`A\\|B`<i>``") || md.contains("``A\\|B`<i>``"),
        "{md}"
    );
    assert!(
        md.contains("\\<img src=x onerror=alert(1)\\> \\| \\`code\\` \\*em\\* # heading"),
        "{md}"
    );
    assert!(!md.contains("\n# heading"));
    let wb: serde_json::Value = serde_json::from_str(&d.workbench()).unwrap();
    assert_eq!(wb["ModelName"], "t<&>\"'");
    assert_eq!(wb["DataModel"][0]["TableData"][0]["sk"]["S"], "x`|y");
    assert_eq!(
        wb["DataModel"][0]["TableData"][0]["note"]["S"],
        "**bold** & <b>\n"
    );
    // The live view of the same item.
    let view = d.inspect(vec![evil.to_item().unwrap()]);
    let live = view.html();
    assert!(!live.contains("<script") && live.contains("&lt;/td&gt;&lt;script&gt;"));
    let live_md = view.markdown();
    assert!(
        live_md.contains("| ``x`\\|y`` | Hostile | ok |"),
        "{live_md}"
    );
    assert!(
        live_md.contains("note: **bold** & <b>\\n, owner: </td><script>alert(1)</script>``"),
        "{live_md}"
    );
    assert!(
        live_md.contains("### `P\\|</td><script>alert(1)</script>` · 1 item"),
        "{live_md}"
    );
}

async fn shop_with_problems() -> (dynakey::local::Backend, dynakey::Db) {
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(dynakey_examples::table_name("design-live"));
    users_orders_products::setup(&db).await.unwrap();
    users_orders_products::run(&db).await.unwrap();
    demo::write_problems(&db).await.unwrap();
    (local, db)
}

#[tokio::test]
async fn the_live_view_points_out_unmatched_undecodable_and_drifted_items() {
    let (local, db) = shop_with_problems().await;
    let view = build("shop").live(&db, 1000).await.unwrap();
    assert!(view.is_complete());
    assert_eq!(view.items().len(), 16);
    assert_eq!(
        view.counts(),
        [
            ("UserProfile", 3),
            ("UserOrder", 5),
            ("OrderInfo", 4),
            ("Product", 3)
        ]
    );
    let problems: Vec<(&str, Option<&str>, &ItemStatus)> = view
        .problems()
        .map(|i| (i.pk.as_str(), i.sk.as_deref(), &i.status))
        .collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert_eq!(
        problems[0],
        (
            "USER#u1",
            Some("ORDER#O7"),
            &ItemStatus::Drift {
                keys: vec![KeyDrift {
                    attr: "sk".into(),
                    stored: Some("ORDER#O7".into()),
                    expected: Some("ORDER#o7".into()),
                }]
            }
        )
    );
    assert!(
        matches!(problems[1], ("USER#u2", Some("CART#current"), ItemStatus::Unmatched { reason }) if reason.contains("\"LEGACY_CART\""))
    );
    assert!(
        matches!(problems[2], ("USER#u3", Some("#PROFILE"), ItemStatus::Undecodable { error }) if error.contains("email"))
    );
    // Every recipe item is sound, and grouped by partition in key order.
    assert!(view
        .items()
        .iter()
        .filter(|i| i.status.is_ok())
        .all(|i| i.status == ItemStatus::Sound));
    let (pk, u1) = view
        .partitions()
        .into_iter()
        .find(|(pk, _)| *pk == "USER#u1")
        .unwrap();
    assert_eq!(pk, "USER#u1");
    let sks: Vec<_> = u1.iter().map(|i| i.sk.as_deref().unwrap()).collect();
    assert_eq!(
        sks,
        ["#PROFILE", "ORDER#O7", "ORDER#o1", "ORDER#o2", "ORDER#o3"]
    );
    let md = view.markdown();
    assert!(
        md.contains("Sampled 16 items (the whole table) in 10 partitions · 3 problems."),
        "{md}"
    );
    assert!(view.html().contains("ORDER#O7"));
    // A sample stops where asked, and says so.
    let part = build("shop").live(&db, 5).await.unwrap();
    assert_eq!((part.items().len(), part.is_complete()), (5, false));
    // With metadata only, items are named but not checked.
    let metas_only = TableDesign::from_metas("shop", tables::Shop::ENTITIES);
    let view = metas_only.live(&db, 1000).await.unwrap();
    assert_eq!(view.problems().count(), 1, "only the unmatched item");
    assert!(view
        .items()
        .iter()
        .any(|i| i.status == ItemStatus::Unchecked));
    dynakey_examples::finish(&local, &[&db]).await.unwrap();
}

#[test]
fn the_live_view_shows_index_keys_and_what_an_allowed_overlap_costs() {
    let tracker = build("tracker");
    let c = |id: &str| tables::Comment {
        id: id.into(),
        ..values::comment()
    };
    let items = vec![
        values::task().to_item().unwrap(),
        c("c1").to_item().unwrap(),
        c("c2").to_item().unwrap(),
    ];
    let md = tracker.inspect(items).markdown();
    assert!(
        md.contains(
            "a typed query of `Task` there reads 3 items to return 1 (2 of them `Comment`'s"
        ),
        "{md}"
    );
    let soft = build("soft_delete");
    let view = soft.inspect(
        values::notes()
            .iter()
            .map(|n| n.to_item().unwrap())
            .collect(),
    );
    let live = &view.items()[0];
    assert_eq!(
        live.index_keys,
        [
            ("gsi2pk".to_owned(), "OWNER#ann".to_owned()),
            (
                "gsi2sk".to_owned(),
                "LIVE#2026-07-01T08:00:00.000000000Z".to_owned()
            )
        ]
    );
    // A deleted note keeps its owner's gsi2pk but has no gsi2sk: it is
    // not in the index.
    assert_eq!(
        view.items()[1].index_keys,
        [("gsi2pk".to_owned(), "OWNER#ann".to_owned())]
    );
    assert!(
        view.markdown().contains("| `NOTE#n2` | Note | — | ok |"),
        "{}",
        view.markdown()
    );
    assert!(view
        .markdown()
        .contains("| `NOTE#n1` | Note | `OWNER#ann / LIVE#2026-07-01T08:00:00.000000000Z` | ok |"));
    // A stored index key that to_item() would not write is drift too.
    let mut stale = values::notes()[1].to_item().unwrap();
    stale.insert(
        "gsi2sk".into(),
        AttributeValue::S("LIVE#2026-07-01T08:00:00.000000000Z".into()),
    );
    let view = soft.inspect(vec![stale]);
    assert!(
        matches!(&view.items()[0].status, ItemStatus::Drift { keys } if keys.len() == 1 && keys[0].expected.is_none())
    );
}

/// A ticket whose keys hold a uuid, an instant, a date and a number.
#[derive(dynakey::DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("TENANT#<tenant>#TICKET#<ticket_id>")]
#[sk("AT#<opened>#N#<n:d4>")]
#[gsi("GSI1", pk = "DAY#<day>#V#<version>", sk = "AT#<opened>", sparse)]
struct Ticket {
    tenant: String,
    ticket_id: uuid::Uuid,
    opened: time::OffsetDateTime,
    day: Option<time::Date>,
    n: u32,
    version: u64,
}

/// Without example values, the example keys show a sample of each
/// field's type where its type has one (a uuid, an instant, a date, a
/// number) in the form the key stores it, and the field's name where it
/// has none (a string).
#[test]
fn example_keys_show_sample_values_of_uuids_times_and_numbers() {
    let d = TableDesign::new("tickets").entity::<Ticket>();
    let uuid = "0192f3c4-5e6a-7b8c-9d0e-f1a2b3c4d5e6";
    for out in [d.markdown(), d.html()] {
        assert!(
            out.contains(&format!("TENANT#tenant#TICKET#{uuid}")),
            "{out}"
        );
        assert!(!out.contains("#TICKET#ticket_id"), "{out}");
        assert!(
            !out.contains("AT#opened") && !out.contains("DAY#day"),
            "{out}"
        );
        assert!(out.contains("#N#0007"), "{out}");
        assert!(out.contains("AT#2026-07-16T09:00:00"), "{out}");
        assert!(out.contains("DAY#2026-07-16#V#7"), "{out}");
    }
}
