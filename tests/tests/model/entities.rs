//! The entity shapes the model test drives. Between them: a sparse index
//! with an `Option` input whose keys follow their own inputs, bare-field
//! index keys, an `omit_empty` input, a constant index key, a composite key
//! over every format, a version and TTL fields, and native index keys over
//! every key type (one sparse by absence).

use dynakey::{Blob, DynamoEntity, DynamoValue};
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

/// A sparse "by assignee" index whose sort key has two inputs, and a sparse
/// index of bare fields (`<owner>` / `<title>`).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TASK")]
#[pk("ORG#<org>")]
#[sk("TASK#<id>")]
#[gsi("GSI1", pk = "ASSIGNEE#<assignee>", sk = "<due>#<priority:d1>", sparse)]
#[gsi("GSI2", pk = "<owner>", sk = "<title>", sparse)]
pub struct Task {
    pub org: String,
    pub id: String,
    pub assignee: Option<String>,
    pub due: Date,
    pub priority: u8,
    pub owner: Option<String>,
    pub title: String,
    pub note: Option<String>,
    #[dynamo(ttl)]
    pub expires: Option<OffsetDateTime>,
}

/// An `omit_empty` input (an empty plan leaves the index) and a constant
/// index partition key.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PROFILE")]
#[pk("ORG#<org>")]
#[sk("USER#<user>")]
#[gsi("GSI3", pk = "PLAN#<plan>", sk = "SINCE#<since>", sparse)]
#[gsi("GSI4", pk = "FEATURED", sk = "<featured_on>", sparse)]
pub struct Profile {
    pub org: String,
    pub user: String,
    #[dynamo(omit_empty)]
    pub plan: String,
    pub since: Date,
    pub featured_on: Option<Date>,
    #[dynamo(omit_empty)]
    pub display: String,
}

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    #[dynamo(rename = "New")]
    New,
    #[dynamo(rename = "New York")]
    NewYork,
    Newark,
}

/// Composite keys over every format: the table sort key (date, `d4`, uuid)
/// and a non-sparse index sort key (`n3`, `n4.2`, `rev`, a string, a bool).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "READING")]
#[pk("SENSOR#<sensor>")]
#[sk("R#<day>#<seq:d4>#<uid>")]
#[gsi(
    "GSI5",
    pk = "KIND#<kind>",
    sk = "<delta:n3>#<value:n4.2>#<at:rev>#<label>#<flag>"
)]
pub struct Reading {
    pub sensor: String,
    pub day: Date,
    pub seq: u32,
    pub uid: Uuid,
    pub kind: Kind,
    pub delta: i32,
    pub value: Decimal,
    pub at: OffsetDateTime,
    pub label: String,
    pub flag: bool,
    pub note: Option<String>,
}

/// A version (optimistic lock), a TTL, a counter, and a non-sparse index
/// with a signed number in its sort key.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ACCOUNT")]
#[pk("ACCOUNT#<id>")]
#[sk("ACCOUNT")]
#[gsi("GSI6", pk = "TIER#<tier>", sk = "<balance:n8>")]
pub struct Account {
    pub id: String,
    pub tier: String,
    pub balance: i64,
    pub visits: u64,
    #[dynamo(ttl)]
    pub expires: OffsetDateTime,
    #[dynamo(version)]
    pub version: u64,
}

/// Native index keys over every key type: a partition of a string and a
/// unit enum, sort attributes of a date, a signed integer, an instant and
/// bytes; and an index sparse by absence (an `Option<Uuid>`) sorted by a
/// decimal.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SHIPMENT")]
#[pk("SHIP#<id>")]
#[sk("SHIPMENT")]
#[gsi("ByLane", pk(lane, kind), sk(day, delta, at, tag))]
#[gsi("ByCourier", pk(courier), sk(cost))]
pub struct Shipment {
    pub id: String,
    pub lane: String,
    pub kind: Kind,
    pub day: Date,
    pub delta: i64,
    pub at: OffsetDateTime,
    pub tag: Blob,
    pub courier: Option<Uuid>,
    pub cost: Decimal,
    pub note: Option<String>,
}

/// The indexes of the table, with their key attributes.
pub const INDEXES: &[(&str, &str, &str)] = &[
    ("GSI1", "gsi1pk", "gsi1sk"),
    ("GSI2", "gsi2pk", "gsi2sk"),
    ("GSI3", "gsi3pk", "gsi3sk"),
    ("GSI4", "gsi4pk", "gsi4sk"),
    ("GSI5", "gsi5pk", "gsi5sk"),
    ("GSI6", "gsi6pk", "gsi6sk"),
];

/// The native indexes (`native.rs` checks them).
pub const NATIVE: &[&str] = &["ByLane", "ByCourier"];
