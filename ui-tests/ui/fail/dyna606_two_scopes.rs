// DynamoDB scopes a vector search by at most one attribute (one HASH
// element), and takes each attribute once in the search schema.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "COSINE", scope(tenant, region))]
#[vector_index("ByRegion", vector = embedding, dimensions = 3, distance = "COSINE", scope(region), filter(region))]
struct Ticket {
    id: String,
    tenant: String,
    region: String,
    embedding: [f32; 3],
}

fn main() {}
