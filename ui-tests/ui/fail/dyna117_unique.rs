// A unique value needs one stored text per value, and a table-key field is
// one item per value already.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
struct User {
    #[dynamo(unique)]
    id: String,
    #[dynamo(unique)]
    score: f64,
    #[dynamo(unique, serde)]
    email: String,
}

fn main() {}
