// A table listing its entities.
#[derive(DynamoTable)]
#[dynamo(entities(Member, Team))]
pub struct Shop;
