// A global index is eventually consistent: a consistent read of it does not
// compile (the table and local indexes have `.consistent()`).
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBERSHIP")]
#[pk("USER#<user_id>")]
#[sk("GROUP#<group_id>")]
#[gsi("GSI1", pk = "GROUP#<group_id>", sk = "USER#<user_id>")]
struct Membership {
    user_id: String,
    group_id: String,
}

fn read(db: &Db) {
    let _table = db.query(Membership::pk("alice").unwrap()).consistent();
    let _index = db.query(Membership::gsi1_pk("staff").unwrap()).consistent();
}

fn main() {}
