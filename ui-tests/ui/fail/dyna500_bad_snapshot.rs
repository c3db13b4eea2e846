// A snapshot that cannot be read (DYNA500).
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
    #[dynamo(rename = "mail")]
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
#[dynamo(entities(Order, User, Session), schema = "../schema/broken.schema")]
struct Shop;

fn main() {}
