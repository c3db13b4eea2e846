// One field per timestamp, and one timestamp per field.
use dynakey::DynamoEntity;
use time::OffsetDateTime;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
struct Doc {
    id: String,
    #[dynamo(created_at)]
    created: Option<OffsetDateTime>,
    #[dynamo(created_at)]
    first_seen: Option<OffsetDateTime>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
struct Note {
    id: String,
    #[dynamo(created_at, updated_at)]
    stamp: Option<OffsetDateTime>,
}

fn main() {}
