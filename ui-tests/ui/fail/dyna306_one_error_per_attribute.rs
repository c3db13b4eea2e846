// One attribute with two types among a table's keys is one mistake, so one
// error: `code` is S in `Order` and N in both `Coupon` and `Voucher`, and
// only the first pair that disagrees on it is reported.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("ORDER#<id>")]
#[gsi("ByCode", pk(code))]
struct Order {
    id: String,
    code: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "COUPON")]
#[pk("COUPON#<id>")]
#[gsi("ByAmount", pk(code))]
struct Coupon {
    id: String,
    code: u32,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "VOUCHER")]
#[pk("VOUCHER#<id>")]
#[gsi("ByValue", pk(code))]
struct Voucher {
    id: String,
    code: u64,
}

#[derive(DynamoTable)]
#[dynamo(entities(Order, Coupon, Voucher))]
struct Promotions;

fn main() {}
