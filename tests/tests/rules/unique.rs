//! `#[dynamo(unique)]`: guard items written in the same transaction as the
//! item. Two concurrent sign-ups with one email: exactly one wins; a
//! changed email frees the old one; a deleted user frees theirs.

use dynakey::rules::unique::{guard_key, GUARD};
use dynakey::{Entity, Error};

use super::{fixture, scan, User};

fn user(id: &str, email: &str) -> User {
    User {
        id: id.into(),
        email: email.into(),
        handle: None,
        name: id.to_uppercase(),
    }
}

/// The guards in the table, as (attribute, value), sorted.
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
    matches!(e, Error::Unique { entity: "User", field: f, value: v } if *f == field && v == value)
}

#[tokio::test]
async fn concurrent_sign_ups_with_one_email_one_wins() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    for round in 0..5 {
        let email = format!("same{round}@example.com");
        let tasks: Vec<_> = (0..4)
            .map(|n| {
                let db = db.clone();
                let u = user(&format!("u{round}-{n}"), &email);
                tokio::spawn(async move { db.put(&u).if_not_exists().await })
            })
            .collect();
        let mut won = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(_) => won += 1,
                Err(e) => assert!(
                    taken(&e, "email", &email) || matches!(e, Error::TransactionCanceled { .. }),
                    "{e:?}"
                ),
            }
        }
        assert_eq!(won, 1, "round {round}");
    }
    let items = scan(db).await;
    assert_eq!(items.len(), 10, "5 users and their 5 guards");
    assert_eq!(guards(db).await.len(), 5);
}

#[tokio::test]
async fn a_taken_value_is_refused_and_nothing_is_written() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    db.put(&user("ann", "a@x.io")).await.unwrap();
    let err = db.put(&user("bob", "a@x.io")).await.unwrap_err();
    assert!(taken(&err, "email", "a@x.io"), "{err:?}");
    assert_eq!(err.to_string(), "User.email \"a@x.io\" is already taken");
    assert!(db.get(User::key("bob").unwrap()).await.unwrap().is_none());
    // Putting the same user again (same value) is fine; the guard stays one.
    db.put(&User {
        name: "Ann".into(),
        ..user("ann", "a@x.io")
    })
    .await
    .unwrap();
    assert_eq!(guards(db).await, ["_UNIQUE#USER#email#a@x.io"]);
    // An optional unique field: `None` holds no guard, a value does.
    let with_handle = User {
        handle: Some("annie".into()),
        ..user("ann", "a@x.io")
    };
    db.put(&with_handle).await.unwrap();
    let err = db
        .update(User::update("bob2").set_handle("annie"))
        .await
        .unwrap_err();
    // A patch of a missing user fails its own condition, not the guard's.
    assert!(matches!(err, Error::ConditionFailed { .. }), "{err:?}");
    db.put(&user("bob", "b@x.io")).await.unwrap();
    let err = db
        .update(User::update("bob").set_handle("annie"))
        .await
        .unwrap_err();
    assert!(taken(&err, "handle", "annie"), "{err:?}");
    // Validation comes first: an invalid value is refused before any read.
    let err = db.put(&user("cat", "nope")).await.unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }));
    assert_eq!(guards(db).await.len(), 3);
}

#[tokio::test]
async fn a_changed_email_frees_the_old_one() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    db.put(&user("ann", "old@x.io")).await.unwrap();
    // By update.
    db.update(User::update("ann").set_email("new@x.io"))
        .await
        .unwrap();
    assert_eq!(guards(db).await, ["_UNIQUE#USER#email#new@x.io"]);
    db.put(&user("bob", "old@x.io")).await.unwrap();
    let err = db
        .update(User::update("ann").set_email("old@x.io"))
        .await
        .unwrap_err();
    assert!(taken(&err, "email", "old@x.io"));
    let ann = db.get(User::key("ann").unwrap()).await.unwrap().unwrap();
    assert_eq!(ann.email, "new@x.io", "a refused update changes nothing");
    // By put over the existing item.
    db.put(&user("ann", "third@x.io")).await.unwrap();
    db.put(&user("cat", "new@x.io")).await.unwrap();
    assert_eq!(
        guards(db).await,
        [
            "_UNIQUE#USER#email#new@x.io",
            "_UNIQUE#USER#email#old@x.io",
            "_UNIQUE#USER#email#third@x.io"
        ]
    );
    // An upsert creates its guard; removing an optional value frees it.
    db.update(
        User::upsert("dan")
            .set_email("dan@x.io")
            .set_name("Dan")
            .set_handle("dd"),
    )
    .await
    .unwrap();
    assert!(guards(db)
        .await
        .contains(&"_UNIQUE#USER#handle#dd".to_owned()));
    let before = db
        .update(User::update("dan").remove_handle())
        .return_old()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(before.handle.as_deref(), Some("dd"));
    assert!(!guards(db)
        .await
        .contains(&"_UNIQUE#USER#handle#dd".to_owned()));
}

#[tokio::test]
async fn a_deleted_user_frees_theirs() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    db.put(&User {
        handle: Some("h".into()),
        ..user("ann", "a@x.io")
    })
    .await
    .unwrap();
    let old = db
        .delete(User::key("ann").unwrap())
        .return_old()
        .await
        .unwrap();
    assert_eq!(old.unwrap().email, "a@x.io");
    assert!(
        scan(db).await.is_empty(),
        "the item and both guards are gone"
    );
    db.put(&user("bob", "a@x.io")).await.unwrap();
    // A delete with a failing condition deletes nothing, guards included.
    let err = db
        .delete(User::key("bob").unwrap())
        .condition(User::attrs().name.eq("nobody"))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }), "{err:?}");
    assert_eq!(scan(db).await.len(), 2);
    // Deleting a missing user is fine.
    db.delete(User::key("zed").unwrap()).await.unwrap();
    assert_eq!(
        guard_key(User::META, "email", "v")["pk"].as_s().unwrap(),
        "_UNIQUE#USER#email#v"
    );
}

#[tokio::test]
async fn batches_and_moves_refuse_unique_entities() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    let refused = |e: Error| {
        assert!(
            matches!(
                e,
                Error::Refused {
                    reason: dynakey::RefusedReason::Unsupported,
                    ..
                }
            ),
            "{e:?}"
        )
    };
    refused(
        db.batch_write()
            .put(&user("a", "a@x.io"))
            .send()
            .await
            .unwrap_err(),
    );
    refused(
        db.batch_write()
            .delete(User::key("a").unwrap())
            .send()
            .await
            .unwrap_err(),
    );
    db.put(&user("a", "a@x.io")).await.unwrap();
    refused(
        db.move_item(User::key("a").unwrap(), &user("b", "a@x.io"))
            .await
            .unwrap_err(),
    );
}

#[tokio::test]
async fn transactions_keep_the_guards() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    // Two sign-ups in one transaction: two guards.
    db.transact_write()
        .put(&user("a", "a@x.io"))
        .put(&user("b", "b@x.io"))
        .await
        .unwrap();
    assert_eq!(
        guards(db).await,
        ["_UNIQUE#USER#email#a@x.io", "_UNIQUE#USER#email#b@x.io"]
    );
    // A taken value cancels the whole transaction, as Error::Unique.
    let err = db
        .transact_write()
        .put(&user("c", "c@x.io"))
        .put(&user("d", "a@x.io"))
        .await
        .unwrap_err();
    assert!(taken(&err, "email", "a@x.io"), "{err:?}");
    assert!(db.get(User::key("c").unwrap()).await.unwrap().is_none());
    // An update that changes the value moves the guard; a delete frees it;
    // an update of other fields needs no guard.
    db.transact_write()
        .update(User::update("a").set_email("a2@x.io"))
        .delete(User::key("b").unwrap())
        .await
        .unwrap();
    assert_eq!(guards(db).await, ["_UNIQUE#USER#email#a2@x.io"]);
    db.transact_write()
        .update(User::update("a").set_name("A"))
        .put(&user("e", "a@x.io"))
        .await
        .unwrap();
    assert_eq!(scan(db).await.len(), 4, "a, e and their guards");
}

/// What a guard costs: sequential puts and email changes of users with and
/// without a unique field, timed (`cargo test -p dynakey-tests --test rules
/// -- --ignored --nocapture`).
#[tokio::test]
#[ignore = "a measurement, not a check"]
async fn measure_guarded_writes() {
    use super::Account;
    let f = fixture(&[User::META, Account::META]).await;
    let db = &f.db;
    let n = 200;
    let t = std::time::Instant::now();
    for i in 0..n {
        db.put(&super::Account {
            id: format!("a{i}"),
            email: format!("a{i}@x.io"),
            nick: None,
            credit: 0,
            limit: 1,
        })
        .await
        .unwrap();
    }
    let plain = t.elapsed();
    let t = std::time::Instant::now();
    for i in 0..n {
        db.put(&user(&format!("u{i}"), &format!("u{i}@x.io")))
            .await
            .unwrap();
    }
    let guarded = t.elapsed();
    let t = std::time::Instant::now();
    for i in 0..n {
        db.update(User::update(format!("u{i}")).set_email(format!("v{i}@x.io")))
            .await
            .unwrap();
    }
    let moved = t.elapsed();
    let per = |d: std::time::Duration| d.as_secs_f64() * 1000.0 / f64::from(n);
    println!(
        "{n} puts: plain {:.2} ms each, unique {:.2} ms each; unique email change by update {:.2} ms each",
        per(plain),
        per(guarded),
        per(moved)
    );
}

#[tokio::test]
async fn a_patch_moves_a_unique_value_and_keeps_the_rules_of_a_put() {
    let f = fixture(&[User::META]).await;
    let db = &f.db;
    db.put(&user("ann", "old@x.io")).await.unwrap();
    db.put(&user("bob", "bob@x.io")).await.unwrap();
    let patched = db
        .patch(User::key("ann").unwrap(), |u| u.email = "new@x.io".into())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(patched.email, "new@x.io");
    assert_eq!(
        guards(db).await,
        ["_UNIQUE#USER#email#bob@x.io", "_UNIQUE#USER#email#new@x.io"]
    );
    // A value taken is refused (not retried), and nothing changes.
    let err = db
        .patch(User::key("ann").unwrap(), |u| u.email = "bob@x.io".into())
        .await
        .unwrap_err();
    assert!(taken(&err, "email", "bob@x.io"), "{err:?}");
    // The field's validator runs on the changed item, as on a put.
    let err = db
        .patch(User::key("ann").unwrap(), |u| u.email = "nobody".into())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }), "{err:?}");
    let ann = db.get(User::key("ann").unwrap()).await.unwrap().unwrap();
    assert_eq!(ann, user("ann", "new@x.io"));
}
