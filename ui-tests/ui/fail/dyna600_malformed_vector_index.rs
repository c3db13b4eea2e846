// A vector index needs its vector, dimensions and distance; an unknown
// option is named with the ones there are.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, scoped(tenant))]
struct Ticket {
    id: String,
    tenant: String,
    embedding: [f32; 3],
}

fn main() {}
