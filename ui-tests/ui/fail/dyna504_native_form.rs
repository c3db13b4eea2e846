// An index that changes form, from templates to a native key (DYNA504), or
// to other native attributes (DYNA504), needs its migration: `sync_table`
// adds the new index and a backfill moves what stored items hold.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d4>")]
#[gsi("ByStatus", pk(status), sk(n))]
#[gsi("ByDay", pk(day), sk(customer, n))]
struct Order {
    customer: String,
    n: u32,
    status: String,
    day: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Order), schema = "../schema/native.schema")]
struct Shop;

fn main() {}
