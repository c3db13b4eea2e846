//! Every entity of seeds 000 and 003, as dynakey entities, and those the
//! recipes of seeds 001 and 002 need (documents under review, customer and
//! store orders, tenant documents, device events, tickets, the users /
//! orders / products table) plus the versioned large-object variant.
//! `{Field}` became `<field>`; C# `DateOnly` is `time::Date`,
//! `DateTimeOffset` is `time::OffsetDateTime`, `Guid` is `uuid::Uuid`,
//! `decimal` is `rust_decimal::Decimal`, `ReadOnlyMemory<byte>` is a `Blob`.

use dynakey::{DynamoEntity, DynamoValue};
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

// ---- 000: adjacency list and inverted index -------------------------------

/// A user's profile, in the user's partition.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
#[sk("PROFILE")]
pub struct Member {
    pub user_id: String,
    pub name: String,
}

/// An edge user → group; the index reverses it.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MEMBERSHIP")]
#[pk("USER#<user_id>")]
#[sk("GROUP#<group_id>")]
#[gsi("GSI1", pk = "GROUP#<group_id>", sk = "USER#<user_id>")]
pub struct Membership {
    pub user_id: String,
    pub group_id: String,
}

/// A team, found in the index next to its members.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TEAM")]
#[pk("GROUP#<group_id>")]
#[sk("INFO")]
#[gsi("GSI1", pk = "GROUP#<group_id>", sk = "INFO")]
pub struct Team {
    pub group_id: String,
    pub title: String,
}

// ---- 000: index overloading ----------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "STAFFER")]
#[pk("STAFF#<id>")]
#[sk("PROFILE")]
#[gsi("GSI1", pk = "TEAM#<team>", sk = "HIRED#<hired_on>")]
pub struct Staffer {
    pub id: String,
    pub team: String,
    pub hired_on: Date,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EXPENSE")]
#[pk("EXPENSE#<id>")]
#[sk("DATA")]
#[gsi("GSI1", pk = "TEAM#<team>", sk = "AMOUNT#<amount:n8.2>")]
pub struct Expense {
    pub id: String,
    pub team: String,
    pub amount: Decimal,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "WAREHOUSE")]
#[pk("WAREHOUSE#<id>")]
#[sk("DATA")]
#[gsi("GSI1", pk = "CITY#<city>", sk = "<name>")]
pub struct Warehouse {
    pub id: String,
    pub city: String,
    pub name: String,
}

// ---- 000: sparse index ----------------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "PLAN#<plan>", sk = "SINCE#<since>", sparse)]
pub struct Subscriber {
    pub id: String,
    pub plan: Option<String>,
    pub since: Option<Date>,
}

/// The `[OmitEmpty]` variant: a plan written as "" is left out, with the
/// index keys.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "LEGACY_SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("LEGACY")]
#[gsi("GSI2", pk = "PLAN#<plan>", sparse)]
pub struct LegacySubscriber {
    pub id: String,
    #[dynamo(omit_empty)]
    pub plan: String,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[sk("DATA")]
#[gsi("GSI2", pk = "FEATURED", sk = "ON#<featured_on>", sparse)]
pub struct Article {
    pub id: String,
    pub featured_on: Option<Date>,
}

// ---- 000: queue over a sparse index ----------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "QUEUED_JOB")]
#[pk("JOB#<id>")]
#[sk("JOB")]
#[gsi("GSI2", pk = "PENDING#<shard>", sk = "<id>", sparse)]
#[gsi("GSI1", pk = "CLAIMED#<claim_shard>", sk = "<claimed_until>", sparse)]
pub struct QueuedJob {
    pub id: Uuid,
    pub shard: Option<i32>,
    pub claim_shard: Option<i32>,
    pub owner: Option<String>,
    pub claimed_until: Option<OffsetDateTime>,
    pub payload: String,
}

/// The priority variant: `<priority>#<id>` reads the most urgent first.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PRIORITY_JOB")]
#[pk("JOB#<id>")]
#[sk("JOB")]
#[gsi("GSI2", pk = "PENDING#<shard>", sk = "<priority:d2>#<id>", sparse)]
pub struct PriorityJob {
    pub id: Uuid,
    pub shard: Option<i32>,
    pub priority: u8,
    pub payload: String,
}

// ---- 000: status-keyed index ------------------------------------------------

#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkStatus {
    Open,
    Closed,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "WORK_ITEM")]
#[pk("ITEM#<id>")]
#[sk("DATA")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<id>")]
pub struct WorkItem {
    pub id: Uuid,
    pub owner: String,
    pub status: WorkStatus,
}

// ---- 000: soft delete ---------------------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "NOTE")]
#[pk("OWNER#<owner>")]
#[sk("NOTE#<id>")]
#[gsi("GSI2", pk = "OWNER#<owner>", sk = "LIVE#<live_since>", sparse)]
pub struct Note {
    pub owner: String,
    pub id: String,
    pub live_since: Option<OffsetDateTime>,
    pub deleted_at: Option<OffsetDateTime>,
}

/// The restore case: the index partition key is the owner alone.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "OWNED_NOTE")]
#[pk("NOTE#<id>")]
#[sk("NOTE")]
#[gsi("GSI2", pk = "<owner>", sk = "LIVE#<live_since>", sparse)]
pub struct OwnedNote {
    pub id: String,
    pub owner: Option<String>,
    pub live_since: Option<OffsetDateTime>,
    pub deleted_at: Option<OffsetDateTime>,
}

// ---- 003: composite sort keys --------------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EMPLOYEE")]
#[pk("ORG#<org>")]
#[sk("SITE#<country>#<city>#EMP#<number:d6>")]
pub struct Employee {
    pub org: String,
    pub country: String,
    pub city: String,
    pub number: i32,
}

/// A signed value takes a sign and a width: `n4` sorts −10 before −2.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ADJUSTMENT")]
#[pk("ACCOUNT#<account>")]
#[sk("DELTA#<delta:n4>")]
pub struct Adjustment {
    pub account: String,
    pub delta: i32,
}

// ---- 003: v7 uuid sort keys ------------------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "CHAT")]
#[pk("ROOM#<room>")]
#[sk("<id>")]
pub struct ChatMessage {
    pub room: String,
    pub id: Uuid,
    pub text: String,
}

// ---- 003: write sharding ----------------------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "VOTE")]
#[pk("VOTES#<poll>#<shard:d2>")]
#[sk("<at>#<vote_id>")]
pub struct Vote {
    pub poll: String,
    pub shard: i32,
    pub at: OffsetDateTime,
    pub vote_id: Uuid,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SESSION")]
#[pk("SESSIONS#<shard:d2>")]
#[sk("<id>")]
pub struct UserSession {
    pub shard: i32,
    pub id: String,
    pub user: String,
}

// ---- 003: time-bucketed partitions -----------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SAMPLE")]
#[pk("METRIC#<metric>#<bucket:d10>")]
#[sk("<at>")]
pub struct MetricSample {
    pub metric: String,
    pub bucket: i64,
    pub at: OffsetDateTime,
    pub value: i32,
}

// ---- 003: large objects -----------------------------------------------------------

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "CHUNK")]
#[pk("FILE#<file_id>")]
#[sk("CHUNK#<index:d4>")]
pub struct FileChunk {
    pub file_id: String,
    pub index: i32,
    pub data: dynakey::Blob,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MANIFEST")]
#[pk("FILE#<file_id>")]
#[sk("MANIFEST")]
pub struct FileManifest {
    pub file_id: String,
    pub chunks: i32,
}

/// The versioned variant of large objects: the chunks of each version under
/// their own prefix, so a reader never mixes two versions.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "VERSION_CHUNK")]
#[pk("FILE#<file_id>")]
#[sk("VERSION#<version:d6>#CHUNK#<index:d4>")]
pub struct VersionChunk {
    pub file_id: String,
    pub version: u32,
    pub index: u32,
    pub data: dynakey::Blob,
}

/// The versioned manifest: which version is current and how many chunks
/// it has. Switched last, on condition of the version it replaces.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "CURRENT_VERSION")]
#[pk("FILE#<file_id>")]
#[sk("CURRENT")]
pub struct CurrentVersion {
    pub file_id: String,
    pub version: u32,
    pub chunks: u32,
}

// ---- 001: sparse index by absence --------------------------------------------------

/// A document; only those waiting for review carry `review_flag`, so the
/// sparse GSI1 is the review queue.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOCUMENT")]
#[pk("DOC#<doc_id>")]
#[sk("DOC")]
#[gsi("GSI1", pk = "REVIEW#<review_flag>", sk = "<submitted_at>", sparse)]
pub struct Document {
    pub doc_id: String,
    pub title: String,
    pub review_flag: Option<String>,
    pub submitted_at: Option<OffsetDateTime>,
}

// ---- 001: status + timestamp compound sort key ---------------------------------------

/// The status of a customer order.
#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderStatus {
    Open,
    Shipped,
}

/// An order in its customer's partition, by status then time:
/// `Open#2026-07-16T09:12:00.000000000Z#o1`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "CUSTOMER_ORDER")]
#[pk("CUSTOMER#<customer_id>")]
#[sk("<status>#<created_at>#<order_id>")]
pub struct CustomerOrder {
    pub customer_id: String,
    pub status: OrderStatus,
    pub created_at: OffsetDateTime,
    pub order_id: String,
}

// ---- 001: reverse timestamp --------------------------------------------------------------

/// A store's orders, customers ascending and each customer's orders newest
/// first: `C-100#<placed_at:rev>#<order_id>`. The real time stays a plain
/// attribute (`placed_at`).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "STORE_ORDER")]
#[pk("STORE#<store>")]
#[sk("<customer>#<placed_at:rev>#<order_id>")]
pub struct StoreOrder {
    pub store: String,
    pub customer: String,
    pub placed_at: OffsetDateTime,
    pub order_id: String,
}

// ---- 001: multi-tenant prefix ---------------------------------------------------------

/// A tenant's document: the tenant is the partition.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TENANT_DOC")]
#[pk("TENANT#<tenant>")]
#[sk("DOC#<doc_id>")]
pub struct TenantDoc {
    pub tenant: String,
    pub doc_id: String,
    pub title: String,
}

// ---- 001: write-sharded time series ----------------------------------------------------

/// An event of a device, in the partition of its device and month
/// (`DEVICE#device-7#2026-07`), by epoch milliseconds padded to 13 digits.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DEVICE_EVENT")]
#[pk("DEVICE#<device>#<month>")]
#[sk("TS#<ts:d13>")]
pub struct DeviceEvent {
    pub device: String,
    pub month: String,
    pub ts: u64,
    pub reading: i32,
}

// ---- 001: zero-padded numbers -----------------------------------------------------------

/// A ticket numbered with a fixed width: `ITEM#000002` sorts before
/// `ITEM#000010`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("PROJECT#<project>")]
#[sk("ITEM#<number:d6>")]
pub struct Ticket {
    pub project: String,
    pub number: u32,
}

/// The bug the rule prevents: a key composed by hand, `item-2`, which
/// sorts after `item-10`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "HAND_KEYED")]
#[pk("PROJECT#<project>")]
#[sk("LABEL#<label>")]
pub struct HandKeyed {
    pub project: String,
    pub label: String,
}

// ---- 002: users, orders and products ----------------------------------------------------

/// A user's profile: `USER#<id>` / `#PROFILE`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER")]
#[pk("USER#<user_id>")]
#[sk("#PROFILE")]
pub struct UserProfile {
    pub user_id: String,
    pub name: String,
    pub email: String,
    pub created_at: OffsetDateTime,
}

/// An order in its user's partition: `USER#<id>` / `ORDER#<order_id>`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER_ORDER")]
#[pk("USER#<user_id>")]
#[sk("ORDER#<order_id>")]
pub struct UserOrder {
    pub user_id: String,
    pub order_id: String,
    pub order_date: Date,
    pub amount: Decimal,
    pub status: OrderStatus,
}

/// An order's details: `ORDER#<id>` / `#INFO`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER_INFO")]
#[pk("ORDER#<order_id>")]
#[sk("#INFO")]
pub struct OrderInfo {
    pub order_id: String,
    pub items: Vec<String>,
    pub shipping_address: String,
}

/// A product: `PRODUCT#<id>` / `#DETAILS`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PRODUCT")]
#[pk("PRODUCT#<product_id>")]
#[sk("#DETAILS")]
pub struct Product {
    pub product_id: String,
    pub price: Decimal,
    pub stock: u32,
    pub category: String,
}
