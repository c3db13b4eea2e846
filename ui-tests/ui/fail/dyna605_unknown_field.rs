// The scope names a stored field.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "COSINE", scope(tenat))]
struct Ticket {
    id: String,
    tenant: String,
    embedding: [f32; 3],
}

fn main() {}
