// Two index names that differ only in case and separators would give the
// same functions (`by_city_pk`, ...): DYNA108, once, at the second name.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "STAFFER")]
#[pk("STAFF#<id>")]
#[sk("PROFILE")]
#[gsi("ByCity", pk = "CITY#<city>")]
#[gsi("by_city", pk(city))]
struct Staffer {
    id: String,
    city: String,
}

fn main() {
    let _ = Staffer::by_city_pk("Oslo");
}
