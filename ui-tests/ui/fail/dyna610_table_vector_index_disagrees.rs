// Entities of one table that share a vector index declare it alike.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "COSINE", scope(tenant))]
struct Ticket {
    id: String,
    tenant: String,
    embedding: [f32; 3],
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "EUCLIDEAN", scope(tenant))]
struct Article {
    id: String,
    tenant: String,
    embedding: [f32; 3],
}

#[derive(DynamoTable)]
#[dynamo(entities(Ticket, Article))]
struct Support;

fn main() {}
