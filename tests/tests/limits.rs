// clippy reads two `#[gsi(..)]` helper attributes with equal arguments as
// one attribute written twice (rust-clippy duplicated_attributes); they are
// two indexes.
#![allow(clippy::duplicated_attributes)]

//! DynamoDB's limits, refused before sending as DynamoDB would refuse them:
//! a partition key of more than 2,048 bytes and a sort key of more than
//! 1,024 (table and index keys, counted after escaping), and a value
//! nested over 32 levels. At the boundary (a property test over values of
//! one- to four-byte characters and characters the writer escapes): a key
//! of exactly the limit is written, read, queried (sort-key conditions on
//! it included), updated, batched and deleted on the backend, and one byte
//! more is a `KeyFormatError` naming the limit, the size and the field, on
//! every path, with nothing sent.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::local::Backend;
use dynakey::prelude::*;
use dynakey::spy::Recorder;
use dynakey::Error;
use dynakey::{EncodeError, Item, KeyFormatError, KeyFormatReason, KeyRole};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC")]
#[pk("D#<id>")]
#[sk("S#<name>")]
#[gsi("GSI1", pk = "G#<tag>", sk = "T#<title>")]
struct Doc {
    id: String,
    name: String,
    tag: String,
    title: String,
    body: Option<AttributeValue>,
}

/// Which key a case makes long.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Which {
    TablePk,
    TableSk,
    IndexPk,
    IndexSk,
}

impl Which {
    fn role(self) -> KeyRole {
        match self {
            Which::TablePk | Which::IndexPk => KeyRole::Partition,
            Which::TableSk | Which::IndexSk => KeyRole::Sort,
        }
    }

    fn field(self) -> &'static str {
        match self {
            Which::TablePk => "id",
            Which::TableSk => "name",
            Which::IndexPk => "tag",
            Which::IndexSk => "title",
        }
    }
}

/// The bytes `c` takes in a key once escaped (`%` is the escape of these
/// templates: it and everything up to it take three bytes).
fn escaped_len(c: char) -> usize {
    if c <= '%' {
        3
    } else {
        c.len_utf8()
    }
}

/// A value of `chars` (cycled) whose escaped text takes exactly `bytes`.
fn value_of(chars: &[char], bytes: usize) -> String {
    let mut v = String::new();
    let mut left = bytes;
    for &c in chars.iter().cycle() {
        if left < 4 {
            break;
        }
        v.push(c);
        left -= escaped_len(c);
    }
    v.extend(std::iter::repeat_n('a', left));
    v
}

fn doc(which: Which, long: &str) -> Doc {
    let pick = |w: Which, short: &str| {
        if w == which {
            long.to_owned()
        } else {
            short.to_owned()
        }
    };
    Doc {
        id: pick(Which::TablePk, "d1"),
        name: pick(Which::TableSk, "n1"),
        tag: pick(Which::IndexPk, "red"),
        title: pick(Which::IndexSk, "t1"),
        body: None,
    }
}

/// The key error of a refused operation, however it was carried.
fn key_error(e: Error) -> Result<KeyFormatError, TestCaseError> {
    match e {
        Error::KeyFormat(k) | Error::Encode(EncodeError::Key(k)) => Ok(k),
        other => Err(TestCaseError::fail(format!("not a key error: {other}"))),
    }
}

/// The key error `r` was refused with.
fn refused<T>(r: Result<T, impl Into<Error>>, what: &str) -> Result<KeyFormatError, TestCaseError> {
    match r {
        Ok(_) => Err(TestCaseError::fail(format!("{what} was not refused"))),
        Err(e) => key_error(e.into()),
    }
}

fn is_too_long(
    e: Result<KeyFormatError, TestCaseError>,
    which: Which,
    size: usize,
) -> Result<(), TestCaseError> {
    let e = e?;
    prop_assert_eq!(e.field, which.field(), "{}", e);
    prop_assert!(
        matches!(e.reason, KeyFormatReason::TooLong { size: s, role } if s == size && role.limit() == which.role().limit()),
        "{:?}",
        e.reason
    );
    let text = e.to_string();
    prop_assert!(
        text.contains(&format!("{size} bytes")) && text.contains(&which.role().limit().to_string()),
        "{}",
        text
    );
    Ok(())
}

/// A case: the key made long, the characters of its value, and a fresh
/// table per case.
async fn check(backend: &Backend, which: Which, chars: &[char]) -> Result<(), TestCaseError> {
    let limit = which.role().limit();
    let db = backend.db(format!("limits_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Doc::META]).await.unwrap();
    // "D#", "S#", "G#", "T#": two bytes of literal before the value.
    let at = value_of(chars, limit - 2);
    let d = doc(which, &at);
    let key = Doc::key(&d.id, &d.name).unwrap();
    prop_assert_eq!(
        key.pk().len().max(key.sk().unwrap().len()),
        if matches!(which, Which::TablePk | Which::TableSk) {
            limit
        } else {
            4
        }
    );

    // At the limit: every path reaches the backend and works.
    db.put(&d).await.unwrap();
    prop_assert_eq!(db.get(key).consistent().await.unwrap(), Some(d.clone()));
    let by_pk = db.query(Doc::pk(&d.id).unwrap()).all().await.unwrap();
    prop_assert_eq!(&by_pk, &vec![d.clone()]);
    let eq = Doc::sk().name(&d.name).begins_with().unwrap();
    prop_assert_eq!(
        db.query(Doc::pk(&d.id).unwrap())
            .sk(eq)
            .all()
            .await
            .unwrap()
            .len(),
        1
    );
    // Range conditions whose bounds pass the limit by a sentinel: fitted.
    let sk = || Doc::sk();
    for (cond, n) in [
        (sk().ge(&d.name), 1),
        (sk().le(&d.name), 1),
        (sk().gt(&d.name), 0),
        (sk().lt(&d.name), 0),
        (sk().between(&d.name, &d.name), 1),
    ] {
        let got = db
            .query(Doc::pk(&d.id).unwrap())
            .sk(cond.unwrap())
            .all()
            .await
            .unwrap();
        prop_assert_eq!(got.len(), n);
    }
    let by_index = db.query(Doc::gsi1_pk(&d.tag).unwrap()).all().await.unwrap();
    prop_assert_eq!(&by_index, &vec![d.clone()]);
    let title = Doc::gsi1_sk().title(&d.title).begins_with().unwrap();
    prop_assert_eq!(
        db.query(Doc::gsi1_pk(&d.tag).unwrap())
            .sk(title)
            .all()
            .await
            .unwrap()
            .len(),
        1
    );
    // A typed update rewriting the index keys with the long value.
    let retag = Doc::update(&d.id, &d.name)
        .set_tag(d.tag.clone())
        .set_title(d.title.clone());
    db.update(retag).await.unwrap();
    db.delete(Doc::key(&d.id, &d.name).unwrap()).await.unwrap();
    db.batch_write().put(&d).send().await.unwrap();
    db.transact_write()
        .delete(Doc::key(&d.id, &d.name).unwrap())
        .await
        .unwrap();
    db.transact_write().put(&d).await.unwrap();
    prop_assert_eq!(
        db.query(Doc::gsi1_pk(&d.tag).unwrap())
            .all()
            .await
            .unwrap()
            .len(),
        1
    );

    // One byte more: refused on every path, naming the field; nothing sent.
    let over = format!("{at}a");
    let size = limit + 1;
    let long = doc(which, &over);
    let spy = Recorder::new();
    let sdb = spy.db(&db);
    is_too_long(refused(sdb.put(&long).await, "put"), which, size)?;
    is_too_long(
        refused(sdb.batch_write().put(&long).send().await, "batch"),
        which,
        size,
    )?;
    is_too_long(
        refused(sdb.transact_write().put(&long).await, "transaction"),
        which,
        size,
    )?;
    match which {
        Which::TablePk | Which::TableSk => {
            // get, delete, update, batch and transaction deletes all need the
            // key, and the key is refused.
            is_too_long(refused(Doc::key(&long.id, &long.name), "key"), which, size)?;
            let update = Doc::update(&long.id, &long.name).set_tag("x");
            is_too_long(refused(sdb.update(update).await, "update"), which, size)?;
            if which == Which::TablePk {
                is_too_long(refused(Doc::pk(&long.id), "pk"), which, size)?;
            } else {
                let eq = Doc::sk().name(&long.name).begins_with();
                is_too_long(refused(eq, "sort-key condition"), which, size)?;
                is_too_long(refused(Doc::sk().ge(&long.name), "ge"), which, size)?;
            }
        }
        Which::IndexPk | Which::IndexSk => {
            let update = Doc::update("d1", "n1")
                .set_tag(long.tag.clone())
                .set_title(long.title.clone());
            is_too_long(refused(sdb.update(update).await, "update"), which, size)?;
            if which == Which::IndexPk {
                is_too_long(refused(Doc::gsi1_pk(&long.tag), "index pk"), which, size)?;
            } else {
                let eq = Doc::gsi1_sk().title(&long.title).begins_with();
                is_too_long(refused(eq, "index sort-key condition"), which, size)?;
            }
        }
    }
    prop_assert_eq!(spy.operations(), Vec::<String>::new());
    if !backend.is_embedded() {
        dynakey::table::delete_table(db.client(), db.table_name())
            .await
            .unwrap();
    }
    Ok(())
}

/// Characters of one to four bytes, and ones the writer escapes (three
/// bytes each): `#` (the delimiter), ` `, `%` (the escape), `!`.
fn chars() -> impl Strategy<Value = Vec<char>> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'Z', '0', 'é', 'ß', '中', '€', '😀', '𝄞', '#', ' ', '%', '!', '~',
        ]),
        1..8,
    )
}

fn which() -> impl Strategy<Value = Which> {
    prop::sample::select(vec![
        Which::TablePk,
        Which::TableSk,
        Which::IndexPk,
        Which::IndexSk,
    ])
}

#[test]
fn keys_at_the_limit_work_and_one_byte_more_is_refused_before_sending() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let backend = dynakey::local::from_env().unwrap();
    let cases = if backend.is_embedded() { 32 } else { 8 };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x6b65_7973),
        failure_persistence: None,
        max_shrink_iters: 50,
        ..Config::default()
    });
    match runner.run(&(which(), chars()), |(w, c)| {
        rt.block_on(check(&backend, w, &c))
    }) {
        Ok(()) => {}
        Err(TestError::Fail(why, c)) => panic!("{why}\nsmallest failing case: {c:?}"),
        Err(e) => panic!("{e}"),
    }
}

/// The issue's cases: 2,042 `a` make a 2,049-byte partition key with
/// `D#`…; 681 `#` become 2,043 bytes once escaped.
#[test]
fn the_issue_s_keys_are_refused_with_the_limit_the_size_and_the_field() {
    let e = Doc::key("a".repeat(2047), "n").unwrap_err();
    assert_eq!(e.field, "id");
    assert_eq!(
        e.reason,
        KeyFormatReason::TooLong {
            role: KeyRole::Partition,
            size: 2049
        }
    );
    assert!(Doc::key("a".repeat(2046), "n").is_ok());
    let e = Doc::key("d", "#".repeat(341)).unwrap_err();
    assert_eq!(
        (e.field, e.value.as_str()),
        ("name", "#".repeat(341).as_str())
    );
    let shown = e.to_string();
    assert!(
        shown.contains("sort key 1025 bytes") && shown.contains("1024"),
        "{shown}"
    );
    // The value is shown shortened, with its length.
    assert!(shown.contains("(341 characters, 341 bytes)"), "{shown}");
    // Escaping makes a key long: 682 `#` are 2,046 bytes (a key of 2,048
    // with `D#`), 683 are refused.
    assert_eq!(Doc::key("#".repeat(682), "n").unwrap().pk().len(), 2048);
    let e = Doc::key("#".repeat(683), "n").unwrap_err();
    assert_eq!(
        e.reason,
        KeyFormatReason::TooLong {
            role: KeyRole::Partition,
            size: 2051
        }
    );
}

fn nest(levels: usize) -> AttributeValue {
    (0..levels).fold(AttributeValue::S("leaf".into()), |v, i| {
        if i % 2 == 0 {
            AttributeValue::M(Item::from([("m".to_owned(), v)]))
        } else {
            AttributeValue::L(vec![v])
        }
    })
}

/// A value nested over 32 levels is refused before sending, named by its
/// attribute path, by put, batch, transaction and update; 32 levels are
/// stored and read back.
#[tokio::test]
async fn values_nested_past_32_levels_are_refused_by_attribute_path() {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("nesting_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Doc::META]).await.unwrap();
    let mut d = doc(Which::TablePk, "d1");
    // A leaf inside 31 maps and lists: 32 levels.
    d.body = Some(nest(31));
    db.put(&d).await.unwrap();
    let back = db
        .get(Doc::key("d1", "n1").unwrap())
        .consistent()
        .await
        .unwrap();
    assert_eq!(back, Some(d.clone()));
    let spy = Recorder::new();
    let sdb = spy.db(&db);
    for levels in [32, 1000] {
        d.body = Some(nest(levels));
        let refused = |e: Error| {
            let text = e.to_string();
            assert!(
                matches!(
                    e,
                    Error::Refused {
                        reason: dynakey::RefusedReason::NestingTooDeep,
                        ..
                    }
                ),
                "{text}"
            );
            assert!(
                text.contains("attribute `body[0].m[0].m") && text.contains("32 levels"),
                "{text}"
            );
        };
        refused(sdb.put(&d).await.unwrap_err());
        refused(sdb.batch_write().put(&d).send().await.unwrap_err());
        refused(sdb.transact_write().put(&d).await.unwrap_err());
        let u = dynakey::Update::new().set_value("body", nest(levels));
        refused(
            sdb.update_raw(Doc::key("d1", "n1").unwrap(), u)
                .await
                .unwrap_err(),
        );
    }
    // Set one level down, a value of 31 levels nests 32 deep.
    let u =
        dynakey::Update::new().set_value(dynakey::expr::Path::new("extra").field("x"), nest(31));
    let err = sdb
        .update_raw(Doc::key("d1", "n1").unwrap(), u)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("attribute `extra.x.m[0]"), "{err}");
    assert_eq!(spy.operations(), Vec::<String>::new());
}

/// A refusal names the item once (its discriminator, then its key) and
/// shows a value it repeats cut to its start and its length: a number of
/// 201 digits, and the same number where it does not decode.
#[tokio::test]
async fn a_refusal_names_the_item_once_and_cuts_long_values() {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("messages_{}", uuid::Uuid::new_v4().simple()));
    let spy = Recorder::new();
    let mut d = doc(Which::TablePk, "d1");
    let big = format!("1{}", "0".repeat(200));
    d.body = Some(AttributeValue::N(big.clone()));
    let e = spy.db(&db).put(&d).await.unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(
            e,
            Error::Refused {
                reason: dynakey::RefusedReason::NumberOutOfRange,
                ..
            }
        ),
        "{text}"
    );
    assert_eq!(text.matches("DOC").count(), 1, "{text}");
    assert!(text.contains("DOC D#d1 / S#n1: attribute `body`"), "{text}");
    assert!(!text.contains(&big), "{text}");
    assert!(text.contains("(201 characters, 201 bytes)"), "{text}");
    assert_eq!(spy.operations(), Vec::<String>::new());
    // The same rule in a decode error.
    let e = <u8 as dynakey::Attr>::from_attr(
        &AttributeValue::N(big.clone()),
        &dynakey::AttrPath::root("n"),
    )
    .unwrap_err();
    assert!(!e.found.contains(&big), "{e}");
    assert!(e.found.ends_with("(201 characters, 201 bytes)"), "{e}");
}

/// A native index key: the items' own attributes, each held to its key's
/// limit (2,048 bytes for a partition attribute, 1,024 for a sort one).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PLACE")]
#[pk("PLACE#<id>")]
#[gsi("ByRegion", pk(region), sk(city))]
struct Place {
    id: String,
    region: String,
    city: String,
}

#[tokio::test]
async fn native_key_attributes_are_held_to_their_key_s_limit() {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("native_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Place::META]).await.unwrap();
    // At the limits (one- to four-byte characters): stored and queried.
    let at = Place {
        id: "p1".into(),
        region: value_of(&['é', '中', '😀', 'a'], 2048),
        city: value_of(&['😀', 'z'], 1024),
    };
    db.put(&at).await.unwrap();
    let got = db
        .query(Place::by_region_pk(&at.region).unwrap())
        .sk(Place::by_region_sk().city(&at.city).eq().unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(got, std::slice::from_ref(&at));
    // One byte more: refused by the key functions and by every write.
    let spy = Recorder::new();
    let sdb = spy.db(&db);
    let over = |field: &str| {
        let mut p = at.clone();
        match field {
            "region" => p.region.push('a'),
            _ => p.city.push('a'),
        }
        p
    };
    for (field, size, limit) in [("region", 2049, 2048), ("city", 1025, 1024)] {
        let p = over(field);
        let check = |e: KeyFormatError| {
            assert_eq!(e.field, field, "{e}");
            assert!(
                matches!(e.reason, KeyFormatReason::TooLong { size: s, role } if s == size && role.limit() == limit),
                "{e}"
            );
        };
        check(refused(sdb.put(&p).await, "put").unwrap());
        check(refused(sdb.batch_write().put(&p).send().await, "batch").unwrap());
        check(refused(sdb.transact_write().put(&p).await, "transaction").unwrap());
        let update = Place::update("p1")
            .set_region(p.region.clone())
            .set_city(p.city.clone());
        check(refused(sdb.update(update).await, "update").unwrap());
        if field == "region" {
            check(refused(Place::by_region_pk(&p.region), "index pk").unwrap());
        } else {
            check(refused(Place::by_region_sk().city(&p.city).eq(), "sort condition").unwrap());
            check(refused(Place::by_region_sk().ge(&p.city), "range").unwrap());
            check(refused(Place::by_region_sk().begins_with(&p.city), "prefix").unwrap());
        }
    }
    assert_eq!(spy.operations(), Vec::<String>::new());
}
