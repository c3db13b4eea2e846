//! The recipes tour: every seed pattern's keys and items, as dynakey builds
//! them. Run: `cargo run --example tour`.

use dynakey::{Entity, SortKeyOp};
use dynakey_examples::seeds::*;

fn show_item<E: Entity>(title: &str, e: &E) {
    let item = e.to_item().expect("valid item");
    let mut names: Vec<_> = item.keys().cloned().collect();
    names.sort();
    println!("  {title}");
    for n in names {
        println!("    {n:<14} {:?}", item[&n]);
    }
}

fn op(o: &SortKeyOp) -> String {
    match o {
        SortKeyOp::BeginsWith(p) => format!("begins_with(sk, {p:?})"),
        SortKeyOp::Between(a, b) => format!("sk BETWEEN {a:?} AND {b:?}"),
        SortKeyOp::Eq(v) => format!("sk = {v:?}"),
        SortKeyOp::Lt(v) => format!("sk < {v:?}"),
        SortKeyOp::Le(v) => format!("sk <= {v:?}"),
        SortKeyOp::Gt(v) => format!("sk > {v:?}"),
        SortKeyOp::Ge(v) => format!("sk >= {v:?}"),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("== adjacency list + inverted index");
    let m = Membership {
        user_id: "alice".into(),
        group_id: "staff".into(),
    };
    show_item("membership alice -> staff", &m);
    println!(
        "  a user's partition: pk = {:?}",
        Member::pk("alice")?.value()
    );
    println!(
        "  a team's members:   GSI1 gsi1pk = {:?}",
        Membership::gsi1_pk("staff")?.value()
    );

    println!("\n== composite sort keys");
    let k = Employee::key("acme", "CH", "Zurich", 42)?;
    println!("  key {:?} / {:?}", k.pk(), k.sk().unwrap_or_default());
    println!("  everyone:    {}", op(Employee::sk().begins_with()?.op()));
    println!(
        "  Switzerland: {}",
        op(Employee::sk().country("CH").begins_with()?.op())
    );
    println!(
        "  Zurich:      {}",
        op(Employee::sk()
            .country("CH")
            .city("Zurich")
            .begins_with()?
            .op())
    );
    match Employee::key("acme", "CH", "Zurich", -1) {
        Err(e) => println!("  -1 under d6: {e}"),
        Ok(k) => println!("  unexpected key {k:?}"),
    }

    println!("\n== index overloading: a refund sorts before an expense");
    for amount in [
        rust_decimal::Decimal::new(-1550, 2),
        rust_decimal::Decimal::new(40, 0),
    ] {
        let e = Expense {
            id: "e1".into(),
            team: "red".into(),
            amount,
        };
        println!(
            "  {amount:>7} -> gsi1sk {:?}",
            e.to_item()?["gsi1sk"].as_s().map_err(|_| "S")?
        );
    }

    println!("\n== sparse index");
    let s = Subscriber {
        id: "s1".into(),
        plan: None,
        since: None,
    };
    show_item("free subscriber (no index keys)", &s);
    let s = Subscriber {
        plan: Some("pro".into()),
        since: Some(time::macros::date!(2026 - 07 - 16)),
        ..s
    };
    show_item("paying subscriber", &s);

    println!("\n== v7 uuid sort keys");
    let now = time::OffsetDateTime::now_utc();
    let last_hour = ChatMessage::sk().between(
        dynakey::uuid7::first(now - time::Duration::hours(1)),
        dynakey::uuid7::last(now),
    )?;
    println!("  last hour: {}", op(last_hour.op()));

    println!("\n== write sharding and time buckets");
    for shard in 0..4 {
        println!(
            "  shard {shard}: {:?}",
            Vote::pk("best-pet", shard)?.value()
        );
    }
    println!("  bucket: {:?}", MetricSample::pk("cpu", 81_234)?.value());
    Ok(())
}
