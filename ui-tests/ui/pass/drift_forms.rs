// Stored forms in the schema snapshot: the runtime writes `ttl` and
// `serde` after a field's type, and the table derive reads them back at
// compile time with no drift (adding or removing either attribute would be
// DYNA506, see ui/fail/dyna506_drift_form.rs).
use dynakey::{DynamoEntity, DynamoTable};

#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
struct Prefs {
    dark: bool,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "SESSION")]
#[pk("SESSION#<id>")]
struct Session {
    id: String,
    #[dynamo(ttl)]
    expires: time::OffsetDateTime,
    started: time::OffsetDateTime,
    #[dynamo(serde)]
    prefs: Prefs,
}

#[derive(DynamoTable)]
#[dynamo(entities(Session), schema = "../schema/forms.schema")]
struct Sessions;

fn main() {
    if let Err(e) = Sessions::check_schema() {
        panic!("{e}\n{}", Sessions::schema());
    }
}
