// Native multi-attribute index keys: the partition from every partition
// attribute, then sort attributes fixed in order and one comparison on the
// next, each typed by its field (a `&str` for a `String`); raw identifiers
// and unit enums as attributes; an optional field makes the index sparse.
use dynakey::entity::IndexKind;
use dynakey::{DynamoEntity, DynamoValue, Entity, KeyAttrType, TypedUpdate};

#[derive(DynamoValue, Clone, Copy, Debug, PartialEq)]
enum Region {
    Eu,
    Us,
}

#[derive(DynamoEntity, Debug)]
#[dynamo(entity = "ORDER")]
#[pk("TENANT#<tenant>")]
#[sk("ORDER#<id>")]
#[gsi("ByRegion", pk(tenant, region), sk(status, placed_at, total))]
#[gsi("ByCourier", pk(courier), sk(r#type), projection = "KEYS_ONLY")]
struct Order {
    tenant: String,
    id: uuid::Uuid,
    region: Region,
    status: String,
    placed_at: time::OffsetDateTime,
    total: i64,
    courier: Option<String>,
    r#type: Region,
}

fn main() -> Result<(), dynakey::KeyFormatError> {
    let t = time::OffsetDateTime::UNIX_EPOCH;
    let _ = Order::by_region_pk("acme", Region::Eu)?;
    let _ = Order::by_region_pk(String::from("acme"), &Region::Us)?;
    let _ = Order::by_region_sk().begins_with("op")?;
    let _ = Order::by_region_sk().status("open").gt(t)?;
    let _ = Order::by_region_sk().status("open").placed_at(t).between(-5i64, 5i64)?;
    let _ = Order::by_region_sk().status("open").placed_at(t).total(-1i64).eq()?;
    let _ = Order::by_courier_pk("bob")?;
    let _ = Order::by_courier_sk().r#type(Region::Eu).eq()?;
    let _ = Order::by_courier_sk().begins_with("E")?;
    let ix = Order::META.index("ByRegion").unwrap();
    assert_eq!(ix.kind, IndexKind::Global);
    assert!(ix.native().is_some());
    assert!(!ix.sparse);
    assert!(Order::META.index("ByCourier").unwrap().sparse);
    let attrs: Vec<_> = ix.native().unwrap().attrs().map(|a| (a.attr, a.ty)).collect();
    assert_eq!(
        attrs,
        [
            ("tenant", KeyAttrType::S),
            ("region", KeyAttrType::S),
            ("status", KeyAttrType::S),
            ("placed_at", KeyAttrType::S),
            ("total", KeyAttrType::N)
        ]
    );
    // No DYNA226 for native keys: DynamoDB rebuilds them itself.
    let _ = Order::update("acme", uuid::Uuid::nil()).set_status("done").into_parts();
    let _ = Order::update("acme", uuid::Uuid::nil()).remove_courier().into_parts();
    Ok(())
}
