// A sparse index takes an item only with both keys: setting one input
// needs the other; removing one (the item leaves) does not.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "PLAN#<plan>", sk = "SINCE#<since>", sparse)]
struct Subscriber {
    id: String,
    plan: Option<String>,
    since: Option<time::Date>,
}

fn subscribe(db: &Db) {
    let _ = db.update(Subscriber::update("s1").remove_since());
    let _ = db.update(Subscriber::update("s1").set_plan("pro"));
}

fn main() {}
