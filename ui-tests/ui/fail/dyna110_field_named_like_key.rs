// A field stored under a key or discriminator attribute name.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
#[gsi("GSI1", pk = "NAME#<name>")]
struct Member {
    user_id: String,
    name: String,
    pk: String,
    #[dynamo(rename = "gsi1pk")]
    alias: String,
}

fn main() {}
