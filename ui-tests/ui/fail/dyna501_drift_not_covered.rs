// The sort key widened from d4 to d6 and the table has migrations, but
// none rekeys `Order`: DYNA501 still, at the entity in `entities(..)`.
use dynakey::schema::Migration;
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d6>")]
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

const MIGRATIONS: &[Migration] = &[Migration::backfill::<User>("users")];

#[derive(DynamoTable)]
#[dynamo(entities(Order, User, Session), schema = "../schema/shop.schema", migrations = MIGRATIONS)]
struct Shop;

fn main() {}
