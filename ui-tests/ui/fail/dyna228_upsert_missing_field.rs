// An upsert creates the item when it is missing, so it sets every field a
// new item needs: here the owner, which reading the item back requires.
// Each missing field is its own error (the title in the second upsert).
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
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<id>")]
struct WorkItem {
    id: String,
    owner: String,
    status: Status,
    note: Option<String>,
    title: String,
}

fn open(db: &Db) {
    let _ = db.update(WorkItem::upsert("w1").set_status(Status::Open));
    let _ = db.update(WorkItem::upsert("w2").set_owner("ann"));
    let _ = Status::Closed;
}

fn main() {}
