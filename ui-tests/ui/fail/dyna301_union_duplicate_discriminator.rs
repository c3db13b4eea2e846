// Two variants whose entities share a discriminator could never be told apart.
use dynakey::{DynamoEntity, DynamoUnion};

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
#[sk("PROFILE")]
struct Member {
    user_id: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
#[sk("GROUP#<group_id>")]
struct Membership {
    user_id: String,
    group_id: String,
}

#[derive(DynamoUnion)]
enum UserPartition {
    Member(Member),
    Membership(Membership),
}

fn main() {}
