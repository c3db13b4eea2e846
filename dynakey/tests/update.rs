//! Typed updates: which expressions they build, and index upkeep. The
//! backend behaviour is tested in `tests/tests/updates.rs`.

use dynakey::expr::Placeholders;
use dynakey::{DynamoEntity, DynamoValue, TypedUpdate};

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq)]
enum Status {
    Open,
    Closed,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "WORK_ITEM")]
#[pk("ITEM#<id>")]
#[sk("DATA")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<id>")]
struct WorkItem {
    id: String,
    owner: String,
    status: Status,
    title: String,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "PLAN#<plan>", sk = "SINCE#<since>", sparse)]
struct Subscriber {
    id: String,
    plan: Option<String>,
    since: Option<time::Date>,
    #[dynamo(version)]
    version: u64,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
#[sk("NOTE")]
#[gsi("GSI2", pk = "<owner>", sk = "LIVE#<live_since>", sparse)]
struct OwnedNote {
    id: String,
    owner: Option<String>,
    live_since: Option<time::OffsetDateTime>,
}

fn render<U: TypedUpdate>(u: U) -> (String, Vec<(String, String)>) {
    let parts = u.into_parts().unwrap();
    let mut cx = Placeholders::default();
    let text = parts.update.render(&mut cx).unwrap();
    let names = cx.names().unwrap_or_default();
    let values = cx.values().unwrap_or_default();
    // Expand placeholders so the test reads like the expression.
    let mut out = text.clone();
    let mut pairs = Vec::new();
    for (k, v) in &names {
        pairs.push((k.clone(), v.clone()));
    }
    pairs.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.0.cmp(&a.0)));
    for (k, v) in &pairs {
        out = out.replace(k.as_str(), v);
    }
    let mut vals: Vec<(String, String)> = values
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_s().cloned().unwrap_or_else(|_| format!("{v:?}")),
            )
        })
        .collect();
    vals.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.0.cmp(&a.0)));
    for (k, v) in &vals {
        out = out.replace(k.as_str(), &format!("'{v}'"));
    }
    (out, vals)
}

#[test]
fn status_change_rewrites_the_index_sort_key() {
    let (text, _) = render(WorkItem::update("w1").set_status(Status::Closed));
    assert_eq!(text, "SET status = 'Closed', gsi1sk = 'Closed#w1'");
}

#[test]
fn a_field_that_feeds_no_key_touches_no_key() {
    let (text, _) = render(WorkItem::update("w1").set_title("new"));
    assert_eq!(text, "SET title = 'new'");
}

#[test]
fn sparse_inputs_enter_and_leave_the_index() {
    let since = time::macros::date!(2026 - 07 - 16);
    let (text, _) = render(Subscriber::update("s1").set_plan("pro").set_since(since));
    assert!(text.starts_with("SET plan = 'pro', since = '2026-07-16', gsi2pk = 'PLAN#pro', gsi2sk = 'SINCE#2026-07-16', version = if_not_exists(version,"), "{text}");
    let (text, _) = render(Subscriber::update("s1").remove_plan().remove_since());
    assert!(
        text.contains("REMOVE plan, since, gsi2pk, gsi2sk"),
        "{text}"
    );
    // A Set of None takes the item out, as a Remove does: each key
    // attribute follows its own inputs, and the item is in the index while
    // both exist.
    let (text, _) = render(
        Subscriber::update("s1")
            .set_plan(None::<String>)
            .set_since(since),
    );
    assert!(
        text.starts_with("SET since = '2026-07-16', gsi2sk = 'SINCE#2026-07-16'"),
        "{text}"
    );
    assert!(text.ends_with("REMOVE plan, gsi2pk"), "{text}");
}

#[test]
fn a_key_is_rewritten_from_its_own_inputs_only() {
    // The index partition key `<owner>` is untouched: the update neither
    // needs the owner nor copies it (an item without one stays out).
    let at = time::macros::datetime!(2026-01-01 0:00 UTC);
    let (text, _) = render(OwnedNote::update("n1").set_live_since(at));
    assert_eq!(text, "SET live_since = '2026-01-01T00:00:00.000000000Z', gsi2sk = 'LIVE#2026-01-01T00:00:00.000000000Z'");
}

#[test]
fn an_update_patches_an_existing_item_and_an_upsert_creates_it() {
    let parts = WorkItem::update("w1").set_title("t").into_parts().unwrap();
    let (cond, names, _) = parts.condition.unwrap().render_standalone().unwrap();
    assert_eq!(
        (cond.as_str(), names["#n0"].as_str()),
        ("attribute_exists(#n0)", "pk")
    );
    let (text, _) = render(
        WorkItem::upsert("w1")
            .set_owner("ann")
            .set_status(Status::Open)
            .set_title("t"),
    );
    assert_eq!(
        text,
        "SET _type = 'WORK_ITEM', id = 'w1', owner = 'ann', status = 'Open', title = 't', gsi1pk = 'OWNER#ann', gsi1sk = 'Open#w1'"
    );
    let upsert = WorkItem::upsert("w1")
        .set_owner("ann")
        .set_status(Status::Open)
        .set_title("t");
    assert!(upsert.into_parts().unwrap().condition.is_none());
}

#[test]
fn version_is_checked_and_bumped() {
    let parts = Subscriber::update("s1")
        .set_plan("pro")
        .remove_since()
        .if_version(3u64)
        .into_parts()
        .unwrap();
    let mut cx = Placeholders::default();
    let c = parts.condition.unwrap().render(&mut cx).unwrap();
    assert!(c.contains(" = "), "{c}");
}

#[test]
fn typed_conditions_use_placeholders() {
    let c = Subscriber::attrs()
        .plan
        .eq("pro")
        .and(Subscriber::attrs().since.not_exists());
    let (text, _, _) = c.render_standalone().unwrap();
    assert_eq!(text, "(#n0 = :v0) AND (attribute_not_exists(#n1))");
}

#[test]
fn bad_key_values_fail_before_sending() {
    assert!(WorkItem::update("").set_title("x").into_parts().is_err());
}
