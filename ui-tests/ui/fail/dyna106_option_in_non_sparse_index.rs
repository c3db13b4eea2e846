// An Option input needs a sparse index.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "PLAN#<plan>", sk = "SINCE#<since>")]
struct Subscriber {
    id: String,
    plan: Option<String>,
    since: Option<time::Date>,
}

fn main() {}
