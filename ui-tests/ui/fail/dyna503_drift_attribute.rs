// The address is stored under a new name: stored users read without it
// (DYNA503).
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d4>")]
#[gsi("GSI1", pk = "STATUS#<status>", sk = "<customer>#<n:d4>", sparse)]
struct Order {
    customer: String,
    n: u32,
    #[dynamo(omit_empty)]
    status: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("CUSTOMER#<customer>")]
#[sk("PROFILE")]
struct User {
    customer: String,
    email: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "SESSION")]
#[pk("CUSTOMER#<customer>")]
#[sk("SESSION#<id>")]
struct Session {
    customer: String,
    id: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Order, User, Session), schema = "../schema/shop.schema")]
struct Shop;

fn main() {}
