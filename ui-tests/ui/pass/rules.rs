// Validation, timestamps and unique fields that compile: the validator
// signatures, both timestamp types, an upsert that leaves the timestamps to
// the runtime (they are not required: DYNA228 does not ask for them).
use dynakey::DynamoEntity;
use time::OffsetDateTime;

fn email(v: &str) -> Result<(), String> {
    v.contains('@').then_some(()).ok_or_else(|| format!("{v} has no @"))
}

fn small(v: &u32) -> Result<(), &'static str> {
    (*v < 100).then_some(()).ok_or("too big")
}

fn whole(u: &User) -> Result<(), std::fmt::Error> {
    let _ = u;
    Ok(())
}

#[derive(DynamoEntity)]
#[dynamo(entity = "USER", validate = whole)]
#[pk("USER#<id>")]
pub struct User {
    id: String,
    #[dynamo(unique, validate = email)]
    email: String,
    #[dynamo(validate = small)]
    age: Option<u32>,
    #[dynamo(unique)]
    handle: Option<String>,
    #[dynamo(created_at)]
    created: OffsetDateTime,
    #[dynamo(updated_at)]
    updated: Option<OffsetDateTime>,
}

fn main() {
    let _ = User::upsert("u1").set_email("a@b").set_age(3u32);
    let _ = User::update("u1").set_age(None::<u32>);
}
