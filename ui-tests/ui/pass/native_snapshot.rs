// A native index in the schema snapshot: the runtime writes its fields
// (`native pk day`), and the table derive reads them back at compile time
// with no drift (a change would be DYNA504).
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d4>")]
#[gsi("ByDay", pk(day), sk(customer, n))]
#[gsi("ByCourier", pk(courier))]
struct Order {
    customer: String,
    n: u32,
    day: time::Date,
    #[dynamo(rename = "c")]
    courier: Option<String>,
}

#[derive(DynamoTable)]
#[dynamo(entities(Order), schema = "../schema/native_same.schema")]
struct Shop;

fn main() {
    if let Err(e) = Shop::check_schema() {
        panic!("{e}\n{}", Shop::schema());
    }
}
