// A vector is `[f32; N]` or `Vec<f32>`: f64 elements are not DynamoDB's
// 32-bit vector elements.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("ByText", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Doc {
    id: String,
    embedding: Vec<f64>,
}

fn main() {}
