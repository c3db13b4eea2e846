// A field stored through serde, the TTL attribute and a map have no S, N or
// B form a native key could use (DYNA121, from the syntax: one error per
// field, and nothing else).
use dynakey::DynamoEntity;
use std::collections::HashMap;

#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
struct Prefs {
    theme: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
#[gsi("ByPrefs", pk(prefs))]
#[gsi("ByExpiry", pk(id), sk(expires))]
#[gsi("ByCounts", pk(counts))]
struct User {
    id: String,
    #[dynamo(serde)]
    prefs: Prefs,
    #[dynamo(ttl)]
    expires: Option<time::OffsetDateTime>,
    counts: HashMap<String, u32>,
}

fn main() {
    // Call sites of the index functions add no error of their own.
    let _ = User::by_prefs_pk(Prefs { theme: "dark".into() });
    let _ = User::by_counts_pk(HashMap::<String, u32>::new());
}
