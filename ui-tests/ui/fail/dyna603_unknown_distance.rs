// The distance functions are COSINE, EUCLIDEAN and DOT_PRODUCT.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("ByText", vector = embedding, dimensions = 3, distance = "cosine")]
struct Doc {
    id: String,
    embedding: [f32; 3],
}

fn main() {}
