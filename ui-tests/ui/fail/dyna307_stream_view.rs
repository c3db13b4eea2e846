// A table's stream view is one of DynamoDB's four.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
pub struct Note {
    id: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Note), stream = "NEW_AND_OLD")]
pub struct Notes;

fn main() {}
