//! `#[dynamo(unique(scope = field))]`: one value per value of the scope.
//! Two tenants may hold one email, one tenant may not hold it twice;
//! concurrent sign-ups with one email in each of several tenants (names
//! holding the guard's own delimiters) each have exactly one winner; an
//! update of the value or of its scope moves the guard, a delete releases
//! it; transactions keep the guards.

use dynakey::rules::unique::{scoped_guard_key, GUARD};
use dynakey::{DynamoEntity, Entity, Error};

use super::{fixture, scan};

/// Members of tenants: one email per tenant (the scope is a table-key
/// field), one handle per team (a field an update changes).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MEMBER")]
#[pk("TENANT#<tenant>#MEMBER#<id>")]
#[sk("PROFILE")]
struct Member {
    tenant: String,
    id: String,
    #[dynamo(unique(scope = tenant))]
    email: String,
    team: String,
    #[dynamo(unique(scope = team))]
    handle: Option<String>,
}

fn member(tenant: &str, id: &str, email: &str) -> Member {
    Member {
        tenant: tenant.into(),
        id: id.into(),
        email: email.into(),
        team: "red".into(),
        handle: None,
    }
}

/// The guards in the table, as their partition keys, sorted.
async fn guards(db: &dynakey::Db) -> Vec<String> {
    let mut out: Vec<String> = scan(db)
        .await
        .into_iter()
        .filter(|i| i["_type"].as_s().unwrap() == GUARD)
        .map(|i| i["pk"].as_s().unwrap().clone())
        .collect();
    out.sort();
    out
}

fn taken(e: &Error, field: &str, value: &str) -> bool {
    matches!(e, Error::Unique { entity: "Member", field: f, value: v } if *f == field && v == value)
}

/// Tenants whose names hold `#`, `:` and digits: a scope `a#1` with the
/// value `x` and a scope `a` with the value `1#x` are different guards.
const TENANTS: [&str; 4] = ["acme", "a#1", "a", "3:x#"];

#[tokio::test]
async fn concurrent_sign_ups_in_each_scope_one_wins_per_scope() {
    let f = fixture(&[Member::META]).await;
    let db = &f.db;
    for round in 0..3 {
        let email = format!("same{round}@example.com");
        // Four sign-ups per tenant, all at once, all with one email.
        let tasks: Vec<_> = TENANTS
            .iter()
            .flat_map(|t| (0..4).map(move |n| (*t, n)))
            .map(|(t, n)| {
                let db = db.clone();
                let m = member(t, &format!("m{round}-{n}"), &email);
                tokio::spawn(async move { (m.tenant.clone(), db.put(&m).if_not_exists().await) })
            })
            .collect();
        let mut won = std::collections::BTreeMap::new();
        for t in tasks {
            let (tenant, r) = t.await.unwrap();
            match r {
                Ok(_) => *won.entry(tenant).or_insert(0) += 1,
                Err(e) => assert!(
                    taken(&e, "email", &email) || matches!(e, Error::TransactionCanceled { .. }),
                    "{e:?}"
                ),
            }
        }
        let each: Vec<(String, i32)> = TENANTS.iter().map(|t| (t.to_string(), 1)).collect();
        let mut want: Vec<(String, i32)> = each;
        want.sort();
        assert_eq!(won.into_iter().collect::<Vec<_>>(), want, "round {round}");
    }
    let n = TENANTS.len() * 3;
    assert_eq!(scan(db).await.len(), 2 * n, "the members and their guards");
    assert_eq!(guards(db).await.len(), n);
}

#[tokio::test]
async fn two_tenants_may_share_a_value_and_one_may_not_hold_it_twice() {
    let f = fixture(&[Member::META]).await;
    let db = &f.db;
    db.put(&member("acme", "ann", "a@x.io")).await.unwrap();
    db.put(&member("globex", "ann", "a@x.io")).await.unwrap();
    let err = db.put(&member("acme", "bob", "a@x.io")).await.unwrap_err();
    assert!(taken(&err, "email", "a@x.io"), "{err:?}");
    assert!(db
        .get(Member::key("acme", "bob").unwrap())
        .await
        .unwrap()
        .is_none());
    // The guards, keyed by scope and value (the scope's length first).
    assert_eq!(
        guards(db).await,
        [
            "_UNIQUE#MEMBER#email@tenant#4:acme#a@x.io",
            "_UNIQUE#MEMBER#email@tenant#6:globex#a@x.io",
        ]
    );
    let key = scoped_guard_key(Member::META, "email", "acme", "a@x.io");
    assert_eq!(
        key["pk"].as_s().unwrap(),
        "_UNIQUE#MEMBER#email@tenant#4:acme#a@x.io"
    );
    // Delimiters in the scope and the value do not meet.
    db.put(&member("a#1", "x", "x")).await.unwrap();
    db.put(&member("a", "x", "1#x")).await.unwrap();
    // Deleting frees the value in its scope only.
    db.delete(Member::key("acme", "ann").unwrap())
        .await
        .unwrap();
    db.put(&member("acme", "bob", "a@x.io")).await.unwrap();
    let err = db
        .put(&member("globex", "bob", "a@x.io"))
        .await
        .unwrap_err();
    assert!(taken(&err, "email", "a@x.io"), "{err:?}");
}

#[tokio::test]
async fn changing_the_value_or_its_scope_moves_the_guard() {
    let f = fixture(&[Member::META]).await;
    let db = &f.db;
    let ann = Member {
        handle: Some("h".into()),
        ..member("acme", "ann", "ann@x.io")
    };
    let bob = Member {
        handle: Some("h".into()),
        team: "blue".into(),
        ..member("acme", "bob", "bob@x.io")
    };
    db.put(&ann).await.unwrap();
    db.put(&bob).await.unwrap();
    // Ann joins blue, where `h` is Bob's: refused, nothing changes.
    let err = db
        .update(Member::update("acme", "ann").set_team("blue"))
        .await
        .unwrap_err();
    assert!(taken(&err, "handle", "h"), "{err:?}");
    let stored = db.get(Member::key("acme", "ann").unwrap()).await.unwrap();
    assert_eq!(stored.unwrap().team, "red");
    // Ann joins green: her `h` moves there, and red's `h` is free.
    db.update(Member::update("acme", "ann").set_team("green"))
        .await
        .unwrap();
    let cat = Member {
        handle: Some("h".into()),
        ..member("acme", "cat", "cat@x.io")
    };
    db.put(&cat).await.unwrap();
    // An email change moves the email's guard within the tenant.
    db.update(Member::update("acme", "ann").set_email("ann2@x.io"))
        .await
        .unwrap();
    db.put(&member("acme", "dan", "ann@x.io")).await.unwrap();
    let handles: Vec<String> = guards(db)
        .await
        .into_iter()
        .filter(|g| g.contains("#handle@"))
        .collect();
    assert_eq!(
        handles,
        [
            "_UNIQUE#MEMBER#handle@team#3:red#h",
            "_UNIQUE#MEMBER#handle@team#4:blue#h",
            "_UNIQUE#MEMBER#handle@team#5:green#h",
        ]
    );
    // A put that changes the scope moves the guard too.
    db.put(&Member {
        team: "gold".into(),
        ..cat.clone()
    })
    .await
    .unwrap();
    assert!(guards(db)
        .await
        .contains(&"_UNIQUE#MEMBER#handle@team#4:gold#h".to_owned()));
    assert!(!guards(db)
        .await
        .contains(&"_UNIQUE#MEMBER#handle@team#3:red#h".to_owned()));
    // Removing the handle releases it.
    db.update(Member::update("acme", "ann").remove_handle())
        .await
        .unwrap();
    assert!(!guards(db).await.iter().any(|g| g.contains("green")));
}

#[tokio::test]
async fn transactions_keep_scoped_guards() {
    let f = fixture(&[Member::META]).await;
    let db = &f.db;
    db.transact_write()
        .put(&member("acme", "a", "a@x.io"))
        .put(&member("globex", "a", "a@x.io"))
        .await
        .unwrap();
    let err = db
        .transact_write()
        .put(&member("acme", "b", "b@x.io"))
        .put(&member("acme", "c", "a@x.io"))
        .await
        .unwrap_err();
    assert!(taken(&err, "email", "a@x.io"), "{err:?}");
    db.transact_write()
        .delete(Member::key("acme", "a").unwrap())
        .put(&member("acme", "c", "c@x.io"))
        .await
        .unwrap();
    db.put(&member("acme", "d", "a@x.io")).await.unwrap();
    assert_eq!(guards(db).await.len(), 3);
}
