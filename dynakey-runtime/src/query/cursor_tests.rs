//! Cursors at the byte level: a round trip, and every way of altering one
//! refused; forged payloads that carry a valid tag (as if the key leaked)
//! refused by the field checks. The reads that take them are tested in
//! `tests/tests/cursors.rs`.

use super::*;
use proptest::prelude::*;

use crate::error::RefusedReason;

fn scope(pk: &str) -> Scope {
    let mut cx = Placeholders::default();
    let n = cx.name("pk");
    let v = cx.value(AttributeValue::S(pk.into()));
    let kc = format!("{n} = {v}");
    Scope::query(
        QueryScope {
            table: "t",
            index: None,
            key_condition: &kc,
            filter: None,
            projection: None,
            forward: true,
            partition: &[("pk", AttributeValue::S(pk.into()))],
            sort: Some(("sk", &SortKeyOp::BeginsWith("NOTE#".into()))),
        },
        &cx,
        vec!["pk", "sk"],
    )
}

fn key(pk: &str, sk: &str) -> Item {
    Item::from([
        ("pk".to_owned(), AttributeValue::S(pk.into())),
        ("sk".to_owned(), AttributeValue::S(sk.into())),
    ])
}

fn at(pk: &str, sk: &str) -> Position {
    Position::At(Some(key(pk, sk)))
}

/// A cursor whose payload is `payload`, tagged as `scopes` would tag it:
/// what an attacker who held the key could make.
fn signed(k: &CursorKey, scopes: &[&Scope], payload: &str) -> String {
    let tag = k.tag(&tagged(scopes, payload.as_bytes()));
    let mut bytes = tag.to_vec();
    bytes.extend_from_slice(payload.as_bytes());
    b64(&bytes)
}

#[test]
fn a_cursor_reads_back_under_its_read_and_key() {
    for s in ["", "a", "ab", "abc", "abcd", "USER#älice/ü"] {
        assert_eq!(unb64(&b64(s.as_bytes())).unwrap(), s.as_bytes());
    }
    let k = CursorKey::random();
    let (a, b) = (scope("USER#a"), scope("USER#b"));
    let lanes = [at("USER#a", "NOTE#1"), Position::At(None), Position::Done];
    let scopes = [&a, &b, &a];
    let c = encode_cursor(&k, &scopes, &lanes, 12);
    assert!(c
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert_eq!(
        decode_cursor(&k, &scopes, None, &c).unwrap(),
        (lanes.to_vec(), 12)
    );
    // Another read, another lane count, another key: refused.
    for (scopes, key) in [
        (&[&b, &b, &a][..], &k),
        (&[&a, &b][..], &k),
        (&scopes[..], &CursorKey::random()),
    ] {
        let err = decode_cursor(key, scopes, None, &c).unwrap_err();
        assert!(
            err.to_string().contains("was not made by this read"),
            "{err}"
        );
    }
    assert!(decode_cursor(&k, &scopes, None, "!!").is_err());
    assert!(decode_cursor(&k, &scopes, None, "").is_err());
}

#[test]
fn forged_fields_are_refused_even_with_a_valid_tag() {
    let k = CursorKey::random();
    let s = scope("USER#a");
    let scopes = [&s];
    let ok = r#"{"n":2,"l":[{"pk":{"S":"USER#a"},"sk":{"S":"NOTE#2"}}]}"#;
    assert!(decode_cursor(&k, &scopes, Some(5), &signed(&k, &scopes, ok)).is_ok());
    for (payload, why) in [
        (r#"{"n":18446744073709551615,"l":[null]}"#, "limit"),
        (r#"{"n":6,"l":[null]}"#, "limit"),
        (r#"{"n":-1,"l":[null]}"#, "malformed"),
        (r#"{"n":1.5,"l":[null]}"#, "malformed"),
        (r#"{"l":[null]}"#, "malformed"),
        (r#"{"n":0,"l":[]}"#, "partition(s)"),
        (r#"{"n":0,"l":[true]}"#, "malformed"),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#b"},"sk":{"S":"NOTE#2"}}]}"#,
            "partition",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#a"},"sk":{"S":"OTHER#2"}}]}"#,
            "sort-key range",
        ),
        (r#"{"n":0,"l":[{"pk":{"S":"USER#a"}}]}"#, "not a key"),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#a"},"sk":{"S":"NOTE#2"},"x":{"S":"1"}}]}"#,
            "not a key",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#a"},"sk":{"N":"2"}}]}"#,
            "sort-key range",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"N":"1"},"sk":{"S":"NOTE#2"}}]}"#,
            "partition",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#a"},"sk":{"N":"1E999"}}]}"#,
            "not a key",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#a"},"sk":{"S":""}}]}"#,
            "not a key",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"S":"USER#a"},"sk":{"S":"NOTE#2","N":"1"}}]}"#,
            "malformed",
        ),
        (
            r#"{"n":0,"l":[{"pk":{"X":"USER#a"},"sk":{"S":"NOTE#2"}}]}"#,
            "malformed",
        ),
        (r#"[1,2]"#, "malformed"),
        (r#"not json"#, "malformed"),
    ] {
        let c = signed(&k, &scopes, payload);
        let err = decode_cursor(&k, &scopes, Some(5), &c).unwrap_err();
        assert!(
            matches!(&err, Error::Refused { reason: RefusedReason::ForeignCursor, message } if message.contains(why)),
            "{payload}: {err}"
        );
    }
}

/// The scope of a native index read of partition `shop = "acme"` whose
/// first sort attribute, `price`, is a number, under `op`.
fn native_scope(op: &SortKeyOp) -> Scope {
    let mut cx = Placeholders::default();
    let n = cx.name("shop");
    let v = cx.value(AttributeValue::S("acme".into()));
    let kc = format!("{n} = {v}");
    Scope::query(
        QueryScope {
            table: "t",
            index: Some("ByPrice"),
            key_condition: &kc,
            filter: None,
            projection: None,
            forward: true,
            partition: &[("shop", AttributeValue::S("acme".into()))],
            sort: Some(("price", op)),
        },
        &cx,
        vec!["pk", "sk", "shop", "price"],
    )
}

fn native_key(shop: &str, price: AttributeValue) -> Item {
    Item::from([
        ("pk".to_owned(), AttributeValue::S("P#1".into())),
        ("sk".to_owned(), AttributeValue::S("P".into())),
        ("shop".to_owned(), AttributeValue::S(shop.into())),
        ("price".to_owned(), price),
    ])
}

#[test]
fn each_kind_of_sort_condition_takes_the_start_keys_it_selects() {
    use crate::key::{NativeRange, NativeSortOp};
    let k = CursorKey::random();
    let n = |x: &str| AttributeValue::N(x.into());
    let ge_2 = SortKeyOp::Native(NativeSortOp {
        eq: vec![],
        range: Some(("price", NativeRange::Ge(n("2")))),
    });
    // (condition, start key's price, shop, taken?)
    for (op, price, shop, ok) in [
        // Every key of the partition: a number sort attribute is a key of it.
        (SortKeyOp::All, n("12.5"), "acme", true),
        (SortKeyOp::All, n("-3"), "acme", true),
        (
            SortKeyOp::All,
            AttributeValue::B(Blob::new(vec![1])),
            "acme",
            true,
        ),
        (SortKeyOp::All, n("1"), "other", false),
        (ge_2.clone(), n("2"), "acme", true),
        (ge_2.clone(), n("1.5"), "acme", false),
        (ge_2, AttributeValue::S("9".into()), "acme", false),
        // Nothing selected: no start key is one of its keys.
        (SortKeyOp::Empty, n("1"), "acme", false),
        // A template comparison reads an S sort key only.
        (SortKeyOp::Ge("1".into()), n("5"), "acme", false),
        (
            SortKeyOp::Ge("1".into()),
            AttributeValue::S("5".into()),
            "acme",
            true,
        ),
    ] {
        let s = native_scope(&op);
        let scopes = [&s];
        let lanes = [Position::At(Some(native_key(shop, price.clone())))];
        let c = encode_cursor(&k, &scopes, &lanes, 1);
        let got = decode_cursor(&k, &scopes, None, &c);
        assert_eq!(got.is_ok(), ok, "{op:?} at {price:?} of {shop}: {got:?}");
        if let Ok((l, _)) = got {
            assert_eq!(l, lanes.to_vec());
        }
    }
}

proptest! {
    /// Any change to any byte of a cursor, or any cut or addition, is
    /// refused; a change that leaves the text equal reads as before.
    #[test]
    fn every_altered_byte_is_refused(
        at_byte in any::<prop::sample::Index>(),
        to in any::<u8>(),
        cut in any::<bool>(),
        grow in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        let k = CursorKey::random();
        let s = scope("USER#a");
        let scopes = [&s];
        let c = encode_cursor(&k, &scopes, &[at("USER#a", "NOTE#000007")], 3);
        let mut bytes = c.clone().into_bytes();
        let i = at_byte.index(bytes.len());
        if cut {
            bytes.truncate(i);
        } else {
            bytes[i] = to;
        }
        bytes.extend(grow);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let got = decode_cursor(&k, &scopes, Some(10), &text);
        if text == c {
            prop_assert!(got.is_ok());
        } else {
            prop_assert!(matches!(got, Err(Error::Refused { reason: RefusedReason::ForeignCursor, .. })), "{:?} took {:?}", text, got);
        }
    }
}
