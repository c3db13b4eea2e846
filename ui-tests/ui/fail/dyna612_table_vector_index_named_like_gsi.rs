// A vector index takes no name another entity's global index has.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[gsi("GSI1", pk = "TENANT#<tenant>")]
struct Ticket {
    id: String,
    tenant: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("GSI1", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Article {
    id: String,
    embedding: [f32; 3],
}

#[derive(DynamoTable)]
#[dynamo(entities(Ticket, Article))]
struct Support;

fn main() {}
