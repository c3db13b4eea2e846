// Two placeholders with no literal between them cannot be parsed back.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "VOTE")]
#[pk("VOTES#<poll>")]
#[sk("<at><vote_id>")]
struct Vote {
    poll: String,
    at: time::OffsetDateTime,
    vote_id: uuid::Uuid,
}

fn main() {}
