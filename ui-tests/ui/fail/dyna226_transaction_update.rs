// The rule of DYNA226 holds in a transaction too: the update of a due date
// without the priority that shares its sort key does not compile.
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
    let _ = db
        .transact_write()
        .update(Task::update("t1").set_due(time::macros::date!(2026 - 07 - 16)));
}

fn main() {
    let _ = reschedule;
}
