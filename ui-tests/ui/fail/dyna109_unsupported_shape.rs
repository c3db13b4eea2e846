// Entities are structs with named fields.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "PAIR")]
#[pk("PAIR#<0>")]
struct Pair(String, String);

fn main() {}
