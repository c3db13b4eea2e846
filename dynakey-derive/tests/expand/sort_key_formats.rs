// An entity with a sort key whose fields have formats: a zero-padded
// integer, a signed decimal and a reverse timestamp.
#[derive(DynamoEntity)]
#[dynamo(entity = "READING")]
#[pk("SENSOR#<sensor>")]
#[sk("AT#<at:rev>#SEQ#<seq:d6>#V#<value:n8.2>")]
pub struct Reading {
    pub sensor: String,
    pub at: time::OffsetDateTime,
    pub seq: u32,
    pub value: rust_decimal::Decimal,
    pub note: Option<String>,
}
