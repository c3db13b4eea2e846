// Unknown options, with a suggestion.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER", discriminator = "kind")]
#[pk("USER#<user_id>")]
#[gsi("GSI1", pk = "NAME#<name>", spare)]
struct Member {
    user_id: String,
    #[dynamo(omit_emtpy)]
    name: String,
}

fn main() {}
