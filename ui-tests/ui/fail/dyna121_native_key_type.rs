// A native key attribute is an S, N or B attribute: a bool, a list, a set
// or a skipped field is not (DYNA121, from the syntax).
use dynakey::DynamoEntity;
use std::collections::HashSet;

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
#[gsi("ByFlag", pk(active), sk(tags))]
#[gsi("ByLabel", pk(labels))]
#[gsi("ByCache", pk(cache))]
struct User {
    id: String,
    active: bool,
    tags: Vec<String>,
    labels: HashSet<String>,
    #[dynamo(skip)]
    cache: String,
}

fn main() {}
