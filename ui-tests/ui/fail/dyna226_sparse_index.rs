// Each index key follows its own inputs: reassigning a task sets only the
// assignee (the partition key's one input), but a new due date needs the
// priority too, since both feed the sort key.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("TASK#<id>")]
#[sk("TASK")]
#[gsi("GSI1", pk = "ASSIGNEE#<assignee>", sk = "<due>#<priority:d1>", sparse)]
struct Task {
    id: String,
    assignee: Option<String>,
    due: time::Date,
    priority: u8,
}

fn reschedule(db: &Db) {
    let _ = db.update(Task::update("t1").set_assignee("bob"));
    let _ = db.update(Task::update("t1").set_due(time::macros::date!(2026 - 07 - 16)));
}

fn main() {}
