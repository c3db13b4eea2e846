// Valid inputs compile: every template shape and option in one place.
use dynakey::{DynamoEntity, DynamoValue, Entity};

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq)]
enum Status {
    Open,
    #[dynamo(rename = "closed")]
    Closed,
}

#[derive(DynamoValue, Debug, Clone, PartialEq)]
struct Address {
    street: String,
    zip: Option<String>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EMPLOYEE", discriminator_attr = "kind", pk_attr = "PK", sk_attr = "SK")]
#[pk("ORG#<org>")]
#[sk("SITE#<country>#<city>#EMP#<number:d6>")]
#[gsi("GSI1", pk = "TEAM#<team>", sk = "<status>#<delta:n4>#<amount:n8.2>#<at:rev>", pk_attr = "g1p", sk_attr = "g1s")]
#[gsi("FEATURED", pk = "FEATURED", sk = "<plan>", sparse)]
#[lsi("LSI1", sk = "HIRED#<hired_on>")]
struct Employee {
    org: String,
    country: String,
    city: String,
    number: u32,
    team: String,
    status: Status,
    delta: i16,
    amount: rust_decimal::Decimal,
    at: time::OffsetDateTime,
    hired_on: time::Date,
    #[dynamo(omit_empty)]
    plan: String,
    #[dynamo(rename = "addr")]
    address: Option<Address>,
    #[dynamo(skip)]
    cache: Vec<u8>,
    #[dynamo(ttl)]
    expires: Option<time::OffsetDateTime>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "COUNTER")]
#[pk("<name>")]
struct Counter {
    name: String,
    value: u64,
}

fn main() {
    let _ = Employee::key("acme", "CH", "Zurich", 42u32);
    let _ = Employee::gsi1_pk("red");
    let _ = Employee::featured_pk();
    let _ = Employee::lsi1_pk("acme");
    let _ = Employee::gsi1_sk().status(Status::Open).delta(-3).begins_with();
    let _ = Counter::key("visits");
    assert_eq!(Employee::META.discriminator_attr, "kind");
    assert_eq!(<Counter as Entity>::META.sk.is_none(), true);
}
