// A field whose type stays but whose stored form changes (DYNA506): the
// snapshot says `expires` is stored as epoch seconds (`ttl`) and `prefs`
// in serde's form; without those attributes the derive would read an `N`
// as an RFC 3339 `S`, and serde's map as the type's own form.
use dynakey::{DynamoEntity, DynamoTable, DynamoValue};

#[derive(DynamoValue, Clone, Debug, PartialEq)]
enum Prefs {
    Dark,
    Light,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "SESSION")]
#[pk("SESSION#<id>")]
struct Session {
    id: String,
    expires: time::OffsetDateTime,
    #[dynamo(ttl)]
    started: time::OffsetDateTime,
    prefs: Prefs,
}

#[derive(DynamoTable)]
#[dynamo(entities(Session), schema = "../schema/forms.schema")]
struct Sessions;

fn main() {}
