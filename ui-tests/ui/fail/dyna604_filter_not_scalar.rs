// Scope and filter attributes are top-level S, N or B attributes: not a
// boolean, not a list.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "COSINE", scope(tags), filter(done))]
struct Ticket {
    id: String,
    tags: Vec<String>,
    done: bool,
    embedding: [f32; 3],
}

fn main() {}
