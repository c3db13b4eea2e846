// A placeholder that names no field, with a suggestion; the fallback impl
// keeps the use of the type below from adding errors.
use dynakey::{DynamoEntity, Entity};

#[derive(DynamoEntity)]
#[dynamo(entity = "EMPLOYEE")]
#[pk("ORG#<org>")]
#[sk("SITE#<cuntry>#<citty>#EMP#<number:d6>")]
struct Employee {
    org: String,
    country: String,
    city: String,
    number: u32,
}

fn uses<E: Entity>() {}

fn main() {
    uses::<Employee>();
}
