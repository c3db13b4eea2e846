// DynamoDB takes 1 to 4,096 dimensions.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("ByText", vector = embedding, dimensions = 5000, distance = "COSINE")]
struct Doc {
    id: String,
    embedding: Vec<f32>,
}

fn main() {}
