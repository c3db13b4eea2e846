// Vector indexes in the schema snapshot (format 3): the table derive reads
// them back with no drift when they agree with the code, and an index the
// snapshot lists that the code no longer declares (`Retired`), or one the
// code declares that it does not list (`Triage`), is no drift either: adding
// or removing a vector index strands no stored item. A changed one is
// DYNA507 (ui/fail/dyna507_drift_vector.rs).
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "CASE")]
#[pk("TENANT#<tenant>")]
#[sk("CASE#<id>")]
#[vector_index(
    "BySimilar",
    vector = embedding,
    dimensions = 4,
    distance = "COSINE",
    scope(tenant),
    filter(status)
)]
#[vector_index("Triage", vector = embedding, dimensions = 4, distance = "COSINE")]
struct Case {
    tenant: String,
    id: String,
    status: String,
    embedding: Vec<f32>,
}

#[derive(DynamoTable)]
#[dynamo(entities(Case), schema = "../schema/vector.schema")]
struct Desk;

fn main() {
    let text = Desk::schema();
    assert!(text.contains(
        "  vector BySimilar \"embedding\" 4 COSINE scope \"tenant\" filter \"status\" projection ALL\n"
    ));
    assert!(text.contains("  vector Triage \"embedding\" 4 COSINE projection ALL\n"));
}
