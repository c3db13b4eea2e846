// A batch write takes no condition, so it cannot check a version.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "ACCOUNT")]
#[pk("ACCOUNT#<id>")]
struct Account {
    id: String,
    balance: i64,
    #[dynamo(version)]
    version: u64,
}

fn save(db: &Db, a: &Account) {
    let _ = db.batch_write().put(a);
}

fn main() {}
