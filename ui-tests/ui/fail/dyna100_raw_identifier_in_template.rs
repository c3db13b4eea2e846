// A template names a raw-identifier field without `r#`: `<type>` for
// `r#type`. Written with `r#`, it is DYNA100 with the fix.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<r#type>")]
struct Ticket {
    r#type: String,
}

fn main() {}
