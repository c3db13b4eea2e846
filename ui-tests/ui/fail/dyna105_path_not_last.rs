// A `path` keeps its text as it is, so nothing may follow it; and a text
// field's delimiter must sort below `0` (`:` may follow a fixed-width one).
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("T#<tenant>")]
#[sk("F#<folder:path>#<n:d4>")]
#[gsi("GSI1", pk = "T:<tenant>:<n:d4>", sk = "<n:d4>:<folder>")]
struct Doc {
    tenant: String,
    folder: String,
    n: u32,
}

fn main() {}
