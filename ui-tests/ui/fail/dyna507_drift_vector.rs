// A vector index's dimensions changed (a new embedding model): the table's
// index keeps 4, as DynamoDB changes no vector index in place, and stored
// vectors have 4 elements (DYNA507). `Retired`, in the snapshot and no
// longer declared, and `Triage`, declared and not in the snapshot, are
// no drift: adding or removing a vector index strands no item.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "CASE")]
#[pk("TENANT#<tenant>")]
#[sk("CASE#<id>")]
#[vector_index(
    "BySimilar",
    vector = embedding,
    dimensions = 8,
    distance = "COSINE",
    scope(tenant),
    filter(status)
)]
#[vector_index("Triage", vector = embedding, dimensions = 8, distance = "COSINE")]
struct Case {
    tenant: String,
    id: String,
    status: String,
    embedding: Vec<f32>,
}

#[derive(DynamoTable)]
#[dynamo(entities(Case), schema = "../schema/vector.schema")]
struct Desk;

fn main() {}
