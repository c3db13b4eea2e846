// The entities of one table declare at most 5 vector indexes between them.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("V1x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V2x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V3x", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Ticket {
    id: String,
    embedding: [f32; 3],
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("V4x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V5x", vector = embedding, dimensions = 3, distance = "COSINE")]
#[vector_index("V6x", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Article {
    id: String,
    embedding: [f32; 3],
}

#[derive(DynamoTable)]
#[dynamo(entities(Ticket, Article))]
struct Support;

fn main() {}
