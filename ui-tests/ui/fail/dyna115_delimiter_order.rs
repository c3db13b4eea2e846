// A delimiter must sort below what values and literals hold.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "EMPLOYEE")]
#[pk("ORG#<org>")]
#[sk("SITE#<country>_<city># EMP#<number:d6>")]
struct Employee {
    org: String,
    country: String,
    city: String,
    number: u32,
}

fn main() {}
