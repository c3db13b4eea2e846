// Two fields stored in one attribute: one value would overwrite the other
// in every item. Each collision is its own error, at the later field, and
// the same holds in a nested DynamoValue.
use dynakey::{DynamoEntity, DynamoValue};

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
struct Member {
    user_id: String,
    mail: String,
    #[dynamo(rename = "mail")]
    email: String,
    #[dynamo(rename = "addr")]
    home: String,
    #[dynamo(rename = "addr")]
    work: String,
}

#[derive(DynamoValue)]
struct Address {
    #[dynamo(rename = "zip")]
    postcode: String,
    zip: String,
}

fn main() {}
