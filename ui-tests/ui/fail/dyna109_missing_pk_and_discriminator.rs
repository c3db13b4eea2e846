// No partition key, no discriminator: both reported.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[sk("PROFILE")]
struct Member {
    user_id: String,
}

fn main() {}
