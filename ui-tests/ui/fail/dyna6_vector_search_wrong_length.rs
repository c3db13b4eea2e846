// A search vector of another length than an `[f32; N]` field does not
// compile.
use dynakey::{Db, DynamoEntity};

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index("ByText", vector = embedding, dimensions = 3, distance = "COSINE")]
struct Doc {
    id: String,
    embedding: [f32; 3],
}

async fn search(db: Db) {
    let _ = db.search(Doc::by_text(), &[0.5, 0.5]).await;
}

fn main() {}
