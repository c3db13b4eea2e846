// An input of a non-sparse index is never absent, so it has no remove.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "STAFFER")]
#[pk("STAFF#<id>")]
#[gsi("GSI1", pk = "TEAM#<team>")]
struct Staffer {
    id: String,
    team: String,
}

fn main() {
    let _ = Staffer::update("s1").remove_team();
}
