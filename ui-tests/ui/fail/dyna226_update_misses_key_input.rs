// The seed's `{Status}#{CreatedAt}`: closing an item must also set
// `created_at` (its stored value), or the index sort key cannot be rebuilt.
use dynakey::{Db, DynamoEntity, DynamoValue};

#[derive(DynamoValue, Clone, Copy)]
enum Status {
    Open,
    Closed,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "WORK_ITEM")]
#[pk("ITEM#<id>")]
#[sk("DATA")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<created_at>")]
struct WorkItem {
    id: String,
    owner: String,
    status: Status,
    created_at: time::OffsetDateTime,
}

fn close(db: &Db) {
    let _ = db.update(WorkItem::update("w1").set_status(Status::Closed));
    let _ = Status::Open;
}

fn main() {}
