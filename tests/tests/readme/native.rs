//! The README's native multi-attribute index keys: an order queried by
//! region and by status, time and total on the items' own attributes.

use dynakey::prelude::*;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq)]
enum Region {
    Eu,
    Us,
}

/// The README's block, with the orders it finds written first; returns
/// the totals found, and the orders of courier bob.
#[rustfmt::skip]
async fn native(db: &Db, t: OffsetDateTime) -> Result<(Vec<i64>, Vec<Uuid>), Box<dyn std::error::Error>> {
// README: "Native multi-attribute index keys".
#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("TENANT#<tenant>")]
#[sk("ORDER#<id>")]
#[gsi("ByRegion", pk(tenant, region), sk(status, placed_at, total))]
#[allow(clippy::duplicated_attributes)]               // `placed_at` in both: see below
#[gsi("ByCourier", pk(courier), sk(placed_at))]      // `courier: Option<String>`: sparse by absence
struct Order { tenant: String, id: Uuid, region: Region, status: String,
               placed_at: OffsetDateTime, total: i64, courier: Option<String> }

db.create_table(&[Order::META]).await?; // not in the README
for (i, total, region, courier) in [(1u128, -50i64, Region::Eu, None), (2, 7, Region::Eu, Some("bob")), (3, 101, Region::Eu, None), (4, 7, Region::Us, None)] { // not in the README
    db.put(&Order { tenant: "acme".into(), id: Uuid::from_u128(i), region, status: "open".into(), placed_at: t, total, courier: courier.map(Into::into) }).await?; // not in the README
} // not in the README
let open = db.query(Order::by_region_pk("acme", Region::Eu)?)
    .sk(Order::by_region_sk().status("open").placed_at(t).between(-100i64, 100i64)?)
    .all().await?;
let bob = db.query(Order::by_courier_pk("bob")?).all().await?; // not in the README
Ok((open.iter().map(|o| o.total).collect(), bob.iter().map(|o| o.id).collect())) // not in the README
}

#[tokio::test]
async fn native_keys_query_by_the_items_own_attributes() {
    let (_backend, db) = super::fresh(&[]).await;
    let t = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    let (totals, bob) = native(&db, t).await.unwrap();
    // Numbers in value order, negative ones first; 101 is out of range,
    // and the US order in another partition.
    assert_eq!(totals, [-50, 7]);
    // Only the order with a courier is in the sparse index.
    assert_eq!(bob, [Uuid::from_u128(2)]);
}
