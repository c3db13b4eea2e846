// Filters reach only the declared filter fields, by equality.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 2, distance = "COSINE", filter(status))]
struct Ticket {
    id: String,
    status: String,
    title: String,
    embedding: [f32; 2],
}

async fn search(db: Db) {
    let _ = db.search(Ticket::by_similar(), &[0.5, 0.5]).filter(|f| f.title.eq("x")).await;
    let _ = db.search(Ticket::by_similar(), &[0.5, 0.5]).filter(|f| f.status.lt("x")).await;
}

fn main() {}
