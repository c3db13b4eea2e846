//! `#[dynamo(validate = ..)]`: every write path refuses an invalid value
//! with `Error::Invalid` naming the field, and sends nothing.

use dynakey::{Entity, Error};

use super::{fixture, scan, Account};

fn good() -> Account {
    Account {
        id: "a1".into(),
        email: "ann@example.com".into(),
        nick: Some("ann".into()),
        credit: 1,
        limit: 10,
    }
}

fn field_of(e: &Error) -> Option<&'static str> {
    match e {
        Error::Invalid { entity, field, .. } => {
            assert_eq!(*entity, "Account");
            *field
        }
        other => panic!("not Invalid: {other:?}"),
    }
}

#[tokio::test]
async fn put_refuses_each_validator_and_sends_nothing() {
    let f = fixture(&[Account::META]).await;
    let db = &f.db;
    let bad_email = Account {
        email: "ann".into(),
        ..good()
    };
    let err = db.put(&bad_email).await.unwrap_err();
    assert_eq!(field_of(&err), Some("email"));
    assert_eq!(err.to_string(), "invalid Account.email: \"ann\" has no @");
    let bad_nick = Account {
        nick: Some("much-too-long".into()),
        ..good()
    };
    assert_eq!(
        field_of(&db.put(&bad_nick).await.unwrap_err()),
        Some("nick")
    );
    let over = Account {
        credit: 11,
        ..good()
    };
    let err = db.put(&over).await.unwrap_err();
    assert_eq!(field_of(&err), None);
    assert_eq!(err.to_string(), "invalid Account: credit over the limit");
    assert!(scan(db).await.is_empty());
    // `None` is not validated; a valid value is written.
    db.put(&Account {
        nick: None,
        ..good()
    })
    .await
    .unwrap();
    assert_eq!(scan(db).await.len(), 1);
    assert!(good().validate().is_ok());
}

#[tokio::test]
async fn update_and_upsert_setters_validate_the_value_set() {
    let f = fixture(&[Account::META]).await;
    let db = &f.db;
    db.put(&good()).await.unwrap();
    let err = db
        .update(Account::update("a1").set_email("nobody"))
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("email"));
    let err = db
        .update(Account::update("a1").set_nick("far-too-long"))
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("nick"));
    let err = db
        .update(
            Account::upsert("a2")
                .set_email("x")
                .set_credit(0)
                .set_limit(1),
        )
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("email"));
    // Nothing changed, nothing created.
    let items = scan(db).await;
    assert_eq!(items.len(), 1);
    assert_eq!(
        db.get(Account::key("a1").unwrap()).await.unwrap(),
        Some(good())
    );
    // A valid update goes through; removing an optional field is not checked.
    db.update(Account::update("a1").set_email("a@b.c").remove_nick())
        .await
        .unwrap();
    let got = db.get(Account::key("a1").unwrap()).await.unwrap().unwrap();
    assert_eq!((got.email.as_str(), got.nick), ("a@b.c", None));
}

#[tokio::test]
async fn batch_transaction_and_move_validate_before_sending() {
    let f = fixture(&[Account::META]).await;
    let db = &f.db;
    let bad = Account {
        email: "bad".into(),
        id: "a9".into(),
        ..good()
    };
    // A batch refuses the whole batch before sending any of it.
    let err = db
        .batch_write()
        .put(&good())
        .put(&bad)
        .send()
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("email"));
    assert!(scan(db).await.is_empty());
    // A transaction: put and update alike.
    let err = db
        .transact_write()
        .put(&good())
        .put(&bad)
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("email"));
    let err = db
        .transact_write()
        .put(&good())
        .update(Account::update("a1").set_nick("way-too-long"))
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("nick"));
    assert!(scan(db).await.is_empty());
    // A move puts the new item: it is validated too.
    db.put(&good()).await.unwrap();
    let err = db
        .move_item(Account::key("a1").unwrap(), &bad)
        .await
        .unwrap_err();
    assert_eq!(field_of(&err), Some("email"));
    assert_eq!(scan(db).await.len(), 1);
}
