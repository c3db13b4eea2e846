// A sparse index whose inputs are all required would hold every item.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "PLAN#<plan>", sparse)]
struct Subscriber {
    id: String,
    plan: String,
}

fn main() {}
