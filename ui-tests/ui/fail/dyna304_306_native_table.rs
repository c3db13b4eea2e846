// Across a table: entities sharing a native index give it the same
// attributes of the same types (DYNA304), and an attribute is one type in
// every key of the table (DYNA306).
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("ORDER#<id>")]
#[gsi("ByRegion", pk(region), sk(placed))]
#[gsi("ByCode", pk(code))]
struct Order {
    id: String,
    region: String,
    placed: u64,
    code: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "REFUND")]
#[pk("REFUND#<id>")]
#[gsi("ByRegion", pk(region), sk(placed))]
struct Refund {
    id: String,
    region: String,
    placed: time::OffsetDateTime,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "COUPON")]
#[pk("COUPON#<id>")]
#[gsi("ByAmount", pk(code))]
struct Coupon {
    id: String,
    code: u32,
}

#[derive(DynamoTable)]
#[dynamo(entities(Order, Refund))]
struct Shop;

#[derive(DynamoTable)]
#[dynamo(entities(Order, Coupon))]
struct Promotions;

fn main() {}
