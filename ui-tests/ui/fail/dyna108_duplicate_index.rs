// One index name twice, and an index on attributes another index uses.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "STAFFER")]
#[pk("STAFF#<id>")]
#[sk("PROFILE")]
#[gsi("GSI1", pk = "TEAM#<team>")]
#[gsi("GSI1", pk = "CITY#<city>")]
#[gsi("ByCity", pk = "CITY#<city>", pk_attr = "gsi1pk")]
struct Staffer {
    id: String,
    team: String,
    city: String,
}

fn main() {}
