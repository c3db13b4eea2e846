// v2 of the shop fixture (`ui/schema/shop.schema`): every change that
// strands stored items is covered by a migration, and the others (a new
// entity, a new defaulted or optional field, a new index) strand nothing.
use dynakey::schema::Migration;
use dynakey::{DynamoEntity, DynamoTable};

/// The old order, kept beside the new one for the rekey.
#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d4>")]
struct OrderV1 {
    customer: String,
    n: u32,
    #[dynamo(omit_empty)]
    status: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d6>")]
#[gsi("GSI1", pk = "STATUS#<status>", sk = "<customer>#<n:d6>", sparse)]
struct Order {
    customer: String,
    n: u32,
    #[dynamo(omit_empty)]
    status: String,
}

impl From<OrderV1> for Order {
    fn from(o: OrderV1) -> Self {
        Order { customer: o.customer, n: o.n, status: o.status }
    }
}

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("CUSTOMER#<customer>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "EMAIL#<email>", sk = "PROFILE")]
struct User {
    customer: String,
    email: String,
    #[dynamo(default)]
    visits: u64,
    nickname: Option<String>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "CART")]
#[pk("CUSTOMER#<customer>")]
#[sk("CART")]
struct Cart {
    customer: String,
}

const MIGRATIONS: &[Migration] = &[
    Migration::rekey::<OrderV1, Order>("orders-d6"),
    Migration::rename_attribute::<User>("users-email", "mail", "email"),
    Migration::backfill::<User>("users-by-email"),
    Migration::drop_entity("sessions", "SESSION", "_type"),
];

#[derive(DynamoTable)]
#[dynamo(entities(Order, User, Cart), schema = "../schema/shop.schema", migrations = MIGRATIONS)]
struct Shop;

fn main() {
    assert!(Shop::check_schema().is_err(), "the snapshot predates v2");
}
