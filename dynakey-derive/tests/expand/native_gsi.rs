// An entity with a native multi-attribute global index: DynamoDB builds
// its keys from the fields' own attributes.
#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("TENANT#<tenant>")]
#[sk("ORDER#<id>")]
#[gsi("ByRegion", pk(tenant, region), sk(status, placed_at))]
pub struct Order {
    pub tenant: String,
    pub id: String,
    pub region: String,
    pub status: String,
    pub placed_at: time::OffsetDateTime,
}
