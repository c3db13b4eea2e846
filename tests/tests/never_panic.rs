//! Parsers and decoders of derived entities never panic: arbitrary text
//! into `parse_pk`/`parse_sk`/`parse_<index>_sk`, arbitrary attribute-value
//! trees into `from_item`; and whatever reads back writes back.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as AV;
use dynakey::{DynamoEntity, DynamoValue, Entity, Item};
use proptest::prelude::*;
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq)]
enum Kind {
    New,
    #[dynamo(rename = "New York")]
    NewYork,
}

#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Address {
    city: String,
    zip: Option<u32>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EMPLOYEE")]
#[pk("ORG#<org>")]
#[sk("SITE#<country>#<city>#EMP#<number:d6>")]
#[gsi(
    "GSI1",
    pk = "TEAM#<team>",
    sk = "<delta:n3>.<amount:n4.2>|<at:rev>:<kind>"
)]
#[gsi("GSI2", pk = "<manager>", sk = "<hired>#<id>", sparse)]
struct Employee {
    org: String,
    country: String,
    city: String,
    number: u32,
    team: String,
    delta: i16,
    amount: Decimal,
    at: OffsetDateTime,
    kind: Kind,
    manager: Option<String>,
    hired: Date,
    id: Uuid,
    tags: Vec<String>,
    scores: std::collections::BTreeSet<i64>,
    address: Option<Address>,
    photo: Option<Blob>,
    active: bool,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "FOLDER")]
#[pk("T#<tenant>")]
#[sk("F#<path:path>")]
struct Folder {
    tenant: String,
    path: String,
}

/// Text: arbitrary, and near misses of real keys.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[#%A-Z0-9 .:|-]{0,40}",
        "(SITE|ORG|TEAM|F|T)#[#%a-z0-9 .:|-]{0,30}",
        "-?[0-9]{1,5}\\.[0-9]{2,4}\\|[0-9]{13}:(New|New%20York|Newark)",
    ]
}

/// Attribute-value trees, with the entity's names often present.
fn av() -> impl Strategy<Value = AV> {
    let leaf = prop_oneof![
        any::<String>().prop_map(AV::S),
        prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            "-?[0-9]{0,40}(\\.[0-9]{0,5})?([eE][+-]?[0-9]{1,4})?",
            Just("NaN".to_owned()),
        ]
        .prop_map(AV::N),
        any::<bool>().prop_map(AV::Bool),
        Just(AV::Null(true)),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(|b| AV::B(Blob::new(b))),
        prop::collection::vec("[a-z0-9]{0,4}", 0..4).prop_map(AV::Ss),
        prop::collection::vec("-?[0-9]{1,3}(\\.5)?", 0..4).prop_map(AV::Ns),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(AV::L),
            prop::collection::hash_map(
                prop::sample::select(NAMES).prop_map(str::to_owned),
                inner,
                0..4
            )
            .prop_map(AV::M),
        ]
    })
}

const NAMES: &[&str] = &[
    "_type", "pk", "sk", "org", "country", "city", "number", "team", "delta", "amount", "at",
    "kind", "manager", "hired", "id", "tags", "scores", "address", "photo", "active", "zip",
    "tenant", "path",
];

fn item() -> impl Strategy<Value = Item> {
    prop::collection::hash_map(
        prop::sample::select(NAMES).prop_map(str::to_owned),
        av(),
        0..20,
    )
}

/// A valid employee's item with some attributes replaced by junk.
fn damaged() -> impl Strategy<Value = Item> {
    (
        prop::collection::hash_map(
            prop::sample::select(NAMES).prop_map(str::to_owned),
            av(),
            0..4,
        ),
        any::<bool>(),
    )
        .prop_map(|(junk, drop_some)| {
            let mut i = sample().to_item().unwrap();
            if drop_some {
                i.remove("tags");
            }
            i.extend(junk);
            i
        })
}

fn sample() -> Employee {
    Employee {
        org: "acme".into(),
        country: "CH".into(),
        city: "New York".into(),
        number: 42,
        team: "red".into(),
        delta: -5,
        amount: Decimal::new(1250, 2),
        at: OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap(),
        kind: Kind::NewYork,
        manager: Some("ann".into()),
        hired: time::macros::date!(2024 - 03 - 01),
        id: Uuid::from_u128(7),
        tags: vec!["a".into()],
        scores: [1, -2].into(),
        address: Some(Address {
            city: "Bern".into(),
            zip: Some(3000),
        }),
        photo: None,
        active: true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Key parsers: no panic, and a key that reads back writes back.
    #[test]
    fn key_parsers_never_panic_and_round_trip(s in text()) {
        if let Ok((org,)) = Employee::parse_pk(&s) {
            let back = Employee::pk(&org).unwrap();
            prop_assert_eq!(back.value(), s.as_str());
        }
        if let Ok((country, city, number)) = Employee::parse_sk(&s) {
            let k = Employee::key("x", &country, &city, number).unwrap();
            prop_assert_eq!(k.sk().unwrap(), s.as_str());
        }
        if let Ok((delta, amount, at, kind)) = Employee::parse_gsi1_sk(&s) {
            let e = Employee { delta, amount, at, kind, ..sample() };
            let item = e.to_item().unwrap();
            prop_assert_eq!(item["gsi1sk"].as_s().unwrap(), &s);
        }
        if let Ok((hired, id)) = Employee::parse_gsi2_sk(&s) {
            let e = Employee { hired, id, ..sample() };
            let item = e.to_item().unwrap();
            prop_assert_eq!(item["gsi2sk"].as_s().unwrap(), &s);
        }
        if let Ok((path,)) = Folder::parse_sk(&s) {
            let k = Folder::key("t", &path).unwrap();
            prop_assert_eq!(k.sk().unwrap(), s.as_str());
        }
    }

    /// Decoders: no panic; what decodes encodes, and decodes to itself.
    #[test]
    fn decoders_never_panic_and_round_trip(i in prop_oneof![item(), damaged()]) {
        if let Ok(e) = Employee::from_item(&i) {
            if let Ok(again) = e.to_item() {
                prop_assert_eq!(Employee::from_item(&again).unwrap(), e);
            }
        }
        if let Ok(f) = Folder::from_item(&i) {
            if let Ok(again) = f.to_item() {
                prop_assert_eq!(Folder::from_item(&again).unwrap(), f);
            }
        }
    }
}

#[test]
fn the_sample_round_trips() {
    let e = sample();
    let item = e.to_item().unwrap();
    assert_eq!(Employee::from_item(&item).unwrap(), e);
    assert_eq!(item["sk"].as_s().unwrap(), "SITE#CH#New%20York#EMP#000042");
    let _: HashMap<String, AV> = item;
}
