// A field stored through serde cannot be a key part.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<meta>")]
struct Doc {
    #[dynamo(serde)]
    meta: String,
}

fn main() {}
