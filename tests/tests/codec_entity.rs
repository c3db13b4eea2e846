//! The generated item codec on an entity holding every DynamoDB type:
//! what each field is stored as, round trips (in memory and through every
//! backend), and decode errors that name the attribute path.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::{Blob, DynamoEntity, DynamoValue, Entity};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::macros::{date, datetime};
use uuid::Uuid;

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq)]
enum Tier {
    Free,
    #[dynamo(rename = "pro")]
    Pro,
}

#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Address {
    street: String,
    #[dynamo(rename = "zip_code")]
    zip: Option<String>,
    lines: Vec<Line>,
}

#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Line {
    sku: String,
    total: Decimal,
}

/// A foreign type stored through serde.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Prefs {
    theme: String,
    sizes: Vec<u8>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EVERYTHING")]
#[pk("THING#<id>")]
#[sk("DATA")]
struct Everything {
    id: Uuid,
    name: String,
    small: i8,
    big: u128,
    signed: i64,
    ratio: f64,
    price: Decimal,
    flag: bool,
    data: Blob,
    nothing: (),
    maybe: Option<String>,
    absent: Option<u32>,
    tags: HashSet<String>,
    scores: BTreeSet<i32>,
    blobs: BTreeSet<Vec<u8>>,
    list: Vec<String>,
    map: HashMap<String, i64>,
    sorted: BTreeMap<String, Vec<bool>>,
    day: time::Date,
    at: time::OffsetDateTime,
    tier: Tier,
    address: Address,
    #[dynamo(serde)]
    prefs: Prefs,
    #[dynamo(serde)]
    raw: serde_json::Value,
    #[dynamo(omit_empty)]
    note: String,
    #[dynamo(skip)]
    cache: Vec<u8>,
}

fn sample() -> Everything {
    Everything {
        id: Uuid::now_v7(),
        name: "thing".into(),
        small: -8,
        big: 10u128.pow(37) + 7,
        signed: i64::MIN,
        ratio: 0.1,
        price: Decimal::new(-1550, 2),
        flag: true,
        data: Blob::new(vec![0, 1, 2, 255]),
        nothing: (),
        maybe: Some("yes".into()),
        absent: None,
        tags: HashSet::from(["a".into(), "b".into()]),
        scores: BTreeSet::from([-1, 5]),
        blobs: BTreeSet::from([vec![1], vec![2, 3]]),
        list: vec!["x".into(), "y".into()],
        map: HashMap::from([("k".into(), 7)]),
        sorted: BTreeMap::from([("a".into(), vec![true, false])]),
        day: date!(2026 - 07 - 16),
        at: datetime!(2026-07-16 09:12:00.5 +02:00),
        tier: Tier::Pro,
        address: Address {
            street: "Main 1".into(),
            zip: None,
            lines: vec![Line {
                sku: "p1".into(),
                total: Decimal::new(999, 2),
            }],
        },
        prefs: Prefs {
            theme: "dark".into(),
            sizes: vec![1, 2],
        },
        raw: serde_json::json!({"a": [1, "two", null]}),
        note: String::new(),
        cache: vec![9, 9],
    }
}

#[test]
fn every_type_has_its_dynamodb_form() {
    let e = sample();
    let item = e.to_item().unwrap();
    assert!(matches!(item["small"], AttributeValue::N(ref n) if n == "-8"));
    assert!(
        matches!(item["big"], AttributeValue::N(ref n) if n == "10000000000000000000000000000000000007")
    );
    assert!(matches!(item["ratio"], AttributeValue::N(ref n) if n == "0.1"));
    assert!(matches!(item["price"], AttributeValue::N(ref n) if n == "-15.50"));
    assert!(matches!(item["flag"], AttributeValue::Bool(true)));
    assert!(matches!(item["data"], AttributeValue::B(_)));
    assert!(matches!(item["nothing"], AttributeValue::Null(true)));
    assert!(matches!(item["tags"], AttributeValue::Ss(_)));
    assert!(matches!(item["scores"], AttributeValue::Ns(_)));
    assert!(matches!(item["blobs"], AttributeValue::Bs(_)));
    assert!(matches!(item["list"], AttributeValue::L(_)));
    assert!(matches!(item["map"], AttributeValue::M(_)));
    assert_eq!(item["day"].as_s().unwrap(), "2026-07-16");
    // Stored in UTC whatever the offset.
    assert_eq!(item["at"].as_s().unwrap(), "2026-07-16T07:12:00.500000000Z");
    assert_eq!(item["tier"].as_s().unwrap(), "pro");
    let address = item["address"].as_m().unwrap();
    assert!(
        !address.contains_key("zip_code"),
        "None is absent, not NULL"
    );
    assert!(matches!(address["lines"], AttributeValue::L(_)));
    assert!(matches!(item["prefs"], AttributeValue::M(_)));
    assert!(
        !item.contains_key("absent") && !item.contains_key("note") && !item.contains_key("cache")
    );
    let back = Everything::from_item(&item).unwrap();
    assert_eq!(
        back,
        Everything {
            cache: Vec::new(),
            ..e
        }
    );
}

#[test]
fn decode_errors_name_the_path() {
    let mut item = sample().to_item().unwrap();
    let mut address = item["address"].as_m().unwrap().clone();
    let mut lines = address["lines"].as_l().unwrap().clone();
    let mut line = lines[0].as_m().unwrap().clone();
    line.insert("total".into(), AttributeValue::S("lots".into()));
    lines[0] = AttributeValue::M(line);
    address.insert("lines".into(), AttributeValue::L(lines));
    item.insert("address".into(), AttributeValue::M(address));
    let err = Everything::from_item(&item).unwrap_err();
    assert_eq!(err.path, "address.lines[0].total");
    assert!(err.found.contains("lots"), "{err}");

    let mut item = sample().to_item().unwrap();
    item.insert("small".into(), AttributeValue::N("300".into()));
    let err = Everything::from_item(&item).unwrap_err();
    assert_eq!(err.path, "small");

    let mut item = sample().to_item().unwrap();
    item.remove("name");
    assert_eq!(Everything::from_item(&item).unwrap_err().path, "name");

    let mut item = sample().to_item().unwrap();
    item.insert("tier".into(), AttributeValue::S("Gold".into()));
    let err = Everything::from_item(&item).unwrap_err();
    assert!(
        err.expected.contains("Free") && err.expected.contains("pro"),
        "{err}"
    );

    // Another entity's item is refused by its discriminator.
    let mut item = sample().to_item().unwrap();
    item.insert("_type".into(), AttributeValue::S("OTHER".into()));
    assert_eq!(Everything::from_item(&item).unwrap_err().path, "_type");
}

#[tokio::test]
async fn every_type_round_trips_through_the_backend() {
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("c_{}", Uuid::new_v4().simple()));
    db.create_table(&[Everything::META]).await.unwrap();
    let e = sample();
    db.put(&e).await.unwrap();
    let back = db
        .get(e.item_key().unwrap())
        .consistent()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        back,
        Everything {
            cache: Vec::new(),
            ..e
        }
    );
}

#[tokio::test]
async fn a_number_over_38_digits_is_refused_before_sending() {
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("c_{}", Uuid::new_v4().simple()));
    db.create_table(&[Everything::META]).await.unwrap();
    let mut e = sample();
    e.big = u128::MAX;
    match db.put(&e).await {
        Err(dynakey::Error::Refused {
            reason: dynakey::RefusedReason::NumberOutOfRange,
            message,
        }) => {
            assert!(
                message.contains("attribute `big`") && message.contains("38 significant digits"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    let mut e = sample();
    e.ratio = f64::NAN;
    match db.put(&e).await {
        Err(dynakey::Error::Refused {
            reason: dynakey::RefusedReason::NumberOutOfRange,
            message,
        }) => {
            assert!(message.contains("attribute `ratio`"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let mut e = sample();
    e.map.insert("huge".into(), i64::MAX);
    e.address.lines[0].total = Decimal::MAX;
    // Decimal::MAX has 29 digits: fine.
    db.put(&e).await.unwrap();
}

/// Names and templates with characters a string literal must escape: the
/// derive writes much of its output as source text, so each one must come
/// back exactly as written.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "Q\"T\\é@{}")]
#[pk("Q\"T\\é@{}#<id>")]
#[sk("it's é \\ \"x\"#<n:d4>")]
struct Quoted {
    id: String,
    n: u32,
    #[dynamo(rename = "a \"b\" \\ é")]
    note: Option<String>,
}

#[test]
fn quotes_and_backslashes_in_names_and_templates_round_trip() {
    let q = Quoted {
        id: "a".into(),
        n: 7,
        note: Some("v".into()),
    };
    let item = q.to_item().unwrap();
    let s = |k: &str| item[k].as_s().unwrap().clone();
    assert_eq!(s("_type"), "Q\"T\\é@{}");
    assert_eq!(s("pk"), "Q\"T\\é@{}#a");
    assert_eq!(s("sk"), "it's é \\ \"x\"#0007");
    assert_eq!(s("a \"b\" \\ é"), "v");
    assert_eq!(Quoted::from_item(&item).unwrap(), q);
    assert_eq!(Quoted::parse_sk("it's é \\ \"x\"#0007").unwrap(), (7,));
    assert_eq!(Quoted::META.discriminator, "Q\"T\\é@{}");
    assert_eq!(Quoted::attrs().note.name(), "a \"b\" \\ é");
    let parts = dynakey::TypedUpdate::into_parts(Quoted::update("a", 7u32).set_note("w")).unwrap();
    assert_eq!(parts.key.pk(), "Q\"T\\é@{}#a");
    assert_eq!(parts.key.sk(), Some("it's é \\ \"x\"#0007"));
}
