//! Throttling as typed errors: each of DynamoDB's 16 documented
//! `ThrottlingReasons`, injected at the HTTP layer (emulators never
//! throttle) on get, put, query, batch write, batch get and both
//! transactions, surfaces with its reason and its table or index, on the
//! embedded engine and on the server `DYNAKEY_ENDPOINT` names.
//!
//! A control-plane operation (DescribeTable here) carries the reasons
//! too, read from the response body since its SDK error type has no
//! throttling exception.
//!
//! The matrix runs with the SDK's retries off and one batch attempt, so
//! one request meets one throttle; one test runs through the SDK's
//! standard retry (which retries every throttling exception alike) until
//! it gives up.

use std::time::Duration;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use dynakey::fault::{resource_arn, FaultConfig, FaultInjector, ThrottleException, ThrottleFault};
use dynakey::{Db, Entity, Error, Throttle, ThrottleReason, ThrottledOn};
use dynakey_tests::fixture::faulty_with;
use dynakey_tests::notes::Note;

use super::{fixture, note, Fixture};

/// An injector that throttles every data request with `fault`.
fn throttling(fault: ThrottleFault) -> FaultInjector {
    FaultInjector::new(FaultConfig {
        throttle_rate: 1.0,
        ..FaultConfig::default()
    })
    .throttle_with(fault)
}

/// The table's ARN for a table reason, GSI1's for an index reason.
fn arn_for(f: &Fixture, reason: &ThrottleReason) -> String {
    let index = match reason {
        ThrottleReason::Documented {
            on: ThrottledOn::Index,
            ..
        } => Some("GSI1"),
        _ => None,
    };
    resource_arn(f.db.table_name(), index)
}

/// The reasons of a throttled single request, with its operation.
fn throttled(r: Result<impl std::fmt::Debug, Error>, op: &str) -> Vec<Throttle> {
    match r {
        Err(Error::Throttled {
            operation,
            reasons,
            attempts,
            ..
        }) => {
            assert_eq!((operation, attempts), (op, 1));
            reasons
        }
        other => panic!("{op}: not a throttle: {other:?}"),
    }
}

/// Every operation of the matrix against `db`, each answered with the
/// throttle: what each one reports.
async fn every_operation(db: &Db) -> Vec<(&'static str, Vec<Throttle>)> {
    let key = || Note::key("ann", 1).unwrap();
    let mut out = vec![
        ("GetItem", throttled(db.get(key()).await, "GetItem")),
        (
            "PutItem",
            throttled(db.put(&note("ann", 1)).await, "PutItem"),
        ),
        (
            "Query",
            throttled(db.query(Note::pk("ann").unwrap()).all().await, "Query"),
        ),
        (
            "TransactWriteItems",
            throttled(
                db.transact_write().put(&note("ann", 2)).send().await,
                "TransactWriteItems",
            ),
        ),
        (
            "TransactGetItems",
            throttled(
                db.transact_get().get(key()).send().await,
                "TransactGetItems",
            ),
        ),
    ];
    // A batch hands back what it could not write or read, with the
    // reasons of the call whose retries ran out.
    let err = db
        .batch_write()
        .put(&note("ann", 3))
        .send()
        .await
        .unwrap_err();
    let Error::BatchIncomplete(o) = &err else {
        panic!("{err:?}")
    };
    assert_eq!((o.written, o.unprocessed.len()), (0, 1));
    assert_eq!(err.throttles(), o.throttled.as_slice());
    out.push(("BatchWriteItem", o.throttled.clone()));
    let got = db.batch_get([key()]).send().await.unwrap();
    assert_eq!(got.unprocessed.len(), 1);
    out.push(("BatchGetItem", got.throttled));
    out
}

#[tokio::test]
async fn each_documented_reason_surfaces_typed_on_every_operation() {
    let f = fixture().await;
    let reasons: Vec<ThrottleReason> = ThrottleReason::all().collect();
    assert_eq!(reasons.len(), 16);
    for reason in reasons {
        let arn = arn_for(&f, &reason);
        let inj = throttling(ThrottleFault::new(reason.clone(), &arn));
        let db = faulty_with(&f, &inj, 1);
        let want = vec![Throttle::new(&reason.to_string(), Some(&arn))];
        for (op, got) in every_operation(&db).await {
            assert_eq!(got, want, "{reason} on {op}");
            let r = &got[0];
            assert_eq!(r.reason.limit(), reason.limit());
            let resource = r.resource.as_ref().unwrap();
            assert_eq!(resource.table.as_deref(), Some(f.db.table_name()));
            let on_index = matches!(
                reason,
                ThrottleReason::Documented {
                    on: ThrottledOn::Index,
                    ..
                }
            );
            assert_eq!(resource.index.as_deref(), on_index.then_some("GSI1"));
        }
        assert_eq!(inj.stats().throttled, 7, "{reason}");
    }
    // Nothing reached the table.
    assert_eq!(f.db.scan::<Note>().count().await.unwrap(), 0);
}

#[tokio::test]
async fn every_exception_carries_its_reasons_and_unknown_ones_are_kept() {
    let f = fixture().await;
    let hot = ThrottleReason::parse("TableWriteKeyRangeThroughputExceeded");
    let index_hot = ThrottleReason::parse("IndexWriteKeyRangeThroughputExceeded");
    let table = resource_arn(f.db.table_name(), None);
    let gsi = resource_arn(f.db.table_name(), Some("GSI1"));
    for exception in ThrottleException::ALL {
        // Two reasons of one write: the table's and its index's.
        let fault = ThrottleFault::new(hot.clone(), &table)
            .and(index_hot.clone(), &gsi)
            .exception_as(exception)
            .on(&["PutItem"]);
        let inj = throttling(fault);
        let db = faulty_with(&f, &inj, 1);
        let err = db.put(&note("ann", 1)).await.unwrap_err();
        let source = std::error::Error::source(&err).unwrap();
        assert!(
            format!("{source:?}").contains(exception.code()),
            "{source:?}"
        );
        assert_eq!(
            err.throttles(),
            [
                Throttle::new(&hot.to_string(), Some(&table)),
                Throttle::new(&index_hot.to_string(), Some(&gsi)),
            ],
            "{exception:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "throttled after 1 attempt(s): TableWriteKeyRangeThroughputExceeded on table {t}; IndexWriteKeyRangeThroughputExceeded on index GSI1 of table {t}",
                t = f.db.table_name()
            )
        );
        // Only PutItem is throttled.
        assert!(db.get(Note::key("ann", 1).unwrap()).await.is_ok());

        // A control-plane operation, whose SDK error type does not model
        // the throttling exceptions: the reasons come from the body.
        let at_max = ThrottleReason::parse("TableReadMaxOnDemandThroughputExceeded");
        let fault = ThrottleFault::new(at_max.clone(), &table)
            .exception_as(exception)
            .on(&["DescribeTable"]);
        let inj = throttling(fault);
        let db = faulty_with(&f, &inj, 1);
        let err = db.verify_table(&[Note::META]).await.unwrap_err();
        assert_eq!(
            throttled(Err::<(), _>(err), "DescribeTable"),
            [Throttle::new(&at_max.to_string(), Some(&table))],
            "{exception:?}"
        );
    }
    let new = ThrottleReason::parse("TableReadSomethingAddedLater");
    let inj = throttling(ThrottleFault::new(new.clone(), &table));
    let db = faulty_with(&f, &inj, 1);
    let err = db.get(Note::key("ann", 1).unwrap()).await.unwrap_err();
    assert_eq!(
        err.throttles()[0].reason,
        ThrottleReason::Unknown("TableReadSomethingAddedLater".into())
    );
    assert_eq!(err.throttles()[0].reason.limit(), None);
}

#[tokio::test]
async fn after_the_sdks_own_retries_the_last_attempts_reasons_come_back() {
    let f = fixture().await;
    let at_max = ThrottleReason::parse("IndexReadMaxOnDemandThroughputExceeded");
    let gsi = resource_arn(f.db.table_name(), Some("GSI1"));
    let inj = throttling(ThrottleFault::new(at_max.clone(), &gsi).on(&["Query"]));
    let conf = f
        .local
        .config_builder()
        .http_client(inj.wrap(f.local.http_client()))
        .retry_config(
            RetryConfig::standard()
                .with_max_attempts(3)
                .with_initial_backoff(Duration::from_millis(1))
                .with_max_backoff(Duration::from_millis(5)),
        )
        .build();
    let db = Db::new(aws_sdk_dynamodb::Client::from_conf(conf), f.db.table_name());
    let err = db
        .query(Note::gsi1_pk("red").unwrap())
        .all()
        .await
        .unwrap_err();
    let Error::Throttled {
        attempts,
        operation,
        reasons,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    // The SDK retried the ThrottlingException twice, then gave up.
    assert_eq!((*attempts, *operation), (3, "Query"));
    assert_eq!(inj.stats().throttled, 3);
    assert_eq!(reasons, &[Throttle::new(&at_max.to_string(), Some(&gsi))]);
    assert!(reasons[0]
        .reason
        .limit()
        .unwrap()
        .advice()
        .contains("on-demand maximum"));
}
