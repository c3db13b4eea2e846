//! The item codec: round trips of every `Attr` impl, the DynamoDB type each
//! one is stored as, absent / NULL / empty rules, and decode errors that
//! name the attribute path.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Debug;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as AV;
use dynakey_runtime::__private::{decode_field, put_attr, put_attr_omit_empty};
use dynakey_runtime::{Attr, AttrPath, DecodeError, Item};
use proptest::prelude::*;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime, UtcOffset};
use uuid::Uuid;

/// Puts `v` into an item as `v` and reads it back through `decode_field`.
fn through_item<T: Attr>(v: &T) -> (Item, T) {
    let mut item = Item::new();
    put_attr(&mut item, "v", v);
    let back = decode_field(&item, "v", &AttrPath::root("")).unwrap_or_else(|e| panic!("{e}"));
    (item, back)
}

fn rt<T: Attr + PartialEq + Debug>(v: T) -> Item {
    let (item, back) = through_item(&v);
    assert_eq!(back, v, "stored as {item:?}");
    item
}

fn decode<T: Attr>(item: &Item, name: &str) -> Result<T, DecodeError> {
    decode_field(item, name, &AttrPath::root(""))
}

fn item(entries: impl IntoIterator<Item = (&'static str, AV)>) -> Item {
    entries
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

fn n(s: &str) -> AV {
    AV::N(s.to_owned())
}
fn s(s: &str) -> AV {
    AV::S(s.to_owned())
}

// ---------------------------------------------------------------- scalars

macro_rules! int_round_trips {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        proptest! {
            #[test]
            fn $name(v in any::<$t>()) {
                let item = rt(v);
                prop_assert_eq!(&item["v"], &AV::N(v.to_string()));
            }
        }
    )*};
}

int_round_trips!(
    rt_i8: i8, rt_i16: i16, rt_i32: i32, rt_i64: i64, rt_i128: i128, rt_isize: isize,
    rt_u8: u8, rt_u16: u16, rt_u32: u32, rt_u64: u64, rt_u128: u128, rt_usize: usize,
);

#[test]
fn integer_limits() {
    rt(i8::MIN);
    rt(i8::MAX);
    rt(i64::MIN);
    rt(u64::MAX);
    rt(i128::MIN);
    rt(u128::MAX);
    rt(0usize);
}

fn decimal() -> impl Strategy<Value = Decimal> {
    let m = (1i128 << 96) - 1;
    (-m..=m, 0u32..=28).prop_map(|(m, s)| Decimal::from_i128_with_scale(m, s))
}

fn instant() -> impl Strategy<Value = OffsetDateTime> {
    let lo = datetime!(0000-01-01 0:00 UTC).unix_timestamp_nanos();
    let hi = datetime!(9999-12-31 23:59:59.999_999_999 UTC).unix_timestamp_nanos();
    (lo..=hi, -86_399i32..=86_399).prop_map(|(ns, off)| {
        let utc = OffsetDateTime::from_unix_timestamp_nanos(ns).unwrap();
        utc.checked_to_offset(UtcOffset::from_whole_seconds(off).unwrap())
            .unwrap_or(utc)
    })
}

fn date() -> impl Strategy<Value = Date> {
    (date!(0000 - 01 - 01).to_julian_day()..=date!(9999 - 12 - 31).to_julian_day())
        .prop_map(|d| Date::from_julian_day(d).unwrap())
}

proptest! {
    #[test]
    fn rt_string(v in any::<String>()) {
        let item = rt(v.clone());
        prop_assert_eq!(&item["v"], &AV::S(v));
    }

    #[test]
    fn rt_bool(v in any::<bool>()) {
        prop_assert_eq!(&rt(v)["v"], &AV::Bool(v));
    }

    #[test]
    fn rt_f64(v in any::<f64>().prop_filter("not NaN", |f| !f.is_nan())) {
        let item = rt(v);
        prop_assert!(matches!(item["v"], AV::N(_)));
        // -0.0 == 0.0, so check the sign separately
        prop_assert_eq!(through_item(&v).1.to_bits(), v.to_bits());
    }

    #[test]
    fn rt_f32(v in any::<f32>().prop_filter("not NaN", |f| !f.is_nan())) {
        prop_assert_eq!(through_item(&v).1.to_bits(), v.to_bits());
    }

    #[test]
    fn rt_decimal(v in decimal()) {
        let item = rt(v);
        prop_assert_eq!(&item["v"], &AV::N(v.to_string()));
        // The scale survives too (1.50 stays 1.50).
        prop_assert_eq!(through_item(&v).1.scale(), v.scale());
    }

    #[test]
    fn rt_blob(v in prop::collection::vec(any::<u8>(), 0..64)) {
        let item = rt(Blob::new(v.clone()));
        prop_assert_eq!(&item["v"], &AV::B(Blob::new(v)));
    }

    #[test]
    fn rt_uuid(v in any::<u128>()) {
        let id = Uuid::from_u128(v);
        let item = rt(id);
        prop_assert_eq!(&item["v"], &AV::S(id.hyphenated().to_string()));
    }

    #[test]
    fn rt_date(v in date()) {
        let item = rt(v);
        prop_assert!(matches!(&item["v"], AV::S(t) if t.len() == 10));
    }

    #[test]
    fn rt_instant(v in instant()) {
        let (item, back) = through_item(&v);
        prop_assert_eq!(back, v); // the same instant...
        prop_assert_eq!(back.offset(), UtcOffset::UTC); // ...read back in UTC
        prop_assert!(matches!(&item["v"], AV::S(t) if t.len() == 30 && t.ends_with('Z')));
    }

    #[test]
    fn rt_option(v in prop::option::of(any::<i64>())) {
        let item = rt(v);
        prop_assert_eq!(item.contains_key("v"), v.is_some());
    }

    #[test]
    fn rt_vec(v in prop::collection::vec(any::<String>(), 0..8)) {
        let item = rt(v.clone());
        prop_assert!(matches!(&item["v"], AV::L(l) if l.len() == v.len()));
    }

    #[test]
    fn rt_nested(v in prop::option::of(prop::collection::vec(prop::option::of(any::<u16>()), 0..8))) {
        rt(v);
    }

    #[test]
    fn rt_hash_map(v in prop::collection::hash_map(any::<String>(), any::<i32>(), 0..8)) {
        let item = rt(v.clone());
        prop_assert!(matches!(&item["v"], AV::M(m) if m.len() == v.len()));
    }

    #[test]
    fn rt_btree_map_of_lists(v in prop::collection::btree_map("[a-z.#\\[\\]]{0,6}", prop::collection::vec(any::<bool>(), 0..4), 0..8)) {
        rt(v);
    }

    #[test]
    fn rt_map_of_options(v in prop::collection::hash_map("[a-z]{0,4}", prop::option::of("[a-z]{0,4}"), 0..8)) {
        // A `None` value keeps its key (stored as NULL).
        let item = rt(v.clone());
        prop_assert!(matches!(&item["v"], AV::M(m) if m.len() == v.len()));
    }

    #[test]
    fn rt_string_sets(v in prop::collection::hash_set(any::<String>(), 0..8)) {
        let item = rt(v.clone());
        let bt: BTreeSet<String> = v.iter().cloned().collect();
        let item2 = rt(bt.clone());
        if v.is_empty() {
            prop_assert!(item.is_empty() && item2.is_empty());
        } else {
            // Sorted members, the same for HashSet and BTreeSet.
            prop_assert_eq!(&item["v"], &AV::Ss(bt.into_iter().collect()));
            prop_assert_eq!(&item["v"], &item2["v"]);
        }
    }

    #[test]
    fn rt_number_sets(a in prop::collection::btree_set(any::<i64>(), 0..8),
                      b in prop::collection::hash_set(any::<u8>(), 0..8),
                      c in prop::collection::btree_set(any::<u128>(), 0..8),
                      d in prop::collection::btree_set(decimal(), 0..8)) {
        let item = rt(a.clone());
        let expected = (!a.is_empty()).then(|| AV::Ns(a.iter().map(|x| x.to_string()).collect()));
        prop_assert_eq!(item.get("v"), expected.as_ref());
        rt(b);
        rt(c);
        rt(d);
    }

    #[test]
    fn rt_binary_and_uuid_sets(v in prop::collection::btree_set(prop::collection::vec(any::<u8>(), 0..8), 0..6),
                               ids in prop::collection::hash_set(any::<u128>().prop_map(Uuid::from_u128), 0..6)) {
        let item = rt(v.clone());
        if !v.is_empty() {
            prop_assert_eq!(&item["v"], &AV::Bs(v.iter().map(|b| Blob::new(b.clone())).collect()));
        }
        let item = rt(ids.clone());
        if !ids.is_empty() {
            prop_assert!(matches!(&item["v"], AV::Ss(ss) if ss.iter().all(|s| !s.bytes().any(|b| b.is_ascii_uppercase()))));
        }
    }

    #[test]
    fn rt_lists_of_sets(v in prop::collection::vec(prop::collection::btree_set(any::<u32>(), 0..3), 0..5),
                        m in prop::collection::btree_map("[a-z]{1,3}", prop::collection::hash_set("[a-z]{0,3}", 0..3), 0..5)) {
        // An empty set inside a list or map is NULL, and NULL reads as an empty set.
        rt(v);
        rt(m);
    }
}

#[test]
fn float_edges() {
    for v in [
        0.0f64,
        -0.0,
        1e-300,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        0.1,
        1.0 / 3.0,
        f64::INFINITY,
    ] {
        assert_eq!(through_item(&v).1.to_bits(), v.to_bits(), "{v}");
    }
    // NaN is no number for DynamoDB, but the codec reads its own text back.
    assert!(through_item(&f64::NAN).1.is_nan());
}

#[test]
fn unit_is_null() {
    assert_eq!(().to_attr(), Some(AV::Null(true)));
    rt(());
    let err = decode::<()>(&item([("v", s("x"))]), "v").unwrap_err();
    assert_eq!(
        (err.expected.as_str(), err.found.as_str()),
        ("NULL", "S \"x\"")
    );
}

// ---------------------------------------------------------------- absent, NULL, empty

#[test]
fn none_is_absent_and_null_reads_as_none() {
    let mut it = Item::new();
    put_attr(&mut it, "a", &None::<String>);
    assert!(
        it.is_empty(),
        "None leaves the attribute out, it is not NULL"
    );
    assert_eq!(decode::<Option<String>>(&it, "a").unwrap(), None);
    let it = item([("a", AV::Null(true)), ("b", n("7")), ("c", AV::Null(false))]);
    assert_eq!(decode::<Option<String>>(&it, "a").unwrap(), None);
    assert_eq!(decode::<Option<u8>>(&it, "b").unwrap(), Some(7));
    assert_eq!(decode::<Option<Vec<u8>>>(&it, "c").unwrap(), None);
    // A required attribute that is absent or NULL is an error.
    let err = decode::<String>(&it, "missing").unwrap_err();
    assert_eq!(err.path, "missing");
    assert_eq!(err.found, "nothing (attribute absent)");
    let err = decode::<String>(&it, "a").unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.expected.as_str(), err.found.as_str()),
        ("a", "S (string)", "NULL")
    );
}

#[test]
fn empty_sets_are_absent_and_absent_or_null_reads_as_empty() {
    assert_eq!(HashSet::<String>::new().to_attr(), None);
    assert_eq!(BTreeSet::<u32>::new().to_attr(), None);
    assert_eq!(BTreeSet::<Vec<u8>>::new().to_attr(), None);
    let mut it = Item::new();
    put_attr(&mut it, "tags", &BTreeSet::<String>::new());
    assert!(it.is_empty());
    assert_eq!(
        decode::<HashSet<String>>(&it, "tags").unwrap(),
        HashSet::new()
    );
    assert_eq!(
        decode::<BTreeSet<i64>>(&it, "tags").unwrap(),
        BTreeSet::new()
    );
    let it = item([("tags", AV::Null(true))]);
    assert_eq!(
        decode::<BTreeSet<String>>(&it, "tags").unwrap(),
        BTreeSet::new()
    );
    assert_eq!(decode::<HashSet<u8>>(&it, "tags").unwrap(), HashSet::new());
    // Some(empty set) cannot be told from None: both are absent.
    rt(None::<BTreeSet<u8>>);
    assert_eq!(through_item(&Some(BTreeSet::<u8>::new())).1, None);
}

#[test]
fn lists_and_maps_keep_positions_and_keys() {
    let v = vec![Some(1u8), None, Some(3)];
    let it = rt(v);
    assert_eq!(it["v"], AV::L(vec![n("1"), AV::Null(true), n("3")]));
    let m: BTreeMap<String, Option<u8>> =
        [("a".to_owned(), Some(1)), ("b".to_owned(), None)].into();
    let it = rt(m);
    assert_eq!(
        it["v"],
        AV::M([("a".to_owned(), n("1")), ("b".to_owned(), AV::Null(true))].into())
    );
    let sets = vec![BTreeSet::from([2u32, 1]), BTreeSet::new()];
    let it = rt(sets);
    assert_eq!(
        it["v"],
        AV::L(vec![AV::Ns(vec!["1".into(), "2".into()]), AV::Null(true)])
    );
    rt(Vec::<u8>::new());
    rt(HashMap::<String, u8>::new());
    rt(Some(Vec::<String>::new()));
}

#[test]
fn omit_empty() {
    let mut it = Item::new();
    put_attr_omit_empty(&mut it, "s", &String::new());
    put_attr_omit_empty(&mut it, "o", &Some(String::new()));
    put_attr_omit_empty(&mut it, "l", &Vec::<u8>::new());
    put_attr_omit_empty(&mut it, "m", &BTreeMap::<String, u8>::new());
    put_attr_omit_empty(&mut it, "b", &Blob::new(Vec::new()));
    assert!(it.is_empty(), "{it:?}");
    put_attr_omit_empty(&mut it, "zero", &0u8);
    put_attr_omit_empty(&mut it, "f", &false);
    put_attr_omit_empty(&mut it, "s", &"x".to_owned());
    assert_eq!(it.len(), 3);
    // Without omit_empty an empty string is stored (DynamoDB allows it outside keys).
    let mut it = Item::new();
    put_attr(&mut it, "s", &String::new());
    assert_eq!(it["s"], s(""));
}

// ---------------------------------------------------------------- decode errors

#[test]
fn errors_name_the_path() {
    let order = |total: AV| AV::M([("total".to_owned(), total)].into());
    let it = item([(
        "orders",
        AV::L(vec![order(n("1.5")), order(n("2")), order(s("ten"))]),
    )]);
    let err = decode::<Vec<HashMap<String, Decimal>>>(&it, "orders").unwrap_err();
    assert_eq!(err.path, "orders[2].total");
    assert_eq!(err.expected, "N (number)");
    assert_eq!(err.found, "S \"ten\"");
    assert_eq!(
        err.to_string(),
        "attribute `orders[2].total`: expected N (number), found S \"ten\""
    );

    // Below a named root (a nested struct's fields).
    let root = AttrPath::root("user");
    let err = u8::from_attr(&n("300"), &root.field("age")).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.expected.as_str(), err.found.as_str()),
        ("user.age", "N fitting u8", "N \"300\"")
    );

    // Set members by position.
    let it = item([("tags", AV::Ns(vec!["1".into(), "300".into()]))]);
    let err = decode::<BTreeSet<u8>>(&it, "tags").unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.expected.as_str()),
        ("tags[1]", "N fitting u8")
    );
    let err = decode::<BTreeSet<String>>(&it, "tags").unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.expected.as_str(), err.found.as_str()),
        ("tags", "SS (string set)", "NS (2 members)")
    );
    let it = item([("ids", AV::Ss(vec!["nope".into()]))]);
    let err = decode::<HashSet<Uuid>>(&it, "ids").unwrap_err();
    assert_eq!(err.path, "ids[0]");

    // Maps of lists of options.
    let it = item([(
        "m",
        AV::M([("k".to_owned(), AV::L(vec![AV::Null(true), AV::Bool(true)]))].into()),
    )]);
    let err = decode::<BTreeMap<String, Vec<Option<u32>>>>(&it, "m").unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.expected.as_str(), err.found.as_str()),
        ("m.k[1]", "N (number)", "BOOL true")
    );

    // Deep indexes.
    let it = item([("g", AV::L(vec![AV::L(vec![]), AV::L(vec![n("1"), s("x")])]))]);
    let err = decode::<Vec<Vec<i32>>>(&it, "g").unwrap_err();
    assert_eq!(err.path, "g[1][1]");
}

#[test]
fn errors_say_what_was_expected_and_found() {
    let cases: Vec<(Result<(), DecodeError>, &str, &str)> = vec![
        (
            decode::<String>(&item([("v", n("1"))]), "v").map(drop),
            "S (string)",
            "N \"1\"",
        ),
        (
            decode::<bool>(&item([("v", s("true"))]), "v").map(drop),
            "BOOL",
            "S \"true\"",
        ),
        (
            decode::<i32>(&item([("v", n("1.5"))]), "v").map(drop),
            "N fitting i32",
            "N \"1.5\"",
        ),
        (
            decode::<u32>(&item([("v", n("-1"))]), "v").map(drop),
            "N fitting u32",
            "N \"-1\"",
        ),
        (
            decode::<f64>(&item([("v", s("1"))]), "v").map(drop),
            "N (number)",
            "S \"1\"",
        ),
        (
            decode::<Blob>(&item([("v", s("x"))]), "v").map(drop),
            "B (binary)",
            "S \"x\"",
        ),
        (
            decode::<Vec<u8>>(&item([("v", AV::Bs(vec![]))]), "v").map(drop),
            "L (list)",
            "BS (0 members)",
        ),
        (
            decode::<HashMap<String, u8>>(&item([("v", AV::L(vec![n("1")]))]), "v").map(drop),
            "M (map)",
            "L (1 elements)",
        ),
        (
            decode::<BTreeSet<Vec<u8>>>(&item([("v", AV::Ss(vec![]))]), "v").map(drop),
            "BS (binary set)",
            "SS (0 members)",
        ),
        (
            decode::<Uuid>(&item([("v", s("A1B2C3D4-E5F6"))]), "v").map(drop),
            "S holding a uuid",
            "S \"A1B2C3D4-E5F6\"",
        ),
        (
            decode::<Date>(&item([("v", s("2026-02-30"))]), "v").map(drop),
            "S holding a date YYYY-MM-DD",
            "S \"2026-02-30\"",
        ),
        (
            decode::<OffsetDateTime>(&item([("v", n("1"))]), "v").map(drop),
            "S holding an instant (RFC 3339)",
            "N \"1\"",
        ),
        (
            decode::<Decimal>(&item([("v", AV::M(HashMap::new()))]), "v").map(drop),
            "N (number)",
            "M (0 entries)",
        ),
    ];
    for (r, expected, found) in cases {
        let err = r.unwrap_err();
        assert_eq!(err.path, "v");
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            (expected, found)
        );
    }
    // Long values are clipped in the message.
    let long = "x".repeat(100);
    let err = decode::<u8>(&item([("v", AV::S(long))]), "v").unwrap_err();
    assert_eq!(
        err.found,
        format!("S {:?}… (100 characters, 100 bytes)", "x".repeat(40))
    );
}

#[test]
fn instants_stored_as_utc_text() {
    let it = rt(datetime!(2026-07-16 11:12:00.123 +2));
    assert_eq!(it["v"], s("2026-07-16T09:12:00.123000000Z"));
    let it = rt(date!(2026 - 07 - 16));
    assert_eq!(it["v"], s("2026-07-16"));
    // An instant whose UTC form leaves the years 0000-9999 has no key text:
    // encoding does not panic, and reading it back is an error with its path.
    let mut it = Item::new();
    put_attr(&mut it, "v", &datetime!(9999-12-31 23:00 -5));
    let err = decode::<OffsetDateTime>(&it, "v").unwrap_err();
    assert_eq!(err.path, "v");
}
