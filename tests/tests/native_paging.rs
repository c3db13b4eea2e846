//! Paging native index reads whose first sort attribute is a number (a
//! decimal, an integer): every read form takes back the cursors it hands
//! out — with no sort condition, with "every key of the partition"
//! (`.eq()` at depth zero), with a range on the first attribute and with
//! the first attribute fixed — one item a page, ascending and descending,
//! of one partition, merged across partitions (`query_many`) and of a
//! union (`of::<..>()`), on every backend. Each walk reads exactly what
//! the same read returns in one go.

// Two native indexes over the same attributes (`shop`, `name`): clippy reads
// the repeated names inside two `#[gsi]` attributes as one attribute twice.
#![allow(clippy::duplicated_attributes)]

use dynakey::key::CondResult;
use dynakey::prelude::*;
use dynakey::{Db, Global};
use rust_decimal::Decimal;
use uuid::Uuid;

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Alpha,
    Beta,
}

/// `ByShop` sorted by a decimal, `ByCount` by a signed integer.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PRICE")]
#[pk("PRICE#<id>")]
#[sk("PRICE")]
#[gsi("ByShop", pk(shop, kind), sk(price, name))]
#[gsi("ByCount", pk(shop), sk(count, name))]
struct Price {
    id: u32,
    shop: String,
    kind: Kind,
    price: Decimal,
    count: i64,
    name: String,
}

/// Another entity on `ByShop`: a union reads both in one order.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "OFFER")]
#[pk("OFFER#<id>")]
#[sk("OFFER")]
#[gsi("ByShop", pk(shop, kind), sk(price, name))]
struct Offer {
    id: u32,
    shop: String,
    kind: Kind,
    price: Decimal,
    name: String,
}

#[derive(DynamoUnion, Debug, Clone, PartialEq)]
enum Listing {
    Price(Price),
    Offer(Offer),
}

/// -1.5, 0, 2.25, 1.0 and 1.00 (one number, two scales).
const PRICES: [(i64, u32); 5] = [(-15, 1), (0, 0), (225, 2), (10, 1), (100, 2)];
const COUNTS: [i64; 5] = [i64::MIN, -3, 0, 7, 7];

fn prices() -> Vec<Price> {
    (0..10u32)
        .map(|i| {
            let n = i as usize;
            let (m, scale) = PRICES[n % 5];
            Price {
                id: i,
                shop: "acme".into(),
                kind: [Kind::Alpha, Kind::Beta][n / 5],
                price: Decimal::new(m, scale),
                count: COUNTS[n % 5],
                name: format!("p{i}"),
            }
        })
        .collect()
}

fn offers() -> Vec<Offer> {
    (0..3u32)
        .map(|i| Offer {
            id: 100 + i,
            shop: "acme".into(),
            kind: Kind::Alpha,
            price: Decimal::new([-20, 10, 500][i as usize], 1),
            name: format!("o{i}"),
        })
        .collect()
}

async fn table() -> (dynakey::local::Backend, Db) {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("native_paging_{}", Uuid::new_v4().simple()));
    db.create_table(&[Price::META, Offer::META]).await.unwrap();
    for p in prices() {
        db.put(&p).await.unwrap();
    }
    for o in offers() {
        db.put(&o).await.unwrap();
    }
    (backend, db)
}

/// Every page of `$q` (one item each), following the cursors, and the
/// number of pages read.
macro_rules! walk {
    ($q:expr) => {{
        let q = $q;
        let (mut items, mut cursor, mut pages) = (Vec::new(), None::<String>, 0usize);
        loop {
            let p = q
                .page(cursor.as_deref())
                .await
                .unwrap_or_else(|e| panic!("page {} of {}: {e}", pages + 1, stringify!($q)));
            assert!(p.items.len() <= 1);
            items.extend(p.items);
            pages += 1;
            match p.cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        (items, pages)
    }};
}

fn names(v: &[Price]) -> Vec<&str> {
    v.iter().map(|p| p.name.as_str()).collect()
}

/// The `ByShop` conditions: every key, a range on the decimal, the
/// decimal fixed.
fn shop_conds() -> Vec<(&'static str, Option<CondResult<Price, Global>>)> {
    let s = Price::by_shop_sk;
    vec![
        ("no condition", None),
        ("every key (.eq() at depth zero)", Some(s().eq())),
        (".ge(0)", Some(s().ge(Decimal::ZERO))),
        (".lt(1)", Some(s().lt(Decimal::ONE))),
        (
            ".price(1.0).eq()",
            Some(s().price(Decimal::new(10, 1)).eq()),
        ),
        (
            ".price(1).ge(\"p4\")",
            Some(s().price(Decimal::ONE).ge("p4")),
        ),
    ]
}

fn count_conds() -> Vec<(&'static str, Option<CondResult<Price, Global>>)> {
    let s = Price::by_count_sk;
    vec![
        ("no condition", None),
        ("every key (.eq() at depth zero)", Some(s().eq())),
        (".ge(-3)", Some(s().ge(-3i64))),
        (".between(MIN, 0)", Some(s().between(i64::MIN, 0i64))),
        (".count(7).eq()", Some(s().count(7i64).eq())),
    ]
}

#[tokio::test]
async fn a_decimal_first_sort_attribute_pages_under_every_condition() {
    let (_b, db) = table().await;
    for (what, cond) in shop_conds() {
        for descending in [false, true] {
            let mut q = db.query(Price::by_shop_pk("acme", Kind::Alpha).unwrap());
            if let Some(c) = &cond {
                q = q.sk(c.clone().unwrap());
            }
            if descending {
                q = q.descending();
            }
            let whole = q.all().await.unwrap();
            let (paged, pages) = walk!(q.clone().page_size(1));
            assert_eq!(
                names(&paged),
                names(&whole),
                "{what}, descending {descending}"
            );
            assert!(pages >= whole.len(), "{what}: {pages} pages");
            // The union of both entities on the index, in one order.
            let whole = q.clone().of::<Listing>().all().await.unwrap();
            let (paged, _) = walk!(q.clone().of::<Listing>().page_size(1));
            assert_eq!(paged, whole, "of::<Listing>() {what}");
        }
    }
    // Three items under `.eq()` at depth zero: the read.
    let every = Price::by_shop_sk().eq().unwrap();
    let q = db
        .query(Price::by_shop_pk("acme", Kind::Alpha).unwrap())
        .sk(every.clone());
    let (paged, _) = walk!(q.clone().page_size(1));
    assert_eq!(names(&paged), ["p0", "p1", "p3", "p4", "p2"]);
    let (union, _) = walk!(q.of::<Listing>().page_size(1));
    assert_eq!(union.len(), 8);
}

#[tokio::test]
async fn an_integer_first_sort_attribute_pages_under_every_condition() {
    let (_b, db) = table().await;
    for (what, cond) in count_conds() {
        for descending in [false, true] {
            let mut q = db.query(Price::by_count_pk("acme").unwrap());
            if let Some(c) = &cond {
                q = q.sk(c.clone().unwrap());
            }
            if descending {
                q = q.descending();
            }
            let whole = q.all().await.unwrap();
            assert!(!whole.is_empty(), "{what}");
            let (paged, pages) = walk!(q.page_size(1));
            assert_eq!(
                names(&paged),
                names(&whole),
                "{what}, descending {descending}"
            );
            assert!(pages >= whole.len(), "{what}: {pages} pages");
        }
    }
}

#[tokio::test]
async fn merged_reads_of_number_first_sort_keys_page_through_their_cursors() {
    let (_b, db) = table().await;
    let pks = || [Kind::Alpha, Kind::Beta].map(|k| Price::by_shop_pk("acme", k).unwrap());
    for (what, cond) in shop_conds() {
        let mut q = db.query_many(pks());
        if let Some(c) = &cond {
            q = q.sk(c.clone().unwrap());
        }
        let whole = q.all().await.unwrap();
        let (paged, _) = walk!(q.clone().page_size(1));
        assert_eq!(names(&paged), names(&whole), "query_many {what}");
        let whole = q.clone().of::<Listing>().all().await.unwrap();
        let (paged, _) = walk!(q.clone().of::<Listing>().page_size(1));
        assert_eq!(paged, whole, "query_many of::<Listing>() {what}");
    }
    let every = db
        .query_many(pks())
        .sk(Price::by_shop_sk().eq().unwrap())
        .page_size(1);
    let (paged, pages) = walk!(every);
    assert_eq!(paged.len(), 10);
    assert!(pages >= 10, "{pages}");
}
