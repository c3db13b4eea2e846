// DynamoValue stores unit enums by name; data-carrying variants go through serde.
use dynakey::DynamoValue;

#[derive(DynamoValue)]
enum Status {
    Open,
    Closed { reason: String },
}

fn main() {}
