// A unique value's scope names another stored field of the entity whose
// stored text is one per value.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("TENANT#<tenant>#MEMBER#<id>")]
struct Member {
    tenant: String,
    id: String,
    #[dynamo(unique(scope = tennant))]
    email: String,
    #[dynamo(unique(scope = handle))]
    handle: String,
    #[dynamo(unique(scope = score))]
    nick: String,
    score: f64,
    #[dynamo(unique(scope = crate::tenant))]
    phone: String,
}

fn main() {}
