// An index that does not hold whole items cannot be read as the entity:
// read its keys, or hydrate the whole items behind them.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("TASK#<id>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "TASK#<id>", projection = "KEYS_ONLY")]
struct Task {
    id: String,
    owner: String,
    body: String,
}

async fn read(db: &Db) {
    let _ = db.query(Task::gsi1_pk("ann").unwrap()).all().await;
}

// Awaiting the query itself (its `all()`) is the same mistake.
async fn read_awaited(db: &Db) {
    let _ = db.query(Task::gsi1_pk("ann").unwrap()).await;
}

fn main() {
    let _ = (read, read_awaited);
}
