// An option given twice is an error, not a silent override.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "A")]
#[dynamo(entity = "B")]
#[pk("A#<id>")]
#[pk("B#<id>")]
#[gsi("GSI1", pk = "X#<id>", pk = "Y#<id>")]
struct Dup {
    #[dynamo(rename = "x", rename = "y")]
    id: String,
}

fn main() {}
