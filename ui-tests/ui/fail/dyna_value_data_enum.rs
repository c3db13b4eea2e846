// DynamoValue stores unit enums by name; data-carrying variants go through
// serde. The failed derive still provides `Attr`, so the entity that uses
// the enum adds no error of its own: one mistake, one error.
use dynakey::{DynamoEntity, DynamoValue};

#[derive(DynamoValue)]
enum Status {
    Open,
    Closed { reason: String },
}

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
struct Ticket {
    id: String,
    status: Status,
}

fn main() {}
