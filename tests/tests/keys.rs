//! Generated keys compared with the exact strings of the seeds, key parsing,
//! sort-key conditions and the errors of formats that cannot hold a value.

use dynakey::{Entity, KeyFormatReason, SortKeyOp};
use dynakey_tests::seeds::*;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use uuid::Uuid;

#[test]
fn adjacency_keys_match_the_seed() {
    let k = Membership::key("alice", "staff").unwrap();
    assert_eq!((k.pk(), k.sk()), ("USER#alice", Some("GROUP#staff")));
    assert_eq!(Member::key("alice").unwrap().sk(), Some("PROFILE"));
    assert_eq!(Membership::gsi1_pk("staff").unwrap().value(), "GROUP#staff");
    assert_eq!(Membership::gsi1_pk("staff").unwrap().attr(), "gsi1pk");
    assert_eq!(Membership::gsi1_pk("staff").unwrap().index(), Some("GSI1"));
    assert_eq!(
        Team::gsi1_key("staff").unwrap(),
        ("GROUP#staff".to_owned(), Some("INFO".to_owned()))
    );
    // Memberships sort before the profile in the user's partition.
    assert!("GROUP#staff" < "PROFILE");
}

#[test]
fn items_hold_attributes_discriminator_and_every_key() {
    let m = Membership {
        user_id: "alice".into(),
        group_id: "staff".into(),
    };
    let item = m.to_item().unwrap();
    let s = |k: &str| item[k].as_s().unwrap().clone();
    assert_eq!(s("pk"), "USER#alice");
    assert_eq!(s("sk"), "GROUP#staff");
    assert_eq!(s("gsi1pk"), "GROUP#staff");
    assert_eq!(s("gsi1sk"), "USER#alice");
    assert_eq!(s("_type"), "MEMBERSHIP");
    assert_eq!(s("user_id"), "alice");
    assert_eq!(Membership::from_item(&item).unwrap(), m);
    assert_eq!(
        m.item_key().unwrap(),
        Membership::key("alice", "staff").unwrap()
    );
}

#[test]
fn composite_sort_key_pads_numbers() {
    let k = Employee::key("acme", "CH", "Zurich", 42).unwrap();
    assert_eq!(k.pk(), "ORG#acme");
    assert_eq!(k.sk(), Some("SITE#CH#Zurich#EMP#000042"));
    assert_eq!(
        Employee::parse_sk("SITE#CH#Zurich#EMP#000042").unwrap(),
        ("CH".to_owned(), "Zurich".to_owned(), 42)
    );
    assert_eq!(
        Employee::parse_pk("ORG#acme").unwrap(),
        ("acme".to_owned(),)
    );
    // 10 sorts after 2 once padded.
    let two = Employee::key("acme", "CH", "Zurich", 2).unwrap();
    let ten = Employee::key("acme", "CH", "Zurich", 10).unwrap();
    assert!(two.sk() < ten.sk());
}

#[test]
fn negative_under_d6_is_a_key_format_error() {
    let err = Employee::key("acme", "CH", "Zurich", -1).unwrap_err();
    assert_eq!(err.discriminator, "EMPLOYEE");
    assert_eq!(err.template, "SITE#<country>#<city>#EMP#<number:d6>");
    assert_eq!(err.field, "number");
    assert_eq!(err.value, "-1");
    assert_eq!(err.reason, KeyFormatReason::Negative { width: 6 });
    let wide = Employee::key("acme", "CH", "Zurich", 1_000_000).unwrap_err();
    assert_eq!(wide.reason, KeyFormatReason::TooWide { width: 6 });
    // The delimiter inside a value is escaped, so it cannot end the field.
    let delim = Employee::key("acme", "C#H", "Zurich", 1).unwrap();
    assert_eq!(delim.sk(), Some("SITE#C%23H#Zurich#EMP#000001"));
    assert_eq!(
        Employee::parse_sk(delim.sk().unwrap()).unwrap(),
        ("C#H".to_owned(), "Zurich".to_owned(), 1)
    );
    let high = Employee::key("acme", "C\u{10FFFF}", "Zurich", 1).unwrap_err();
    assert_eq!(high.field, "country");
    assert_eq!(
        high.reason,
        KeyFormatReason::ForbiddenChar {
            found: '\u{10FFFF}'
        }
    );
    let empty = Member::key("").unwrap_err();
    assert_eq!(empty.reason, KeyFormatReason::Empty);
    assert!(err.to_string().contains("field `number`"), "{err}");
}

#[test]
fn signed_width_sorts_negatives_first() {
    let t = |d| Adjustment::key("a", d).unwrap().sk().unwrap().to_owned();
    assert!(t(-10) < t(-2) && t(-2) < t(0) && t(0) < t(3));
    assert_eq!(Adjustment::parse_sk(&t(-10)).unwrap(), (-10,));
}

#[test]
fn sort_key_conditions_take_leading_fields() {
    let everyone = Employee::sk().begins_with().unwrap();
    assert_eq!(everyone.op(), &SortKeyOp::BeginsWith("SITE#".into()));
    let ch = Employee::sk().country("CH").begins_with().unwrap();
    assert_eq!(ch.op(), &SortKeyOp::BeginsWith("SITE#CH#".into()));
    let zurich = Employee::sk()
        .country("CH")
        .city("Zurich")
        .begins_with()
        .unwrap();
    assert_eq!(
        zurich.op(),
        &SortKeyOp::BeginsWith("SITE#CH#Zurich#EMP#".into())
    );
    let one = Employee::sk()
        .country("CH")
        .city("Zurich")
        .number(42)
        .eq()
        .unwrap();
    assert_eq!(one.op(), &SortKeyOp::Eq("SITE#CH#Zurich#EMP#000042".into()));
    assert_eq!(one.attr(), "sk");
    let range = Employee::sk()
        .country("CH")
        .city("Zurich")
        .between(1, 99)
        .unwrap();
    assert_eq!(
        range.op(),
        &SortKeyOp::Between(
            "SITE#CH#Zurich#EMP#000001".into(),
            "SITE#CH#Zurich#EMP#000099".into()
        )
    );
    // A bad value inside the chain surfaces at the end.
    assert!(Employee::sk().country("CH").city("Zurich").ge(-5).is_err());
}

#[test]
fn index_overloading_prefixes_keep_types_apart() {
    let hires = Staffer::gsi1_sk().begins_with().unwrap();
    assert_eq!(hires.op(), &SortKeyOp::BeginsWith("HIRED#".into()));
    assert_eq!(hires.index(), Some("GSI1"));
    let e = Expense {
        id: "e1".into(),
        team: "red".into(),
        amount: Decimal::new(-1550, 2),
    };
    let refund = e.to_item().unwrap()["gsi1sk"].as_s().unwrap().clone();
    let e40 = Expense {
        amount: Decimal::new(40, 0),
        ..e.clone()
    };
    let forty = e40.to_item().unwrap()["gsi1sk"].as_s().unwrap().clone();
    assert!(refund < forty, "{refund} < {forty}");
    assert!(forty.starts_with("AMOUNT#") && forty.as_str() < "HIRED#");
    assert_eq!(
        Expense::parse_gsi1_sk(&refund).unwrap(),
        (Decimal::new(-1550, 2),)
    );
    let s = Staffer {
        id: "s1".into(),
        team: "red".into(),
        hired_on: date!(2024 - 03 - 01),
    };
    assert_eq!(
        s.to_item().unwrap()["gsi1sk"].as_s().unwrap(),
        "HIRED#2024-03-01"
    );
    let w = Warehouse::gsi1_pk("Bern").unwrap();
    assert_eq!(w.value(), "CITY#Bern");
}

#[test]
fn sparse_index_keys_follow_their_inputs() {
    let mut s = Subscriber {
        id: "s1".into(),
        plan: None,
        since: None,
    };
    let item = s.to_item().unwrap();
    assert!(
        !item.contains_key("gsi2pk") && !item.contains_key("gsi2sk") && !item.contains_key("plan")
    );
    s.plan = Some("pro".into());
    // Each key attribute follows its own inputs; the item is in the index
    // only while both exist.
    let item = s.to_item().unwrap();
    assert_eq!(item["gsi2pk"].as_s().unwrap(), "PLAN#pro");
    assert!(!item.contains_key("gsi2sk"), "`since` is still absent");
    s.since = Some(date!(2026 - 07 - 16));
    let item = s.to_item().unwrap();
    assert_eq!(item["gsi2pk"].as_s().unwrap(), "PLAN#pro");
    assert_eq!(item["gsi2sk"].as_s().unwrap(), "SINCE#2026-07-16");
    assert_eq!(Subscriber::from_item(&item).unwrap(), s);

    let legacy = LegacySubscriber {
        id: "s2".into(),
        plan: String::new(),
    };
    let item = legacy.to_item().unwrap();
    assert!(!item.contains_key("plan") && !item.contains_key("gsi2pk"));
    assert_eq!(LegacySubscriber::from_item(&item).unwrap(), legacy);

    let a = Article {
        id: "a1".into(),
        featured_on: Some(date!(2026 - 07 - 16)),
    };
    assert_eq!(Article::gsi2_pk().unwrap().value(), "FEATURED");
    assert_eq!(
        a.to_item().unwrap()["gsi2sk"].as_s().unwrap(),
        "ON#2026-07-16"
    );
}

#[test]
fn queue_keys() {
    let id = dynakey::uuid7::at(datetime!(2026-07-16 09:12:00 UTC));
    let job = QueuedJob {
        id,
        shard: Some(0),
        claim_shard: None,
        owner: None,
        claimed_until: None,
        payload: "ship".into(),
    };
    let item = job.to_item().unwrap();
    assert_eq!(item["gsi2pk"].as_s().unwrap(), "PENDING#0");
    assert_eq!(item["gsi2sk"].as_s().unwrap(), &id.to_string());
    assert!(!item.contains_key("gsi1pk"));
    let until = datetime!(2026-07-16 09:17:00 +02:00);
    let claimed = QueuedJob {
        shard: None,
        claim_shard: Some(0),
        claimed_until: Some(until),
        owner: Some("w1".into()),
        ..job
    };
    let item = claimed.to_item().unwrap();
    assert!(!item.contains_key("gsi2pk"));
    assert_eq!(item["gsi1pk"].as_s().unwrap(), "CLAIMED#0");
    // Stored in UTC: two offsets of one instant give one text.
    assert_eq!(
        item["gsi1sk"].as_s().unwrap(),
        "2026-07-16T07:17:00.000000000Z"
    );
    let stale = QueuedJob::gsi1_sk()
        .lt(datetime!(2026-07-16 08:00 UTC))
        .unwrap();
    assert_eq!(
        stale.op(),
        &SortKeyOp::Lt("2026-07-16T08:00:00.000000000Z".into())
    );
    let p = PriorityJob {
        id,
        shard: Some(1),
        priority: 3,
        payload: "x".into(),
    };
    assert_eq!(
        p.to_item().unwrap()["gsi2sk"].as_s().unwrap(),
        &format!("03#{id}")
    );
}

#[test]
fn status_keyed_index() {
    let id = Uuid::now_v7();
    let w = WorkItem {
        id,
        owner: "ann".into(),
        status: WorkStatus::Open,
    };
    let item = w.to_item().unwrap();
    assert_eq!(item["gsi1pk"].as_s().unwrap(), "OWNER#ann");
    assert_eq!(item["gsi1sk"].as_s().unwrap(), &format!("Open#{id}"));
    assert_eq!(item["status"].as_s().unwrap(), "Open");
    assert_eq!(WorkItem::from_item(&item).unwrap(), w);
    let open = WorkItem::gsi1_sk()
        .status(WorkStatus::Open)
        .begins_with()
        .unwrap();
    assert_eq!(open.op(), &SortKeyOp::BeginsWith("Open#".into()));
    let now = datetime!(2026-07-16 09:00 UTC);
    let week = WorkItem::gsi1_sk()
        .status(WorkStatus::Open)
        .between(
            dynakey::uuid7::first(now - time::Duration::days(7)),
            dynakey::uuid7::last(now),
        )
        .unwrap();
    match week.op() {
        SortKeyOp::Between(lo, hi) => {
            assert!(lo.starts_with("Open#") && hi.starts_with("Open#") && lo < hi)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        WorkItem::parse_gsi1_sk(&format!("Closed#{id}")).unwrap(),
        (WorkStatus::Closed, id)
    );
}

#[test]
fn soft_delete_index_keys() {
    let n = Note {
        owner: "ann".into(),
        id: "n1".into(),
        live_since: Some(datetime!(2026-01-01 0:00 UTC)),
        deleted_at: None,
    };
    let item = n.to_item().unwrap();
    assert_eq!(item["pk"].as_s().unwrap(), "OWNER#ann");
    assert_eq!(item["sk"].as_s().unwrap(), "NOTE#n1");
    assert_eq!(item["gsi2pk"].as_s().unwrap(), "OWNER#ann");
    let deleted = Note {
        live_since: None,
        deleted_at: Some(datetime!(2026-02-01 0:00 UTC)),
        ..n
    };
    // Out of the index: its sort key attribute is gone (the partition key,
    // from the always-present owner, stays).
    let item = deleted.to_item().unwrap();
    assert!(!item.contains_key("gsi2sk") && item.contains_key("gsi2pk"));
    let owned = OwnedNote {
        id: "n1".into(),
        owner: Some("ann".into()),
        live_since: Some(datetime!(2026-01-01 0:00 UTC)),
        deleted_at: None,
    };
    assert_eq!(owned.to_item().unwrap()["gsi2pk"].as_s().unwrap(), "ann");
}

#[test]
fn v7_sort_keys_and_time_ranges() {
    let at = datetime!(2026-07-16 09:12:00.123 UTC);
    let id = dynakey::uuid7::at(at);
    let k = ChatMessage::key("ann", id).unwrap();
    assert_eq!(k.sk().unwrap(), id.hyphenated().to_string());
    assert!(k.sk().unwrap().chars().all(|c| !c.is_ascii_uppercase()));
    let hour = ChatMessage::sk()
        .between(
            dynakey::uuid7::first(at - time::Duration::hours(1)),
            dynakey::uuid7::last(at),
        )
        .unwrap();
    match hour.op() {
        SortKeyOp::Between(lo, hi) => {
            assert!(lo.as_str() <= k.sk().unwrap() && k.sk().unwrap() <= hi.as_str())
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(ChatMessage::parse_sk(k.sk().unwrap()).unwrap(), (id,));
}

#[test]
fn sharded_and_bucketed_partitions() {
    let at = datetime!(2026-07-16 09:12:00 UTC);
    let vote_id = Uuid::nil();
    let k = Vote::key("best-pet", 3, at, vote_id).unwrap();
    assert_eq!(k.pk(), "VOTES#best-pet#03");
    assert_eq!(
        k.sk().unwrap(),
        format!("2026-07-16T09:12:00.000000000Z#{vote_id}")
    );
    assert_eq!(Vote::parse_sk(k.sk().unwrap()).unwrap(), (at, vote_id));
    assert_eq!(
        UserSession::key(1, "session-1").unwrap().pk(),
        "SESSIONS#01"
    );
    let m = MetricSample::pk("cpu", 81_234).unwrap();
    assert_eq!(m.value(), "METRIC#cpu#0000081234");
    assert_eq!(
        MetricSample::parse_pk(m.value()).unwrap(),
        ("cpu".to_owned(), 81_234)
    );
}

#[test]
fn large_object_keys() {
    assert_eq!(
        FileChunk::key("report", 7).unwrap().sk(),
        Some("CHUNK#0007")
    );
    assert_eq!(FileManifest::key("report").unwrap().sk(), Some("MANIFEST"));
    let c = FileChunk {
        file_id: "report".into(),
        index: 0,
        data: dynakey::Blob::new(vec![1, 2, 3]),
    };
    let item = c.to_item().unwrap();
    assert_eq!(item["data"].as_b().unwrap().as_ref(), &[1, 2, 3]);
    assert_eq!(FileChunk::from_item(&item).unwrap(), c);
}

#[test]
fn parse_rejects_malformed_keys() {
    assert!(Employee::parse_sk("SITE#CH#Zurich#EMP#42").is_err());
    assert!(Employee::parse_sk("ORG#CH").is_err());
    assert!(Employee::parse_sk("SITE#CH#Zurich#EMP#000042#extra").is_err());
}

#[test]
fn metadata_names_keys_and_inputs() {
    let m = Employee::META;
    assert_eq!(m.discriminator, "EMPLOYEE");
    assert_eq!(m.pk.template, "ORG#<org>");
    assert_eq!(m.sk.as_ref().unwrap().fields, ["country", "city", "number"]);
    let q = QueuedJob::META;
    assert_eq!(q.indexes.len(), 2);
    let g2 = q.index("GSI2").unwrap();
    assert!(g2.sparse);
    let (pk, _) = g2.template().unwrap();
    assert_eq!(pk.attr, "gsi2pk");
    assert_eq!(pk.fields, ["shard"]);
}

/// The seeds' design-patterns table (`dynakey_examples::designs::tables::Patterns`):
/// every entity of seeds 000 and 003 that shares it, checked against each
/// other at compile time (DYNA301–DYNA305). (`LegacySubscriber` writes GSI2
/// without a sort key and `PriorityJob` has `QueuedJob`'s keys: each belongs
/// in a table of its own, which is what DYNA304/DYNA305 would say.)
use dynakey_examples::designs::tables::Patterns;

#[tokio::test]
async fn the_shop_table_holds_every_seed_entity() {
    assert_eq!(Patterns::ENTITIES.len(), 20);
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("shop_{}", Uuid::new_v4().simple()));
    db.create_table(Patterns::ENTITIES).await.unwrap();
    // Creating it again is a no-op.
    db.create_table(Patterns::ENTITIES).await.unwrap();
    db.put(&Member {
        user_id: "alice".into(),
        name: "Alice".into(),
    })
    .await
    .unwrap();
    db.put(&Membership {
        user_id: "alice".into(),
        group_id: "staff".into(),
    })
    .await
    .unwrap();
    db.put(&Team {
        group_id: "staff".into(),
        title: "Staff".into(),
    })
    .await
    .unwrap();
    let edges = db
        .query(Membership::pk("alice").unwrap())
        .sk(Membership::sk().begins_with().unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(edges.len(), 1);
    let in_team = db
        .query(Team::gsi1_pk("staff").unwrap())
        .count()
        .await
        .unwrap();
    assert_eq!(in_team, 1, "the typed query reads only teams");
}

/// A key error says which index's key failed, and an empty field says so.
#[test]
fn key_errors_name_the_index_and_an_empty_field() {
    let e = Membership::gsi1_pk("").unwrap_err();
    assert_eq!(e.index, Some("GSI1"));
    assert_eq!(e.field, "group_id");
    assert_eq!(
        e.to_string(),
        "MEMBERSHIP key \"GROUP#<group_id>\" of index GSI1: field `group_id` is empty, and a key part needs a value (an empty key attribute is refused by DynamoDB)"
    );
    let e = Member::key("").unwrap_err();
    assert_eq!(e.index, None);
    assert!(
        e.to_string()
            .starts_with("MEMBER key \"USER#<user_id>\": field `user_id` is empty"),
        "{e}"
    );
    // A bad value of an index key inside `to_item` names the index too.
    let x = Expense {
        id: "e1".into(),
        team: "t".into(),
        amount: Decimal::new(12_345, 3),
    };
    let e = x.to_item().unwrap_err().to_string();
    assert!(
        e.starts_with("EXPENSE key \"AMOUNT#<amount:n8.2>\" of index GSI1: field `amount`"),
        "{e}"
    );
    // Two keys that cannot be written: the error is the first one in the
    // order the attributes are written (table key, then index keys).
    let e = Membership {
        user_id: String::new(),
        group_id: String::new(),
    }
    .to_item()
    .unwrap_err();
    match e {
        dynakey::EncodeError::Key(k) => assert_eq!((k.index, k.field), (None, "user_id")),
        other => panic!("expected a key error, got {other:?}"),
    }
}

/// Sort-key steps and typed updates print what they hold.
#[test]
fn builders_are_debug() {
    let step = Employee::sk().country("CH");
    let text = format!("{step:?}");
    assert!(text.contains("SITE#CH"), "{text}");
    let update = WorkItem::update(Uuid::nil()).set_owner("ann");
    let text = format!("{update:?}");
    assert!(text.contains("owner") && text.contains("ITEM#"), "{text}");
}
