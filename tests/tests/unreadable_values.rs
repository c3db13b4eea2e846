//! What the reader cannot read is never written. A `time::Date` or an
//! `OffsetDateTime` whose UTC year is outside 0000–9999 has no fixed text
//! form (the key functions refuse it as `OutOfRange`): a put, an update's
//! setter, a batch and a transaction refuse it with
//! `EncodeError::Unwritable` naming the attribute, the value and why, and
//! send nothing — in a native key attribute, a plain one, inside a list or
//! inside an option. The extremes that have the form round-trip and sort.
//! On every backend.

use dynakey::prelude::*;
use dynakey::{Db, EncodeError, Error};
use time::macros::{date, datetime};
use time::{Date, Month, OffsetDateTime};
use uuid::Uuid;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SLOT")]
#[pk("SLOT#<id>")]
#[sk("SLOT")]
#[gsi("ByDay", pk(site), sk(day, at))]
struct Slot {
    id: u32,
    site: String,
    day: Date,
    at: OffsetDateTime,
    history: Vec<Date>,
    window: [Date; 2],
    seen: Option<OffsetDateTime>,
}

fn year_minus_one() -> Date {
    Date::from_calendar_date(-1, Month::December, 31).unwrap()
}

/// Instants whose UTC year leaves 0000–9999 although their local one does
/// not (or not by much): the offset crosses the year boundary.
fn bad_instants() -> [OffsetDateTime; 3] {
    [
        // 10000-01-01T03:59Z in UTC.
        datetime!(9999-12-31 23:59 -04:00),
        // -0001-12-31T20:30Z in UTC.
        datetime!(0000-01-01 00:00 +03:30),
        year_minus_one().midnight().assume_utc(),
    ]
}

fn slot(id: u32) -> Slot {
    Slot {
        id,
        site: "oslo".into(),
        day: date!(2026 - 07 - 16),
        at: datetime!(2026-07-16 08:00 UTC),
        history: vec![date!(2026 - 01 - 01)],
        window: [date!(2026 - 01 - 01), date!(2026 - 12 - 31)],
        seen: None,
    }
}

async fn table() -> (dynakey::local::Backend, Db) {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("unreadable_{}", Uuid::new_v4().simple()));
    db.create_table(&[Slot::META]).await.unwrap();
    (backend, db)
}

/// `r` is the refusal of `attr`, naming the value and why.
fn refused<T: std::fmt::Debug>(r: Result<T, Error>, attr: &str, what: &str) {
    match r {
        Err(Error::Encode(EncodeError::Unwritable {
            attr: a,
            value,
            why,
        })) => {
            assert_eq!(a, attr, "{what}");
            assert!(!value.is_empty(), "{what}");
            assert!(why.contains("0000-9999"), "{what}: {why}");
        }
        other => panic!("{what}: expected a refusal of `{attr}`, got {other:?}"),
    }
}

/// The slots each put refuses, with the attribute named.
fn bad_slots() -> Vec<(Slot, &'static str)> {
    let mut out = vec![(
        Slot {
            day: year_minus_one(),
            ..slot(1)
        },
        "day",
    )];
    for (i, at) in bad_instants().into_iter().enumerate() {
        let i = i as u32;
        out.push((Slot { at, ..slot(10 + i) }, "at"));
        out.push((
            Slot {
                seen: Some(at),
                ..slot(20 + i)
            },
            "seen",
        ));
    }
    out.push((
        Slot {
            history: vec![date!(2026 - 01 - 01), year_minus_one()],
            ..slot(30)
        },
        "history[1]",
    ));
    out.push((
        Slot {
            window: [year_minus_one(), date!(2026 - 12 - 31)],
            ..slot(31)
        },
        "window[0]",
    ));
    out
}

async fn stored(db: &Db) -> usize {
    db.query(Slot::by_day_pk("oslo").unwrap())
        .all()
        .await
        .unwrap()
        .len()
}

#[tokio::test]
async fn puts_batches_and_transactions_refuse_what_cannot_be_read_back() {
    let (_b, db) = table().await;
    for (s, attr) in bad_slots() {
        let what = format!("{s:?}");
        refused(s.to_item().map_err(Error::from), attr, &what);
        refused(db.put(&s).await, attr, &what);
        refused(
            db.batch_write().put(&slot(99)).put(&s).send().await,
            attr,
            &what,
        );
        refused(
            db.transact_write().put(&slot(98)).put(&s).send().await,
            attr,
            &what,
        );
        assert_eq!(db.get(s.item_key().unwrap()).await.unwrap(), None, "{what}");
    }
    // Nothing of any of them was sent, the good items beside them neither.
    assert_eq!(stored(&db).await, 0);
}

#[tokio::test]
async fn update_setters_refuse_what_cannot_be_read_back() {
    let (_b, db) = table().await;
    let s = slot(1);
    db.put(&s).await.unwrap();
    refused(
        db.update(Slot::update(1).set_day(year_minus_one())).await,
        "day",
        "set_day",
    );
    for at in bad_instants() {
        refused(db.update(Slot::update(1).set_at(at)).await, "at", "set_at");
        refused(
            db.update(Slot::update(1).set_seen(Some(at))).await,
            "seen",
            "set_seen",
        );
        refused(
            db.transact_write()
                .update(Slot::update(1).set_at(at))
                .send()
                .await,
            "at",
            "a transaction's update",
        );
    }
    refused(
        db.update(Slot::update(1).set_history(vec![year_minus_one()]))
            .await,
        "history[0]",
        "set_history",
    );
    // The item is as it was, and still reads.
    assert_eq!(db.get(Slot::key(1).unwrap()).await.unwrap(), Some(s));
}

#[tokio::test]
async fn the_extreme_dates_and_instants_round_trip_in_index_order() {
    let (_b, db) = table().await;
    let low = Slot {
        day: date!(0000 - 01 - 01),
        at: datetime!(0000-01-01 00:00 UTC),
        history: vec![date!(0000 - 01 - 01), date!(9999 - 12 - 31)],
        seen: Some(datetime!(0000-01-01 01:00 +01:00)),
        ..slot(1)
    };
    let high = Slot {
        day: date!(9999 - 12 - 31),
        at: datetime!(9999-12-31 23:59:59.999999999 UTC),
        seen: Some(datetime!(9999-12-31 18:59:59.999999999 -05:00)),
        ..slot(2)
    };
    db.put(&high).await.unwrap();
    db.put(&low).await.unwrap();
    let back = |s: &Slot| {
        let db = db.clone();
        let k = s.item_key().unwrap();
        async move { db.get(k).await.unwrap().unwrap() }
    };
    for s in [&low, &high] {
        let got = back(s).await;
        assert_eq!((got.day, got.at, &got.history), (s.day, s.at, &s.history));
        // The same instant, read back in UTC.
        assert_eq!(got.seen, s.seen);
    }
    let ids: Vec<u32> = db
        .query(Slot::by_day_pk("oslo").unwrap())
        .all()
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids, [1, 2]);
    // Updates to the extremes are written too.
    db.update(Slot::update(1).set_at(datetime!(9999-12-31 23:59:59.999999999 UTC)))
        .await
        .unwrap();
    assert_eq!(
        back(&low).await.at,
        datetime!(9999-12-31 23:59:59.999999999 UTC)
    );
}
