//! What errors say and keep: refusals before sending apart from DynamoDB's
//! answers, the SDK error kept as the source of the answers dynakey types,
//! wrapping variants transparent (no message printed twice in a chain),
//! and messages that locate the problem.

use std::error::Error as _;

use dynakey::expr::{RawExpr, Update};
use dynakey::{Condition, Entity, Error};
use dynakey_tests::notes::{stray_item, Note, UserItem};

use super::{fixture, note};

/// Every message of an error's chain, as a reporter prints them.
fn chain(e: &Error) -> Vec<String> {
    let mut out = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        out.push(s.to_string());
        cur = s.source();
    }
    out
}

/// dynakey's own message repeats nothing its sources print. (The SDK's
/// errors repeat themselves below that: an operation error's source is
/// the exception it displays.)
fn printed_once(e: &Error) {
    let c = chain(e);
    for b in &c[1..] {
        assert!(!c[0].contains(b.as_str()), "{b:?} printed twice in {c:#?}");
    }
}

#[tokio::test]
async fn answers_keep_the_sdk_error_as_their_source() {
    let f = fixture().await;
    f.db.put(&note("ann", 1)).await.unwrap();
    // A failed condition.
    let err = f.db.put(&note("ann", 1)).if_not_exists().await.unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }), "{err:?}");
    assert!(err.is_condition_failed());
    assert!(err.source().is_some());
    printed_once(&err);
    // DynamoDB's ValidationException: updating a key attribute.
    let err =
        f.db.update_raw(
            Note::key("ann", 1).unwrap(),
            Update::new().set("pk", "USER#bob"),
        )
        .await
        .unwrap_err();
    let Error::Validation { message, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(!message.is_empty());
    assert!(err.source().is_some());
    printed_once(&err);
    // Anything else stays the SDK's error, transparently: its text is the
    // SDK error's, its source the SDK error's source.
    let err = f
        .local
        .db("no_such_table")
        .get(Note::key("ann", 1).unwrap())
        .await
        .unwrap_err();
    let Error::Sdk(inner) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(err.to_string(), inner.to_string());
    assert_eq!(
        err.source().map(ToString::to_string),
        inner.source().map(ToString::to_string)
    );
    printed_once(&err);
}

#[tokio::test]
async fn refusals_before_sending_are_not_validation_errors() {
    let f = fixture().await;
    let refused = |err: &Error, why: dynakey::RefusedReason| {
        assert!(
            matches!(err, Error::Refused { reason, .. } if *reason == why),
            "{err:?}"
        );
        assert!(err.source().is_none());
        assert!(
            err.to_string().starts_with("refused before sending: "),
            "{err}"
        );
    };
    // A raw placeholder without a value.
    let err =
        f.db.update_raw(
            Note::key("ann", 1).unwrap(),
            Update::raw(RawExpr::new("SET #a = :b").name("a", "text")),
        )
        .await
        .unwrap_err();
    refused(&err, dynakey::RefusedReason::InvalidExpression);
    assert!(err.to_string().contains(":b has no value"), "{err}");
    // IN with more than 100 values.
    let err =
        f.db.query(Note::pk("ann").unwrap())
            .filter(Condition::attr("id").is_in(0..101u32))
            .all()
            .await
            .unwrap_err();
    refused(&err, dynakey::RefusedReason::InvalidExpression);
    // An empty transaction.
    refused(
        &f.db.transact_write().await.unwrap_err(),
        dynakey::RefusedReason::ActionCount,
    );
    // Return values in a transaction.
    let err =
        f.db.transact_write()
            .put_with(&note("ann", 1), |p| p.return_old())
            .await
            .unwrap_err();
    refused(&err, dynakey::RefusedReason::Unsupported);
    assert!(
        err.to_string().contains("NOTE USER#ann / NOTE#000001"),
        "{err}"
    );
    // A key that cannot be formatted: transparent, nothing sent.
    let key_err = Note::key("ann", 1_000_000).unwrap_err();
    let err = Error::from(key_err.clone());
    assert_eq!(err.to_string(), key_err.to_string());
    assert!(err.source().is_none());
}

#[tokio::test]
async fn an_unknown_discriminator_names_the_item() {
    let f = fixture().await;
    f.db.client()
        .put_item()
        .table_name(f.db.table_name())
        .set_item(Some(stray_item("ann", "STRAY#1")))
        .send()
        .await
        .unwrap();
    let err =
        f.db.query(Note::pk("ann").unwrap())
            .of::<UserItem>()
            .all()
            .await
            .unwrap_err();
    let Error::UnknownDiscriminator { value, pk, sk } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (value.as_str(), pk.as_str(), sk.as_deref()),
        ("STRAY", "USER#ann", Some("STRAY#1"))
    );
    assert!(err.to_string().contains("USER#ann / STRAY#1"), "{err}");
}

#[test]
fn a_backend_that_cannot_start_is_a_backend_error() {
    let dir = std::env::temp_dir().join(format!("dynakey-missing-{}", uuid::Uuid::new_v4()));
    let err = dynakey::local::file(dir.join("no").join("such.db")).unwrap_err();
    assert!(matches!(err, Error::Backend { .. }), "{err:?}");
    assert!(err.to_string().contains("such.db"), "{err}");
}

#[tokio::test]
async fn a_decode_error_is_transparent() {
    let f = fixture().await;
    let mut item = note("ann", 1).to_item().unwrap();
    item.insert(
        "text".into(),
        aws_sdk_dynamodb::types::AttributeValue::N("1".into()),
    );
    f.db.client()
        .put_item()
        .table_name(f.db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let err = f.db.get(Note::key("ann", 1).unwrap()).await.unwrap_err();
    let Error::Decode(d) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(err.to_string(), d.to_string());
    assert!(err.source().is_none());
}

/// A closed port: the error names the endpoint and why, not only the
/// SDK's "dispatch failure", and keeps the SDK's error as its source.
#[tokio::test]
async fn an_unreachable_endpoint_is_named_with_the_reason() {
    // A loopback port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let endpoint = format!("http://127.0.0.1:{port}");
    let db = dynakey::Db::new(dynakey::local::client_for_endpoint(&endpoint), "notes");
    let err = db.get(Note::key("ann", 1).unwrap()).await.unwrap_err();
    let Error::Unreachable {
        endpoint: Some(named),
        reason,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(named, &endpoint);
    assert_eq!(reason, "connection refused");
    assert_eq!(
        err.to_string(),
        format!("could not reach {endpoint} (connection refused)")
    );
    assert!(
        chain(&err).iter().any(|m| m == "dispatch failure"),
        "{:?}",
        chain(&err)
    );
    printed_once(&err);
}
