// A format that does not fit the field's type.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("USER#<name:d6>")]
#[sk("SEEN#<seen:n4.2>")]
struct User {
    name: String,
    seen: i64,
}

fn main() {}
