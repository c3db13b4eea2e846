// An option with a value of the wrong kind: darling's own error, in its
// words, beside the options the derive screens out itself (an unknown one
// here), all in one build.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
struct Member {
    user_id: String,
    #[dynamo(rename = 5, omit_emtpy)]
    name: String,
}

fn main() {}
