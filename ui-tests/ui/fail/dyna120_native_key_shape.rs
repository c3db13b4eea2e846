// A native key has one to four attributes, each named once (DYNA120), of
// fields that exist (DYNA101).
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "SHIPMENT")]
#[pk("SHIPMENT#<id>")]
#[gsi("ByRoute", pk(origin, destination, carrier, service, lane), sk(shipped_on))]
#[gsi("ByCarrier", pk(carrier), sk(carrier))]
#[gsi("ByDay", pk(shiped_on))]
struct Shipment {
    id: String,
    origin: String,
    destination: String,
    carrier: String,
    service: String,
    lane: u16,
    shipped_on: time::Date,
}

fn main() {}
