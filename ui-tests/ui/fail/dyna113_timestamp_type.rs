// A timestamp the runtime writes is an instant: `time::OffsetDateTime`, or
// an Option of one, stored as plain RFC 3339 text.
use dynakey::DynamoEntity;
use time::OffsetDateTime;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
struct Doc {
    id: String,
    #[dynamo(created_at)]
    created: String,
    #[dynamo(updated_at, ttl)]
    updated: OffsetDateTime,
}

fn main() {}
