// A unique value scoped by a table-key field and by another field.
use dynakey::{DynamoEntity, Entity};

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("TENANT#<tenant>#MEMBER#<id>")]
struct Member {
    tenant: String,
    id: String,
    #[dynamo(unique(scope = tenant))]
    email: String,
    team: Option<String>,
    #[dynamo(unique(scope = team), rename = "h")]
    handle: Option<String>,
    #[dynamo(unique)]
    login: String,
}

fn main() {
    assert_eq!(Member::META.unique, ["email", "h", "login"]);
    assert_eq!(Member::META.unique_scopes, [("email", "tenant"), ("h", "team")]);
}
