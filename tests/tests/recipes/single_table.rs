//! Seeds 000, 001 and 002: adjacency, index overloading, sparse index by
//! absence, multi-tenant prefix, the users/orders/products table. (The
//! recipes that change items in place are in `in_place.rs`.)

use dynakey::Entity;
use dynakey_examples::recipes::adjacency::{GroupPartition, UserPartition};
use dynakey_examples::recipes::index_overloading::TeamPartition;
use dynakey_examples::recipes::users_orders_products::UserItem;
use dynakey_examples::recipes::{
    adjacency, index_overloading, multi_tenant, sparse_by_absence, users_orders_products,
};
use dynakey_examples::seeds::*;
use rust_decimal::Decimal;
use time::macros::date;

use super::{fixture, s, stored};

#[tokio::test]
async fn adjacency_list_and_inverted_index() {
    let f = fixture(adjacency::RECIPE);
    adjacency::setup(&f.db).await.unwrap();
    let r = adjacency::run(&f.db).await.unwrap();
    let edge = |u: &str, g: &str| Membership {
        user_id: u.into(),
        group_id: g.into(),
    };
    // GROUP# sorts before PROFILE: memberships first.
    assert_eq!(
        r.alice,
        [
            UserPartition::Membership(edge("alice", "admins")),
            UserPartition::Membership(edge("alice", "staff")),
            UserPartition::Member(Member {
                user_id: "alice".into(),
                name: "Alice".into()
            }),
        ]
    );
    // INFO sorts before USER#: the team first, then a membership per user.
    assert_eq!(
        r.staff,
        [
            GroupPartition::Team(Team {
                group_id: "staff".into(),
                title: "Staff".into()
            }),
            GroupPartition::Membership(edge("alice", "staff")),
            GroupPartition::Membership(edge("bob", "staff")),
        ]
    );
    assert_eq!(r.alice_groups, ["admins", "staff"]);
    assert_eq!(r.staff_members, ["alice", "bob"]);
    // A typed query reads the profile too; the prefix avoids it.
    assert_eq!(
        (
            r.typed_unfiltered.requests,
            r.typed_unfiltered.count,
            r.typed_unfiltered.scanned
        ),
        (1, 2, 3)
    );
    assert_eq!(
        (
            r.typed_prefixed.requests,
            r.typed_prefixed.count,
            r.typed_prefixed.scanned
        ),
        (1, 2, 2)
    );

    let m = stored(&f.db, Membership::key("alice", "staff").unwrap()).await;
    assert_eq!(s(&m, "pk"), Some("USER#alice"));
    assert_eq!(s(&m, "sk"), Some("GROUP#staff"));
    assert_eq!(s(&m, "gsi1pk"), Some("GROUP#staff"));
    assert_eq!(s(&m, "gsi1sk"), Some("USER#alice"));
    assert_eq!(s(&m, "_type"), Some("MEMBERSHIP"));
    let p = stored(&f.db, Member::key("alice").unwrap()).await;
    assert_eq!(s(&p, "sk"), Some("PROFILE"));
    assert!(!p.contains_key("gsi1pk") && !p.contains_key("gsi1sk"));
    let t = stored(&f.db, Team::key("staff").unwrap()).await;
    assert_eq!(
        (s(&t, "pk"), s(&t, "sk"), s(&t, "gsi1pk"), s(&t, "gsi1sk")),
        (
            Some("GROUP#staff"),
            Some("INFO"),
            Some("GROUP#staff"),
            Some("INFO")
        )
    );
    f.done().await;
}

#[tokio::test]
async fn index_overloading_answers_a_question_per_type() {
    let f = fixture(index_overloading::RECIPE);
    index_overloading::setup(&f.db).await.unwrap();
    let r = index_overloading::run(&f.db).await.unwrap();
    let ids: Vec<&str> = r.hires.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["s2", "s1"], "oldest hire first, team red only");
    let names: Vec<&str> = r.in_bern.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["East", "West"]);
    let order: Vec<String> = r
        .by_team
        .iter()
        .map(|i| match i {
            TeamPartition::Expense(e) => format!("E{}", e.amount.normalize()),
            TeamPartition::Staffer(s) => format!("S{}", s.id),
        })
        .collect();
    assert_eq!(order, ["E-15.5", "E40", "E12500", "Ss2", "Ss1"]);
    assert_eq!(
        (r.hires_unprefixed.count, r.hires_unprefixed.scanned),
        (2, 5)
    );
    assert_eq!((r.hires_prefixed.count, r.hires_prefixed.scanned), (2, 2));

    let st = stored(&f.db, Staffer::key("s1").unwrap()).await;
    assert_eq!(
        (s(&st, "pk"), s(&st, "gsi1pk"), s(&st, "gsi1sk")),
        (Some("STAFF#s1"), Some("TEAM#red"), Some("HIRED#2024-03-01"))
    );
    let refund = stored(&f.db, Expense::key("e2").unwrap()).await;
    let forty = stored(&f.db, Expense::key("e1").unwrap()).await;
    let (a, b) = (s(&refund, "gsi1sk").unwrap(), s(&forty, "gsi1sk").unwrap());
    assert!(
        a.starts_with("AMOUNT#-") && a < b && b < "HIRED#",
        "{a} {b}"
    );
    let w = stored(&f.db, Warehouse::key("w1").unwrap()).await;
    assert_eq!(
        (s(&w, "gsi1pk"), s(&w, "gsi1sk")),
        (Some("CITY#Bern"), Some("West"))
    );
    f.done().await;
}

#[tokio::test]
async fn sparse_index_by_absence_is_the_review_queue() {
    let f = fixture(sparse_by_absence::RECIPE);
    sparse_by_absence::setup(&f.db).await.unwrap();
    let r = sparse_by_absence::run(&f.db).await.unwrap();
    assert_eq!(
        r.queue,
        ["doc-042", "doc-007", "doc-099"],
        "by submission time"
    );
    assert_eq!(r.queue_after, ["doc-007", "doc-099"]);
    // The queue costs its members; the scan reads all 100 documents.
    assert_eq!(
        (
            r.queue_usage.requests,
            r.queue_usage.count,
            r.queue_usage.scanned
        ),
        (1, 3, 3)
    );
    assert_eq!((r.scan_usage.count, r.scan_usage.scanned), (3, 100));

    let plain = stored(&f.db, Document::key("doc-000").unwrap()).await;
    for absent in ["review_flag", "submitted_at", "gsi1pk", "gsi1sk"] {
        assert!(!plain.contains_key(absent), "doc-000 has {absent}");
    }
    let flagged = stored(&f.db, Document::key("doc-007").unwrap()).await;
    assert_eq!(s(&flagged, "gsi1pk"), Some("REVIEW#pending"));
    assert_eq!(
        s(&flagged, "gsi1sk"),
        Some("2026-07-16T09:01:00.000000000Z")
    );
    let left = stored(&f.db, Document::key("doc-042").unwrap()).await;
    assert!(!left.contains_key("gsi1pk") && !left.contains_key("review_flag"));
    f.done().await;
}

#[tokio::test]
async fn a_tenant_handle_reads_only_its_partition() {
    let f = fixture(multi_tenant::RECIPE);
    multi_tenant::setup(&f.db).await.unwrap();
    let r = multi_tenant::run(&f.db).await.unwrap();
    assert_eq!(r.acme_pages, [vec!["a1", "a2"], vec!["a3"]]);
    assert_eq!(r.globex, ["g1", "g2"]);
    assert_eq!(r.acme_get_g1, None);
    assert_eq!(r.globex_get_g1.map(|d| d.title), Some("Secret".into()));
    assert!(r.bad_tenant.contains("acme#globex"), "{}", r.bad_tenant);

    let d = stored(&f.db, TenantDoc::key("acme", "a1").unwrap()).await;
    assert_eq!(
        (s(&d, "pk"), s(&d, "sk")),
        (Some("TENANT#acme"), Some("DOC#a1"))
    );
    let globex = multi_tenant::Tenant::new(&f.db, "globex").unwrap();
    assert_eq!(globex.name(), "globex");
    assert!(globex.get("a1").await.unwrap().is_none());
    f.done().await;
}

#[tokio::test]
async fn users_orders_and_products_answer_the_three_queries() {
    let f = fixture(users_orders_products::RECIPE);
    users_orders_products::setup(&f.db).await.unwrap();
    let r = users_orders_products::run(&f.db).await.unwrap();
    assert_eq!(r.profile.as_ref().map(|u| u.name.as_str()), Some("Alice"));
    let orders: Vec<_> = r
        .orders
        .iter()
        .map(|o| (o.order_id.as_str(), o.amount, o.status))
        .collect();
    assert_eq!(
        orders,
        [
            ("o1", Decimal::new(1999, 2), OrderStatus::Shipped),
            ("o2", Decimal::new(4550, 2), OrderStatus::Open),
            ("o3", Decimal::new(500, 2), OrderStatus::Open),
        ]
    );
    let d = r.details.clone().unwrap();
    assert_eq!((d.order_id.as_str(), d.items.len()), ("o2", 2));
    // #PROFILE sorts before ORDER#.
    assert!(matches!(r.partition[0], UserItem::Profile(_)));
    assert_eq!(r.partition.len(), 4);
    assert!(r.partition[1..]
        .iter()
        .all(|i| matches!(i, UserItem::Order(_))));
    let products: Vec<&str> = r.products.iter().map(|p| p.product_id.as_str()).collect();
    assert_eq!(products, ["p1", "p2", "p3"]);
    // One request per access pattern; the orders query reads only orders.
    assert!(r.usage.iter().all(|u| u.requests == 1), "{:?}", r.usage);
    assert_eq!((r.usage[1].count, r.usage[1].scanned), (3, 3));
    assert_eq!(r.usage[3].count, 3);

    let checks = [
        (
            stored(&f.db, UserProfile::key("u1").unwrap()).await,
            "USER#u1",
            "#PROFILE",
            "USER",
        ),
        (
            stored(&f.db, UserOrder::key("u1", "o1").unwrap()).await,
            "USER#u1",
            "ORDER#o1",
            "USER_ORDER",
        ),
        (
            stored(&f.db, OrderInfo::key("o1").unwrap()).await,
            "ORDER#o1",
            "#INFO",
            "ORDER_INFO",
        ),
        (
            stored(&f.db, Product::key("p1").unwrap()).await,
            "PRODUCT#p1",
            "#DETAILS",
            "PRODUCT",
        ),
    ];
    for (item, pk, sk, ty) in &checks {
        assert_eq!(
            (s(item, "pk"), s(item, "sk"), s(item, "_type")),
            (Some(*pk), Some(*sk), Some(*ty))
        );
    }
    assert_eq!(
        UserOrder::from_item(&checks[1].0).unwrap().order_date,
        date!(2026 - 07 - 16)
    );
    f.done().await;
}
