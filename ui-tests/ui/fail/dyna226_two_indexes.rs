// One update, two indexes, each missing an input: both are reported.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("ORDER#<id>")]
#[gsi("GSI1", pk = "CUSTOMER#<customer>", sk = "<status>#<placed>")]
#[gsi("GSI2", pk = "REGION#<region>", sk = "<status>#<total:d8>")]
struct Order {
    id: String,
    customer: String,
    region: String,
    status: String,
    placed: time::Date,
    total: u32,
}

fn ship(db: &Db) {
    let _ = db.update(Order::update("o1").set_status("shipped"));
}

fn main() {}
