// A projection's fields are the entity's: same name, same type (or an
// Option of it).
use dynakey::{DynamoEntity, DynamoProjection};

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("TASK#<id>")]
struct Task {
    id: String,
    title: String,
    done: bool,
}

#[derive(DynamoProjection)]
#[dynamo(of = Task)]
struct WrongType {
    id: String,
    done: Option<u32>,
}

#[derive(DynamoProjection)]
#[dynamo(of = Task)]
struct NoSuchField {
    titel: String,
}

fn main() {}
