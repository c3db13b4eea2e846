// The runtime writes a timestamp at the time of the write, after the keys
// are built from the value: it cannot feed a key.
use dynakey::DynamoEntity;
use time::OffsetDateTime;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[gsi("GSI1", pk = "RECENT", sk = "<updated>#<id>")]
struct Doc {
    id: String,
    #[dynamo(updated_at)]
    updated: OffsetDateTime,
}

fn main() {}
