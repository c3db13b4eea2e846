// A type without an S, N or B form, such as a nested map, cannot be a
// native key attribute (DYNA121, from the trait bound, at the field's type).
use dynakey::{DynamoEntity, DynamoValue};

#[derive(DynamoValue, Clone, Debug)]
struct Address {
    city: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
#[gsi("ByAddress", pk(address))]
struct User {
    id: String,
    address: Address,
}

fn main() {}
