// clippy reads two `#[gsi(..)]` helper attributes with equal arguments as
// one attribute written twice (rust-clippy duplicated_attributes); they are
// two indexes.
#![allow(clippy::duplicated_attributes)]

//! The twelve reproductions of the soundness issue, each a test that failed
//! before the fix, on the embedded engine and on `DYNAKEY_ENDPOINT`.

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use dynakey::local::{self, Backend};
use dynakey::{Db, DynamoEntity, DynamoValue, Entity, Error, Item};
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

struct Fixture {
    local: Backend,
    db: Db,
}

async fn fixture(metas: &[&'static dynakey::EntityMeta]) -> Fixture {
    let local = local::from_env().expect("backend");
    let db = local.db(format!("snd_{}", Uuid::new_v4().simple()));
    db.create_table(metas).await.expect("create table");
    Fixture { local, db }
}

async fn raw(db: &Db, pk: &str, sk: &str) -> Option<Item> {
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key("pk", AttributeValue::S(pk.into()))
        .key("sk", AttributeValue::S(sk.into()))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
}

// ---------------------------------------------------------------- 1, 2

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SITE")]
#[pk("REGION#<region>")]
#[sk("CITY#<city>#<zip>")]
struct Site {
    region: String,
    city: String,
    zip: String,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "AREA")]
#[pk("AREA")]
#[sk("R-<region>-<n:d2>")]
struct Area {
    region: String,
    n: u8,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PART")]
#[pk("PART")]
#[sk("P.<sku>.<n:d2>")]
struct Part {
    sku: String,
    n: u8,
}

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    New,
    #[dynamo(rename = "New York")]
    NewYork,
    Newark,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EVENT")]
#[pk("STREAM#<stream>")]
#[sk("<day>#<at>#<kind>")]
struct Event {
    stream: String,
    day: Date,
    at: OffsetDateTime,
    kind: Kind,
}

fn cities(v: Vec<Site>) -> Vec<String> {
    v.into_iter().map(|s| s.city).collect()
}

/// 1. A character below the delimiter inside a field keeps value order.
#[tokio::test]
async fn order_holds_for_characters_below_the_delimiter() {
    let f = fixture(&[Site::META, Area::META, Part::META, Event::META]).await;
    let db = &f.db;
    for c in ["Ne", "New", "New York", "Newark"] {
        db.put(&Site {
            region: "us".into(),
            city: c.into(),
            zip: "1".into(),
        })
        .await
        .unwrap();
    }
    let q = |c| async move { cities(db.query(Site::pk("us").unwrap()).sk(c).all().await.unwrap()) };
    assert_eq!(
        q(Site::sk().gt("New").unwrap()).await,
        ["New York", "Newark"]
    );
    assert_eq!(q(Site::sk().le("New").unwrap()).await, ["Ne", "New"]);
    assert_eq!(
        q(Site::sk().between("A", "New").unwrap()).await,
        ["Ne", "New"]
    );
    assert_eq!(q(Site::sk().lt("New").unwrap()).await, ["Ne"]);
    assert_eq!(
        q(Site::sk().ge("New").unwrap()).await,
        ["New", "New York", "Newark"]
    );

    // `-` as the delimiter: regions `a` and `a,`.
    for r in ["a", "a,"] {
        db.put(&Area {
            region: r.into(),
            n: 1,
        })
        .await
        .unwrap();
    }
    let regions = |v: Vec<Area>| v.into_iter().map(|a| a.region).collect::<Vec<_>>();
    let le = db
        .query(Area::pk().unwrap())
        .sk(Area::sk().le("a").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(regions(le), ["a"]);
    let gt = db
        .query(Area::pk().unwrap())
        .sk(Area::sk().gt("a").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(regions(gt), ["a,"]);

    // `.` as the delimiter: `a-b` is above `a`.
    db.put(&Part {
        sku: "a-b".into(),
        n: 1,
    })
    .await
    .unwrap();
    let le = db
        .query(Part::pk().unwrap())
        .sk(Part::sk().le("a").unwrap())
        .all()
        .await
        .unwrap();
    assert!(le.is_empty(), "{le:?}");

    // A unit enum renamed `New York`.
    let day = date!(2026 - 07 - 16);
    let at = datetime!(2026-07-16 9:00 UTC);
    for kind in [Kind::New, Kind::NewYork, Kind::Newark] {
        db.put(&Event {
            stream: "s".into(),
            day,
            at,
            kind,
        })
        .await
        .unwrap();
    }
    let le = db
        .query(Event::pk("s").unwrap())
        .sk(Event::sk().day(day).at(at).le(Kind::New).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(le.iter().map(|e| e.kind).collect::<Vec<_>>(), [Kind::New]);
}

/// 2. A fixed field means that value; a text prefix is a call that says so.
#[tokio::test]
async fn fixing_every_field_means_equality() {
    let f = fixture(&[Site::META, Event::META]).await;
    let db = &f.db;
    for zip in ["1", "10"] {
        db.put(&Site {
            region: "us".into(),
            city: "a".into(),
            zip: zip.into(),
        })
        .await
        .unwrap();
    }
    let zips = |v: Vec<Site>| v.into_iter().map(|s| s.zip).collect::<Vec<_>>();
    let exact = db
        .query(Site::pk("us").unwrap())
        .sk(Site::sk().city("a").zip("1").begins_with().unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(zips(exact), ["1"]);
    let prefix = db
        .query(Site::pk("us").unwrap())
        .sk(Site::sk().city("a").zip_starts_with("1").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(zips(prefix), ["1", "10"]);

    let day = date!(2026 - 07 - 16);
    let at = datetime!(2026-07-16 9:00 UTC);
    for kind in [Kind::New, Kind::Newark] {
        db.put(&Event {
            stream: "s".into(),
            day,
            at,
            kind,
        })
        .await
        .unwrap();
    }
    let one = db
        .query(Event::pk("s").unwrap())
        .sk(Event::sk()
            .day(day)
            .at(at)
            .kind(Kind::New)
            .begins_with()
            .unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(one.iter().map(|e| e.kind).collect::<Vec<_>>(), [Kind::New]);

    // Reversed bounds select nothing (DynamoDB would refuse the request).
    let none = Site::sk().between("z", "a").unwrap();
    assert_eq!(none.op(), &dynakey::SortKeyOp::Empty);
    assert!(db
        .query(Site::pk("us").unwrap())
        .sk(none)
        .all()
        .await
        .unwrap()
        .is_empty());
}

// ---------------------------------------------------------------- 3

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "FILE")]
#[pk("FOLDER#<folder>")]
#[sk("DOC#<doc>")]
struct File {
    folder: String,
    doc: String,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "FILE_VERSION")]
#[pk("FOLDER#<folder>")]
#[sk("DOC#<doc>#<rev:d4>")]
struct FileVersion {
    folder: String,
    doc: String,
    rev: u32,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MEMBER")]
#[pk("ORG#<org>")]
#[sk("MEMBER#<user>")]
struct Member {
    org: String,
    user: String,
}

/// 3. One stored key, one (entity, key fields).
#[tokio::test]
async fn a_value_cannot_write_another_items_key() {
    let f = fixture(&[File::META, FileVersion::META, Member::META]).await;
    let db = &f.db;
    let v1 = FileVersion {
        folder: "f".into(),
        doc: "report".into(),
        rev: 1,
    };
    db.put(&v1).await.unwrap();
    let forged = File {
        folder: "f".into(),
        doc: "report#0001".into(),
    };
    db.put(&forged).await.unwrap();
    assert_eq!(db.get(v1.item_key().unwrap()).await.unwrap(), Some(v1));
    assert_eq!(
        db.get(forged.item_key().unwrap()).await.unwrap(),
        Some(forged)
    );

    let tenant = Member {
        org: "acme#PROJECT#web".into(),
        user: "eve".into(),
    };
    db.put(&tenant).await.unwrap();
    assert_eq!(tenant.item_key().unwrap().pk(), "ORG#acme%23PROJECT%23web");
    // The other tenant's partition is untouched and reads as its own type.
    let acme = db.query(Member::pk("acme").unwrap()).all().await.unwrap();
    assert!(acme.is_empty());
    assert_eq!(
        db.query(Member::pk("acme#PROJECT#web").unwrap())
            .all()
            .await
            .unwrap(),
        [tenant]
    );
}

// ---------------------------------------------------------------- 4, 5

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ITEM")]
#[pk("ITEM#<id>")]
#[sk("ITEM")]
#[gsi("GSI1", pk = "<owner>", sk = "ITEM#<id>")]
#[gsi("GSI2", pk = "CAT#<category>", sk = "ITEM#<id>")]
struct Listing {
    id: String,
    #[dynamo(omit_empty)]
    owner: String,
    #[dynamo(omit_empty)]
    category: String,
}

/// 4. An update cannot leave a stale index key: a value `put` refuses is
/// refused by an update too, and nothing changes.
#[tokio::test]
async fn an_update_refuses_what_a_put_refuses() {
    let f = fixture(&[Listing::META]).await;
    let db = &f.db;
    let item = Listing {
        id: "i1".into(),
        owner: "bob".into(),
        category: "t1".into(),
    };
    db.put(&item).await.unwrap();
    assert!(matches!(
        db.put(&Listing {
            owner: String::new(),
            ..item.clone()
        })
        .await,
        Err(Error::KeyFormat(_))
    ));
    let err = db
        .update(Listing::update("i1").set_owner(""))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::KeyFormat(e) if e.field == "owner"),
        "{err}"
    );
    let err = db
        .update(Listing::update("i1").set_category(""))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::KeyFormat(e) if e.field == "category"),
        "{err}"
    );
    let err = db
        .transact_write()
        .update(Listing::update("i1").set_category(""))
        .send()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::KeyFormat(_)), "{err}");
    let stored = raw(db, "ITEM#i1", "ITEM").await.unwrap();
    assert_eq!(stored, item.to_item().unwrap());
    assert_eq!(
        db.query(Listing::gsi1_pk("bob").unwrap())
            .count()
            .await
            .unwrap(),
        1
    );
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
#[sk("NOTE")]
#[gsi("GSI1", pk = "<owner>", sk = "LIVE#<live_since>", sparse)]
struct OwnedNote {
    id: String,
    owner: Option<String>,
    live_since: Option<OffsetDateTime>,
}

/// 5. An update of a sparse index's other key leaves an item without an
/// owner simply out of the index.
#[tokio::test]
async fn a_sparse_update_without_the_other_input_stays_out() {
    let f = fixture(&[OwnedNote::META]).await;
    let db = &f.db;
    db.put(&OwnedNote {
        id: "n1".into(),
        owner: None,
        live_since: None,
    })
    .await
    .unwrap();
    let t = datetime!(2026-01-01 0:00 UTC);
    db.update(OwnedNote::update("n1").set_live_since(t))
        .await
        .unwrap();
    let stored = raw(db, "NOTE#n1", "NOTE").await.unwrap();
    let expected = OwnedNote {
        id: "n1".into(),
        owner: None,
        live_since: Some(t),
    };
    assert_eq!(stored, expected.to_item().unwrap());
    assert!(!stored.contains_key("gsi1pk"));
}

// ---------------------------------------------------------------- 6

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "COUNTER")]
#[pk("ORG#<org_id>")]
#[sk("COUNTER#<name>")]
struct Counter {
    org_id: String,
    name: String,
    hits: u64,
    label: Option<String>,
}

/// 6. A patch never creates an item; an upsert creates a whole one, and a
/// counter starts from nothing.
#[tokio::test]
async fn a_patch_of_a_missing_item_creates_nothing_and_an_upsert_creates_it_whole() {
    let f = fixture(&[Counter::META]).await;
    let db = &f.db;
    let err = db
        .update(Counter::update("acme", "visits").increment_hits(1))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }), "{err}");
    assert!(raw(db, "ORG#acme", "COUNTER#visits").await.is_none());

    for _ in 0..3 {
        db.update(Counter::upsert("acme", "visits").increment_hits(1))
            .await
            .unwrap();
    }
    let c = db
        .get(Counter::key("acme", "visits").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        c,
        Counter {
            org_id: "acme".into(),
            name: "visits".into(),
            hits: 3,
            label: None
        }
    );
    assert_eq!(
        raw(db, "ORG#acme", "COUNTER#visits").await.unwrap(),
        c.to_item().unwrap()
    );
    assert_eq!(
        db.query(Counter::pk("acme").unwrap()).all().await.unwrap(),
        [c]
    );
}

// ---------------------------------------------------------------- 7, 8

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ROW")]
#[pk("ROWS")]
#[sk("ROW#<n:d4>")]
struct Row {
    n: u32,
}

/// 7. (`db.batch_write().put(&versioned)` does not compile: DYNA229, in
/// `ui-tests`.) 8. A batch accounts for every item: a failed call does not
/// stop the other chunks, and what failed comes back with its error.
#[tokio::test]
async fn a_batch_accounts_for_every_item() {
    let f = fixture(&[Row::META]).await;
    let db = &f.db;
    let mut b = db.batch_write();
    for n in 0..25 {
        b = b.put(&Row { n });
    }
    // The second chunk holds a request DynamoDB refuses: a key of the
    // wrong type.
    let bad = WriteRequest::builder()
        .put_request(
            PutRequest::builder()
                .item("pk", AttributeValue::N("1".into()))
                .item("sk", AttributeValue::S("ROW#9999".into()))
                .build()
                .unwrap(),
        )
        .build();
    b = b.requests([bad]);
    for n in 25..34 {
        b = b.put(&Row { n });
    }
    let Err(Error::BatchIncomplete(out)) = b.send().await else {
        panic!("a batch with a refused call is incomplete")
    };
    let failed: usize = out.failed.iter().map(|x| x.requests.len()).sum();
    assert_eq!(out.written + out.unprocessed.len() + failed, 35, "{out:?}");
    assert_eq!((out.written, failed), (25, 10));
    assert!(
        matches!(out.failed[0].error, Error::Validation { .. }),
        "{:?}",
        out.failed[0].error
    );
    assert_eq!(db.query(Row::pk().unwrap()).count().await.unwrap(), 25);
}

// ---------------------------------------------------------------- 9

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TX")]
#[pk("LEDGER")]
#[sk("T-<delta:n4>-<note>")]
#[gsi("GSI1", pk = "PRICES", sk = "P.<price:n4.2>.<id>")]
struct Entry {
    delta: i32,
    note: String,
    price: rust_decimal::Decimal,
    id: String,
}

/// 9. Keys the library writes parse back, whatever the delimiter.
#[tokio::test]
async fn written_keys_parse_back() {
    let f = fixture(&[Entry::META]).await;
    let e = Entry {
        delta: -5,
        note: "fee".into(),
        price: rust_decimal::Decimal::new(1250, 2),
        id: "a".into(),
    };
    f.db.put(&e).await.unwrap();
    let item = raw(&f.db, "LEDGER", "T--9995-fee").await.unwrap();
    assert_eq!(
        Entry::parse_sk(item["sk"].as_s().unwrap()).unwrap(),
        (-5, "fee".to_owned())
    );
    let gsi = item["gsi1sk"].as_s().unwrap();
    assert_eq!(gsi, "P.00012.50.a");
    assert_eq!(
        Entry::parse_gsi1_sk(gsi).unwrap(),
        (rust_decimal::Decimal::new(1250, 2), "a".to_owned())
    );
}

// ---------------------------------------------------------------- 10

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SERIES")]
#[pk("SERIES#<id>")]
#[sk("DATA")]
struct Series {
    id: String,
    values: Vec<f64>,
}

/// 10. What the library refuses before sending is what DynamoDB refuses.
#[tokio::test]
async fn pre_write_checks_agree_with_dynamodb() {
    let f = fixture(&[Series::META]).await;
    let db = &f.db;
    for bad in [f64::MAX, 1e200, 5e-324, f64::NAN] {
        let err = db
            .put(&Series {
                id: "s".into(),
                values: vec![1.0, bad],
            })
            .await
            .unwrap_err();
        assert!(
            matches!(&err, Error::Refused { reason: dynakey::RefusedReason::NumberOutOfRange, message } if message.contains("values[1]")),
            "{bad}: {err}"
        );
    }
    // Items of numbers at the 400 KB limit: the library's count is the
    // engine's, byte for byte (the engine's rule was measured against
    // DynamoDB; moto counts its own way, so the boundary runs embedded).
    if !f.local.is_embedded() {
        return;
    }
    let size = |s: &Series| dynakey::__private::item_size(&s.to_item().unwrap());
    for n in ["100.1", "-1.5", "12345.678"] {
        let v: f64 = n.parse().unwrap();
        let mut s = Series {
            id: "s".into(),
            values: vec![v],
        };
        let base = size(&Series {
            values: Vec::new(),
            ..s.clone()
        });
        let elem = size(&s) - base;
        s.values = vec![v; (409_600 - 16 - base) / elem];
        // Fill the rest with 1 (3 bytes in a list) and -1 (4 bytes).
        let r = 409_600 - size(&s);
        let minus = (0..3).find(|b| (r - 4 * b) % 3 == 0).unwrap();
        s.values.extend(std::iter::repeat_n(-1.0, minus));
        s.values
            .extend(std::iter::repeat_n(1.0, (r - 4 * minus) / 3));
        assert_eq!(size(&s), 409_600, "{n}");
        db.put(&s).await.unwrap();
        // One byte more: a 1 becomes a -1.
        let last = s.values.len() - 1;
        s.values[last] = -1.0;
        assert_eq!(size(&s), 409_601);
        assert!(matches!(
            db.put(&s).await,
            Err(Error::ItemTooLarge { size: 409_601, .. })
        ));
        let sent = db
            .client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(s.to_item().unwrap()))
            .send()
            .await;
        assert!(sent.is_err(), "{n}: the engine took 409,601 bytes");
    }
}

// ---------------------------------------------------------------- 11

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "READING")]
#[pk("R#<id>")]
#[sk("R")]
struct Reading {
    id: String,
    count: u32,
    ratio: i64,
    tags: std::collections::BTreeSet<u8>,
    at: OffsetDateTime,
    device: Uuid,
}

/// 11. Valid items written by other clients decode; keys stay strict.
#[tokio::test]
async fn items_of_other_clients_decode() {
    let f = fixture(&[Reading::META]).await;
    let db = &f.db;
    let n = |s: &str| AttributeValue::N(s.into());
    let s = |x: &str| AttributeValue::S(x.into());
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("pk", s("R#r1"))
        .item("sk", s("R"))
        .item("_type", s("READING"))
        .item("id", s("r1"))
        .item("count", n("1E+2"))
        .item("ratio", n("100.0"))
        .item("tags", AttributeValue::Ns(vec!["1E+1".into(), "2".into()]))
        .item("at", s("2024-01-02T03:04:05Z"))
        .item("device", s("A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D"))
        .send()
        .await
        .unwrap();
    let r = db.get(Reading::key("r1").unwrap()).await.unwrap().unwrap();
    assert_eq!((r.count, r.ratio), (100, 100));
    assert_eq!(r.tags.into_iter().collect::<Vec<_>>(), [2, 10]);
    assert_eq!(r.at, datetime!(2024-01-02 3:04:05 UTC));
    assert_eq!(
        r.device,
        Uuid::parse_str("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d").unwrap()
    );
    // Keys stay strict: an uppercase uuid is not the text a key holds.
    use dynakey::KeyText;
    assert!(Uuid::parse_text("A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D").is_err());
    assert!(OffsetDateTime::parse_text("2024-01-02T03:04:05Z").is_err());
}

// ---------------------------------------------------------------- 12

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[sk("DOC")]
struct Doc {
    id: String,
    body: String,
    #[dynamo(version)]
    version: u64,
}

/// 12. A versioned item moves, under the source's version.
#[tokio::test]
async fn a_versioned_item_moves_under_its_version() {
    let f = fixture(&[Doc::META]).await;
    let db = &f.db;
    db.put(&Doc {
        id: "a".into(),
        body: "x".into(),
        version: 0,
    })
    .await
    .unwrap();
    let read = db.get(Doc::key("a").unwrap()).await.unwrap().unwrap();
    assert_eq!(read.version, 1);
    let stale = Doc {
        id: "b".into(),
        version: 0,
        ..read.clone()
    };
    let err = db
        .move_item(Doc::key("a").unwrap(), &stale)
        .await
        .unwrap_err();
    let Error::TransactionCanceled { reasons } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        reasons[0].code, "ConditionalCheckFailed",
        "the source's version is the lock"
    );
    db.move_item(
        Doc::key("a").unwrap(),
        &Doc {
            id: "b".into(),
            ..read
        },
    )
    .await
    .unwrap();
    assert!(db.get(Doc::key("a").unwrap()).await.unwrap().is_none());
    let moved = db.get(Doc::key("b").unwrap()).await.unwrap().unwrap();
    assert_eq!((moved.body.as_str(), moved.version), ("x", 2));
}
