// DynamoDB allows 5 vector indexes per table.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("V1x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V2x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V3x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V4x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V5x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V6x", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Doc {
    id: String,
    embedding: [f32; 3],
}

fn main() {}
