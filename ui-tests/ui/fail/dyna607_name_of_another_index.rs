// Vector, global and local indexes share one namespace of names.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[gsi("ByTenant", pk = "TENANT#<tenant>")]
#[vector_index("ByTenant", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Ticket {
    id: String,
    tenant: String,
    embedding: [f32; 3],
}

fn main() {}
