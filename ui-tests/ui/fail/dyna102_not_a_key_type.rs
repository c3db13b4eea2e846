// A field type without a key text form fails through a trait bound whose
// message carries the code and points at the field.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<tags>")]
struct Doc {
    tags: Vec<String>,
}

fn main() {}
