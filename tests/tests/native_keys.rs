//! Derived entities with native index keys, on every backend: every key
//! type (a string, a unit enum, a date, a negative integer, an instant, a
//! uuid, bytes, a decimal) and every query form compared with an in-memory
//! model — each leading run of sort attributes by equality with each range
//! on the next (`lt`, `le`, `gt`, `ge`, `between`, `begins_with` on text and
//! bytes), ascending and descending, in pages through cursors, counted,
//! keys only, as a union of two entities sharing the index, merged across
//! partitions, and a sparse `KEYS_ONLY` index read through `hydrate`.

use std::collections::BTreeSet;

use dynakey::key::CondResult;
use dynakey::{Blob, Db, DynamoEntity, DynamoTable, DynamoUnion, DynamoValue, Global};
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    Gold,
    #[dynamo(rename = "silver plus")]
    SilverPlus,
    Bronze,
}

/// Every key type: `ByDay` over a string and a unit enum, sorted by a
/// date, a signed integer and an instant; `ByOwner` sparse by absence over
/// a uuid, sorted by bytes and a decimal, projecting keys only.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EVENT")]
#[pk("EVENT#<id>")]
#[sk("EVENT")]
#[gsi("ByDay", pk(site, tier), sk(day, amount, at))]
#[gsi("ByOwner", pk(owner), sk(blob, price), projection = "KEYS_ONLY")]
struct Event {
    id: u32,
    site: String,
    tier: Tier,
    day: Date,
    amount: i64,
    at: OffsetDateTime,
    owner: Option<Uuid>,
    blob: Blob,
    price: Decimal,
}

/// Another entity on `ByDay`, with the same attributes: one partition of
/// the index holds both, in one order.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ALERT")]
#[pk("ALERT#<id>")]
#[sk("ALERT")]
#[gsi("ByDay", pk(site, tier), sk(day, amount, at))]
struct Alert {
    id: u32,
    site: String,
    tier: Tier,
    day: Date,
    amount: i64,
    at: OffsetDateTime,
    text: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Event, Alert))]
struct Feeds;

#[derive(DynamoUnion, Debug, Clone, PartialEq)]
enum Feed {
    Event(Event),
    Alert(Alert),
}

const DAYS: [Date; 4] = [
    date!(2025 - 12 - 31),
    date!(2026 - 01 - 01),
    date!(2026 - 07 - 16),
    date!(2026 - 07 - 17),
];
const AMOUNTS: [i64; 7] = [i64::MIN, -100, -2, 0, 3, 20, i64::MAX];
const ATS: [OffsetDateTime; 4] = [
    datetime!(2026-07-16 08:00 UTC),
    // Earlier in UTC than it reads: the stored form is UTC.
    datetime!(2026-07-16 09:30 +02:00),
    datetime!(2026-07-16 08:00:00.000000001 UTC),
    datetime!(2026-07-17 00:00 UTC),
];
const OWNERS: [Uuid; 2] = [Uuid::from_u128(7), Uuid::max()];
const BLOBS: [&[u8]; 4] = [&[0], &[0, 0], &[0x7f], &[0x80, 1]];

/// 48 events over two sites and two tiers, with every value repeated.
fn events() -> Vec<Event> {
    (0..48u32)
        .map(|i| {
            let n = i as usize;
            Event {
                id: i,
                site: ["oslo", "a b#c"][n % 2].to_owned(),
                tier: [Tier::Gold, Tier::SilverPlus][n / 2 % 2],
                day: DAYS[n * 7 % 4],
                amount: AMOUNTS[n * 5 % 7],
                at: ATS[n * 3 % 4],
                owner: (!n.is_multiple_of(3)).then(|| OWNERS[n % 2]),
                blob: Blob::new(BLOBS[n * 5 % 4].to_vec()),
                price: Decimal::new([-150, -15, 0, 15, 1500][n % 5], 1 + (n % 2) as u32),
            }
        })
        .collect()
}

fn alerts() -> Vec<Alert> {
    (0..6u32)
        .map(|i| Alert {
            id: 100 + i,
            site: "oslo".into(),
            tier: Tier::Gold,
            day: DAYS[i as usize % 4],
            amount: AMOUNTS[i as usize % 7],
            at: ATS[0],
            text: format!("alert {i}"),
        })
        .collect()
}

/// The model's order of `ByDay`: date, amount and instant by value.
fn by_day(e: &Event) -> (Date, i64, OffsetDateTime) {
    (e.day, e.amount, e.at)
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Between,
    Prefix,
}

const OPS: [Op; 7] = [
    Op::Eq,
    Op::Lt,
    Op::Le,
    Op::Gt,
    Op::Ge,
    Op::Between,
    Op::Prefix,
];

/// Whether `v` passes `op` against `a` (and `b` for between); `prefix` is
/// the model of `begins_with`, `None` where the type has none.
fn passes<T: PartialOrd>(v: T, op: Op, a: T, b: T, prefix: Option<bool>) -> bool {
    match op {
        Op::Eq => true,
        Op::Lt => v < a,
        Op::Le => v <= a,
        Op::Gt => v > a,
        Op::Ge => v >= a,
        Op::Between => a <= v && v <= b,
        Op::Prefix => prefix.unwrap_or(true),
    }
}

/// The `ByDay` condition: the first `depth` attributes fixed to `f`'s,
/// then `op` on the next with `a`'s (and `b`'s) value.
fn day_cond(depth: usize, op: Op, f: &Event, a: &Event, b: &Event) -> CondResult<Event, Global> {
    let s0 = Event::by_day_sk();
    match depth {
        0 => match op {
            Op::Eq => s0.eq(),
            Op::Lt => s0.lt(a.day),
            Op::Le => s0.le(a.day),
            Op::Gt => s0.gt(a.day),
            Op::Ge => s0.ge(a.day),
            Op::Between => s0.between(a.day, b.day),
            // A date's text prefix: the month.
            Op::Prefix => s0.begins_with(&a.day.to_string()[..7]),
        },
        1 => {
            let s1 = s0.day(f.day);
            match op {
                Op::Eq | Op::Prefix => s1.eq(),
                Op::Lt => s1.lt(a.amount),
                Op::Le => s1.le(a.amount),
                Op::Gt => s1.gt(a.amount),
                Op::Ge => s1.ge(a.amount),
                Op::Between => s1.between(a.amount, b.amount),
            }
        }
        2 => {
            let s2 = s0.day(f.day).amount(f.amount);
            match op {
                Op::Eq => s2.eq(),
                Op::Lt => s2.lt(a.at),
                Op::Le => s2.le(a.at),
                Op::Gt => s2.gt(a.at),
                Op::Ge => s2.ge(a.at),
                Op::Between => s2.between(a.at, b.at),
                Op::Prefix => s2.begins_with("2026-07-16T08"),
            }
        }
        _ => s0.day(f.day).amount(f.amount).at(f.at).eq(),
    }
}

fn day_model(rows: &[Event], depth: usize, op: Op, f: &Event, a: &Event, b: &Event) -> Vec<Event> {
    let mut out: Vec<Event> = rows
        .iter()
        .filter(|r| r.site == f.site && r.tier == f.tier)
        .filter(|r| {
            let fixed = [r.day == f.day, r.amount == f.amount, r.at == f.at];
            fixed[..depth].iter().all(|x| *x)
        })
        .filter(|r| match depth {
            0 => passes(
                r.day,
                op,
                a.day,
                b.day,
                Some(r.day.to_string().starts_with(&a.day.to_string()[..7])),
            ),
            1 => passes(r.amount, op, a.amount, b.amount, None),
            2 => {
                let utc = r.at.to_offset(time::UtcOffset::UTC);
                let prefix = utc.date() == date!(2026 - 07 - 16) && utc.hour() == 8;
                passes(r.at, op, a.at, b.at, Some(prefix))
            }
            _ => true,
        })
        .cloned()
        .collect();
    out.sort_by_key(by_day);
    out
}

fn ids(v: &[Event]) -> BTreeSet<u32> {
    v.iter().map(|e| e.id).collect()
}

fn order(v: &[Event]) -> Vec<(Date, i64, OffsetDateTime)> {
    v.iter().map(by_day).collect()
}

async fn table(name: &str) -> (dynakey::local::Backend, Db) {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("{name}_{}", Uuid::new_v4().simple()));
    db.create_table(Feeds::ENTITIES).await.unwrap();
    for e in events() {
        db.put(&e).await.unwrap();
    }
    (backend, db)
}

#[tokio::test]
async fn every_by_day_condition_reads_what_the_model_reads() {
    let (_b, db) = table("native_by_day").await;
    let rows = events();
    let server = std::env::var_os("DYNAKEY_ENDPOINT").is_some();
    let mut checked = (0, 0);
    // Fixed rows from each partition; comparison values from others.
    let picks: &[usize] = if server { &[0, 5] } else { &[0, 5, 10, 19] };
    for &fi in picks {
        let f = &rows[fi];
        for depth in 0..=3 {
            for (k, op) in OPS.iter().enumerate() {
                if depth == 3 && k > 0 {
                    break;
                }
                let (a, b) = (&rows[(fi + 3 * k + 1) % 48], &rows[(fi + 7 * k + 4) % 48]);
                let cond = day_cond(depth, *op, f, a, b).unwrap();
                let want = day_model(&rows, depth, *op, f, a, b);
                let what = format!("depth {depth} {op:?} fixed {f:?} a {a:?} b {b:?}");
                let q = db
                    .query(Event::by_day_pk(f.site.as_str(), f.tier).unwrap())
                    .sk(cond);
                let got = q.all().await.unwrap();
                assert_eq!(order(&got), order(&want), "{what}");
                assert_eq!(ids(&got), ids(&want), "{what}");
                if !server || k == 0 {
                    let mut desc = q.clone().descending().all().await.unwrap();
                    desc.reverse();
                    assert_eq!(order(&desc), order(&want), "descending {what}");
                    assert_eq!(q.count().await.unwrap(), want.len() as u64, "{what}");
                }
                checked.0 += 1;
                checked.1 += usize::from(want.len() > 1);
            }
        }
    }
    assert!(
        checked.1 * 2 > checked.0,
        "{checked:?}: too many empty reads"
    );
}

#[tokio::test]
async fn pages_keys_unions_and_fan_out_follow_the_index_order() {
    let (_b, db) = table("native_pages").await;
    let rows = events();
    for a in alerts() {
        db.put(&a).await.unwrap();
    }
    let pk = || Event::by_day_pk("oslo", Tier::Gold).unwrap();
    let mut want: Vec<Event> = rows
        .iter()
        .filter(|r| r.site == "oslo" && r.tier == Tier::Gold)
        .cloned()
        .collect();
    want.sort_by_key(by_day);
    // Page by page: each page's cursor (which holds every native key
    // attribute) resumes right after its last item.
    let q = db.query(pk()).page_size(5);
    let (mut paged, mut cursor, mut pages) = (Vec::new(), None::<String>, 0);
    loop {
        let p = q.page(cursor.as_deref()).await.unwrap();
        assert!(p.items.len() <= 5);
        paged.extend(p.items);
        pages += 1;
        match p.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert!(pages >= 3, "{pages}");
    assert_eq!(order(&paged), order(&want));
    assert_eq!(ids(&paged), ids(&want));
    let keys = db.query(pk()).keys_only().all().await.unwrap();
    assert_eq!(keys.len(), want.len());
    // A union reads both entities of the partition in one order.
    let feed = db.query(pk()).of::<Feed>().all().await.unwrap();
    let key = |f: &Feed| match f {
        Feed::Event(e) => (e.day, e.amount, e.at),
        Feed::Alert(a) => (a.day, a.amount, a.at),
    };
    assert_eq!(feed.len(), want.len() + alerts().len());
    assert!(
        feed.windows(2).all(|w| key(&w[0]) <= key(&w[1])),
        "{feed:?}"
    );
    // Merged across the four partitions, negative amounts before positive.
    let parts = [
        ("oslo", Tier::Gold),
        ("oslo", Tier::SilverPlus),
        ("a b#c", Tier::Gold),
        ("a b#c", Tier::SilverPlus),
    ];
    let pks = parts.map(|(s, t)| Event::by_day_pk(s, t).unwrap());
    let cond = || {
        Event::by_day_sk()
            .day(DAYS[1])
            .between(-100i64, 20i64)
            .unwrap()
    };
    let merged = db
        .query_many(pks.clone())
        .sk(cond())
        .descending()
        .page_size(2)
        .all()
        .await
        .unwrap();
    let mut want: Vec<Event> = rows
        .iter()
        .filter(|r| r.day == DAYS[1] && (-100..=20).contains(&r.amount))
        .cloned()
        .collect();
    want.sort_by_key(by_day);
    want.reverse();
    assert!(want.len() >= 4, "{want:?}");
    assert_eq!(order(&merged), order(&want));
    assert_eq!(ids(&merged), ids(&want));
    assert_eq!(
        db.query_many(pks).sk(cond()).count().await.unwrap(),
        want.len() as u64
    );
}

#[tokio::test]
async fn a_sparse_keys_only_index_reads_through_hydrate_in_value_order() {
    let (_b, db) = table("native_owner").await;
    let rows = events();
    for owner in OWNERS {
        let mut want: Vec<&Event> = rows.iter().filter(|r| r.owner == Some(owner)).collect();
        want.sort_by(|a, b| (a.blob.as_ref(), a.price).cmp(&(b.blob.as_ref(), b.price)));
        let q = db.query(Event::by_owner_pk(owner).unwrap());
        let h = q.hydrate().await.unwrap();
        let got: Vec<(&[u8], Decimal)> =
            h.items.iter().map(|e| (e.blob.as_ref(), e.price)).collect();
        let exp: Vec<(&[u8], Decimal)> = want.iter().map(|e| (e.blob.as_ref(), e.price)).collect();
        assert_eq!(got, exp, "{owner}");
        assert!(h.missing.is_empty());
        // A bytes prefix, then a decimal range under a fixed blob.
        let p = q
            .clone()
            .sk(Event::by_owner_sk().begins_with([0u8]).unwrap())
            .keys_only()
            .all()
            .await
            .unwrap();
        let n = want
            .iter()
            .filter(|e| e.blob.as_ref().starts_with(&[0]))
            .count();
        assert_eq!(p.len(), n);
        let fixed = Event::by_owner_sk()
            .blob(Blob::new(vec![0x7f]))
            .lt(Decimal::new(0, 0));
        let neg = q.sk(fixed.unwrap()).keys_only().all().await.unwrap();
        let n = want
            .iter()
            .filter(|e| e.blob.as_ref() == [0x7f] && e.price < Decimal::ZERO)
            .count();
        assert_eq!(neg.len(), n);
    }
    // An event without an owner is in ByDay only; setting one takes it in,
    // removing it takes it out again (DynamoDB rebuilds the key itself).
    let lonely = rows.iter().find(|r| r.owner.is_none()).unwrap();
    let count = |o: Uuid| {
        let db = db.clone();
        async move {
            db.query(Event::by_owner_pk(o).unwrap())
                .count()
                .await
                .unwrap()
        }
    };
    let before = count(OWNERS[0]).await;
    db.update(Event::update(lonely.id).set_owner(Some(OWNERS[0])))
        .await
        .unwrap();
    assert_eq!(count(OWNERS[0]).await, before + 1);
    db.update(Event::update(lonely.id).remove_owner())
        .await
        .unwrap();
    assert_eq!(count(OWNERS[0]).await, before);
}

#[tokio::test]
async fn typed_updates_move_items_and_refuse_empty_keys() {
    let (_b, db) = table("native_update").await;
    let e = &events()[0];
    let pk = || Event::by_day_pk(e.site.as_str(), e.tier).unwrap();
    let at = |n: i64| Event::by_day_sk().day(e.day).amount(n).eq().unwrap();
    assert!(!db
        .query(pk())
        .sk(at(e.amount))
        .all()
        .await
        .unwrap()
        .is_empty());
    db.update(Event::update(e.id).set_amount(-12_345))
        .await
        .unwrap();
    let moved = db.query(pk()).sk(at(-12_345)).all().await.unwrap();
    assert_eq!(moved.iter().map(|x| x.id).collect::<Vec<_>>(), [e.id]);
    // An empty string in a native key attribute: refused before sending,
    // by an update as by a put, and nothing changes.
    let err = db
        .update(Event::update(e.id).set_site(String::new()))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, dynakey::Error::KeyFormat(k) if k.field == "site" && k.index == Some("ByDay")),
        "{err}"
    );
    let err = db
        .put(&Event {
            blob: Blob::new(vec![]),
            ..e.clone()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(&err, dynakey::Error::KeyFormat(k) if k.field == "blob"),
        "{err}"
    );
    assert_eq!(
        db.get(Event::key(e.id).unwrap())
            .await
            .unwrap()
            .unwrap()
            .amount,
        -12_345
    );
}

/// The table's snapshot (`tests/dynakey/Feeds.schema`) names each native
/// index's fields as the derive reads them back at expansion (drift checks
/// compare them), and it is current.
#[test]
fn the_schema_snapshot_of_native_indexes_is_current() {
    Feeds::check_schema().unwrap();
    let text = Feeds::schema();
    assert!(
        text.contains(
            "  index ByDay global native\n    native pk site tier\n    native sk day amount at\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  index ByOwner global native sparse\n    native pk owner\n    native sk blob price\n"
        ),
        "{text}"
    );
}
