// `schema = ".."` names a file that does not exist: DYNA500, at the path
// (relative to this file, as `include_str!` reads it). A missing default
// snapshot compiles: see ui/pass/table.rs.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
struct Note {
    id: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Note), schema = "src/helpdesk.schema")]
struct Helpdesk;

fn main() {}
