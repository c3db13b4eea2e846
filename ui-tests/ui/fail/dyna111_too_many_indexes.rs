// DynamoDB allows 20 global indexes per table.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "WIDE")]
#[pk("WIDE#<id>")]
#[gsi("G1", pk = "G1#<id>")]
#[gsi("G2", pk = "G2#<id>")]
#[gsi("G3", pk = "G3#<id>")]
#[gsi("G4", pk = "G4#<id>")]
#[gsi("G5", pk = "G5#<id>")]
#[gsi("G6", pk = "G6#<id>")]
#[gsi("G7", pk = "G7#<id>")]
#[gsi("G8", pk = "G8#<id>")]
#[gsi("G9", pk = "G9#<id>")]
#[gsi("G10", pk = "G10#<id>")]
#[gsi("G11", pk = "G11#<id>")]
#[gsi("G12", pk = "G12#<id>")]
#[gsi("G13", pk = "G13#<id>")]
#[gsi("G14", pk = "G14#<id>")]
#[gsi("G15", pk = "G15#<id>")]
#[gsi("G16", pk = "G16#<id>")]
#[gsi("G17", pk = "G17#<id>")]
#[gsi("G18", pk = "G18#<id>")]
#[gsi("G19", pk = "G19#<id>")]
#[gsi("G20", pk = "G20#<id>")]
#[gsi("G21", pk = "G21#<id>")]
struct Wide {
    id: String,
}

fn main() {}
