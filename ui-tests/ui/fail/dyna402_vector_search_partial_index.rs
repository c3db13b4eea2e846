// A vector index projecting less than whole items is not read as the
// entity: read a projection or the keys.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("ByText", vector = embedding, dimensions = 2, distance = "COSINE", projection = "KEYS_ONLY")]
struct Doc {
    id: String,
    embedding: [f32; 2],
}

async fn search(db: Db) {
    let _ = db.search(Doc::by_text(), &[0.5, 0.5]).send().await;
}

// Awaiting the search itself is the same mistake.
async fn search_awaited(db: Db) {
    let _ = db.search(Doc::by_text(), &[0.5, 0.5]).await;
}

fn main() {}
