// An array's length is the index's dimensions.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("ByText", vector = embedding, dimensions = 768, distance = "COSINE")]
struct Doc {
    id: String,
    embedding: [f32; 384],
}

fn main() {}
