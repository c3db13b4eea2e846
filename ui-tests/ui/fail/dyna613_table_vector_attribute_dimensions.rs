// Vector indexes on one attribute have one number of dimensions.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("TicketsLike", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Ticket {
    id: String,
    embedding: [f32; 3],
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("ArticlesLike", vector = embedding, dimensions = 2, distance = "COSINE")]
struct Article {
    id: String,
    embedding: [f32; 2],
}

#[derive(DynamoTable)]
#[dynamo(entities(Ticket, Article))]
struct Support;

fn main() {}
