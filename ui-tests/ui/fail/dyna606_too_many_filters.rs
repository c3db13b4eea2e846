// DynamoDB takes at most 18 filter fields (INLINE_FILTER elements) in one
// vector index's search schema.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "DOC")]
#[pk("DOC#<id>")]
#[vector_index(
    "ByText",
    vector = embedding,
    dimensions = 3,
    distance = "COSINE",
    filter(f01, f02, f03, f04, f05, f06, f07, f08, f09, f10,
           f11, f12, f13, f14, f15, f16, f17, f18, f19)
)]
struct Doc {
    id: String,
    f01: String,
    f02: String,
    f03: String,
    f04: String,
    f05: String,
    f06: String,
    f07: String,
    f08: String,
    f09: String,
    f10: String,
    f11: String,
    f12: String,
    f13: String,
    f14: String,
    f15: String,
    f16: String,
    f17: String,
    f18: String,
    f19: String,
    embedding: [f32; 3],
}

fn main() {}
