// Two entities of one table storing their discriminators in different
// attributes: a read of one could not tell the other's items apart.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
struct User {
    id: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "TEAM", discriminator_attr = "kind")]
#[pk("TEAM#<id>")]
struct Team {
    id: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(User, Team))]
struct Groups;

fn main() {}
