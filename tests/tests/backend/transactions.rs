//! Write and get transactions across entity types.

use dynakey::expr::{RawExpr, Update};
use dynakey::{Condition, Entity, Error};
use dynakey_tests::notes::{Note, Profile};

use super::{fixture, note};

#[tokio::test]
async fn a_transaction_writes_across_types() {
    let f = fixture().await;
    f.db.put(&note("ann", 1)).await.unwrap();
    f.db.put(&note("ann", 2)).await.unwrap();
    let p = Profile {
        user: "ann".into(),
        name: "Ann".into(),
    };
    f.db.transact_write()
        .put_with(&p, |put| put.if_not_exists())
        .update_raw_with(
            Note::key("ann", 1).unwrap(),
            Update::raw(
                RawExpr::new("SET #t = :t")
                    .name("t", "text")
                    .value("t", "updated"),
            ),
            |u| u.condition(Condition::attr("text").eq("note 1")),
        )
        .delete(Note::key("ann", 2).unwrap())
        .check(
            Profile::key("bob").unwrap(),
            Condition::attr("pk").not_exists(),
        )
        .client_token("tok-1")
        .send()
        .await
        .unwrap();
    assert_eq!(
        f.db.get(Profile::key("ann").unwrap()).await.unwrap(),
        Some(p)
    );
    assert_eq!(
        f.db.get(Note::key("ann", 1).unwrap())
            .await
            .unwrap()
            .unwrap()
            .text,
        "updated"
    );
    assert_eq!(f.db.get(Note::key("ann", 2).unwrap()).await.unwrap(), None);
}

#[tokio::test]
async fn cancellation_names_the_failed_action_its_entity_and_key() {
    let f = fixture().await;
    f.db.put(&note("ann", 1)).await.unwrap();
    let err =
        f.db.transact_write()
            .put(&note("ann", 5))
            .check(
                Note::key("ann", 1).unwrap(),
                Condition::attr("text").eq("something else"),
            )
            .put_with(
                &Profile {
                    user: "ann".into(),
                    name: "A".into(),
                },
                |p| p.if_not_exists(),
            )
            .send()
            .await
            .unwrap_err();
    let Error::TransactionCanceled { reasons } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(reasons.len(), 3);
    assert_eq!(reasons[0].code, "None");
    assert_eq!(reasons[1].code, "ConditionalCheckFailed");
    assert_eq!(reasons[1].index, 1);
    assert_eq!(reasons[1].target.discriminator, "NOTE");
    assert_eq!(reasons[1].target.pk, "USER#ann");
    assert_eq!(reasons[1].target.sk.as_deref(), Some("NOTE#000001"));
    assert!(!reasons[2].failed());
    assert!(
        err.to_string().contains("NOTE USER#ann / NOTE#000001"),
        "{err}"
    );
    // Nothing was written.
    assert_eq!(f.db.get(Note::key("ann", 5).unwrap()).await.unwrap(), None);
}

#[tokio::test]
async fn more_than_100_actions_are_refused_before_sending() {
    let f = fixture().await;
    let mut tx = f.db.transact_write();
    for id in 0..101 {
        tx = tx.put(&note("ann", id));
    }
    let err = tx.send().await.unwrap_err();
    assert!(
        matches!(
            err,
            Error::Refused {
                reason: dynakey::RefusedReason::ActionCount,
                ..
            }
        ),
        "{err:?}"
    );
    let mut tx = f.db.transact_write();
    for id in 0..100 {
        tx = tx.put(&note("ann", id));
    }
    tx.send().await.unwrap();
    assert_eq!(
        f.db.query(Note::pk("ann").unwrap()).count().await.unwrap(),
        100
    );
}

#[tokio::test]
async fn transact_get_reads_several_types() {
    let f = fixture().await;
    f.db.put(&note("ann", 1)).await.unwrap();
    f.db.put(&Profile {
        user: "ann".into(),
        name: "Ann".into(),
    })
    .await
    .unwrap();
    let a = Note::key("ann", 1).unwrap();
    let b = Profile::key("ann").unwrap();
    let c = Note::key("ann", 9).unwrap();
    let tx =
        f.db.transact_get()
            .get(a.clone())
            .get(b.clone())
            .get(c.clone());
    let out = tx.send().await.unwrap();
    assert_eq!(out.get(&a).unwrap(), Some(note("ann", 1)));
    assert_eq!(out.get(&b).unwrap().unwrap().name, "Ann");
    assert_eq!(out.get(&c).unwrap(), None);
    assert!(out.raw(&a).is_some());
    // A key the transaction did not read has no item in it.
    assert!(out.raw(&Note::key("ann", 2).unwrap()).is_none());
}

#[tokio::test]
async fn move_changes_a_key_in_one_transaction() {
    let f = fixture().await;
    let n = note("ann", 1);
    f.db.put(&n).await.unwrap();
    let moved = Note {
        user: "bob".into(),
        ..n.clone()
    };
    f.db.move_item(n.item_key().unwrap(), &moved).await.unwrap();
    assert_eq!(f.db.get(Note::key("ann", 1).unwrap()).await.unwrap(), None);
    assert_eq!(
        f.db.get(Note::key("bob", 1).unwrap()).await.unwrap(),
        Some(moved.clone())
    );
    // Moving again fails: the source is gone.
    let err =
        f.db.move_item(n.item_key().unwrap(), &moved)
            .await
            .unwrap_err();
    assert!(matches!(err, Error::TransactionCanceled { .. }), "{err:?}");
}
