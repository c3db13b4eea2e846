//! Each recipe's table as a `#[derive(DynamoTable)]`: its entities, checked
//! against each other at compile time (DYNA301–DYNA305), which is what the
//! design documents are drawn from. Plus a task tracker whose comments sit
//! under their task's prefix, an overlap its table allows, and orders on
//! native index keys.

use dynakey::{DynamoEntity, DynamoTable, DynamoValue};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::seeds::*;

/// Seed 000, adjacency list: users, memberships, teams.
#[derive(DynamoTable)]
#[dynamo(entities(Member, Membership, Team))]
pub struct Adjacency;

/// Seed 000, index overloading: one GSI, a meaning per type.
#[derive(DynamoTable)]
#[dynamo(entities(Staffer, Expense, Warehouse))]
pub struct IndexOverloading;

/// Seed 000, sparse index: subscribers and featured articles.
#[derive(DynamoTable)]
#[dynamo(entities(Subscriber, Article))]
pub struct SparseIndex;

/// Seed 000, sparse index: the `omit_empty` variant, in its own table.
#[derive(DynamoTable)]
#[dynamo(entities(LegacySubscriber))]
pub struct SparseIndexLegacy;

/// Seed 000, a queue over two sparse indexes, with the orders it ships.
#[derive(DynamoTable)]
#[dynamo(entities(QueuedJob, UserOrder))]
pub struct Queue;

/// Seed 000, the priority queue, in its own table.
#[derive(DynamoTable)]
#[dynamo(entities(PriorityJob))]
pub struct QueuePriority;

/// Seed 000, soft delete.
#[derive(DynamoTable)]
#[dynamo(entities(Note, OwnedNote))]
pub struct SoftDelete;

/// Seed 003, composite sort keys.
#[derive(DynamoTable)]
#[dynamo(entities(Employee, Adjustment))]
pub struct CompositeSortKeys;

/// Seed 003, v7 uuid sort keys.
#[derive(DynamoTable)]
#[dynamo(entities(ChatMessage))]
pub struct Uuid7NewestFirst;

/// Seed 003, write sharding.
#[derive(DynamoTable)]
#[dynamo(entities(Vote, UserSession))]
pub struct WriteSharding;

/// Seed 003, time-bucketed partitions.
#[derive(DynamoTable)]
#[dynamo(entities(MetricSample))]
pub struct TimeBuckets;

/// Seed 003, large objects: chunks and manifests, plain and versioned.
#[derive(DynamoTable)]
#[dynamo(entities(FileChunk, FileManifest, VersionChunk, CurrentVersion))]
pub struct LargeObjects;

/// Seed 001, sparse index by absence.
#[derive(DynamoTable)]
#[dynamo(entities(Document))]
pub struct SparseByAbsence;

/// Seed 001, status + timestamp keys.
#[derive(DynamoTable)]
#[dynamo(entities(CustomerOrder, WorkItem))]
pub struct StatusTimestamp;

/// Seed 001, reverse timestamp.
#[derive(DynamoTable)]
#[dynamo(entities(StoreOrder))]
pub struct ReverseTimestamp;

/// Seed 001, multi-tenant prefix.
#[derive(DynamoTable)]
#[dynamo(entities(TenantDoc))]
pub struct MultiTenant;

/// Seed 001, write-sharded time series.
#[derive(DynamoTable)]
#[dynamo(entities(DeviceEvent))]
pub struct ShardedTimeSeries;

/// Seed 001, zero-padded numbers (and the hand-made key they replace).
#[derive(DynamoTable)]
#[dynamo(entities(Ticket, HandKeyed))]
pub struct ZeroPadded;

/// Seed 002, the shop: users, their orders, order details, products.
#[derive(DynamoTable)]
#[dynamo(entities(UserProfile, UserOrder, OrderInfo, Product))]
pub struct Shop;

/// Seeds 000 and 003: every entity of the design-patterns table in one,
/// (`tests/tests/keys.rs` creates it on every backend).
#[derive(DynamoTable)]
#[dynamo(entities(
    Member,
    Membership,
    Team,
    Staffer,
    Expense,
    Warehouse,
    Subscriber,
    Article,
    QueuedJob,
    WorkItem,
    Note,
    OwnedNote,
    Employee,
    Adjustment,
    ChatMessage,
    Vote,
    UserSession,
    MetricSample,
    FileChunk,
    FileManifest
))]
pub struct Patterns;

/// A task of a project: `PROJECT#<project>` / `TASK#<n:d4>`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TASK")]
#[pk("PROJECT#<project>")]
#[sk("TASK#<n:d4>")]
pub struct Task {
    pub project: String,
    pub n: u32,
    pub title: String,
}

/// A comment under its task: `TASK#<n:d4>#COMMENT#<id>`, so one query
/// reads a task with its comments, and a typed query of tasks reads (and
/// pays for) the comments too.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "COMMENT")]
#[pk("PROJECT#<project>")]
#[sk("TASK#<n:d4>#COMMENT#<id>")]
pub struct Comment {
    pub project: String,
    pub n: u32,
    pub id: String,
    pub text: String,
}

/// The task tracker: the nested collection, its overlap allowed.
#[derive(DynamoTable)]
#[dynamo(entities(Task, Comment), overlap(Task, Comment))]
pub struct Tracker;

/// Seed 000's status-keyed index, natively (the `native_keys` recipe).
#[derive(DynamoTable)]
#[dynamo(entities(super::native_keys::WorkItem))]
pub struct NativeKeys;

/// A region of an order.
#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Eu,
    Us,
}

/// Orders on native index keys: `ByRegion` over the tenant and region,
/// sorted by status then time, and `ByCourier`, sparse by absence, sorted
/// by the total as a number.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER")]
#[pk("TENANT#<tenant>")]
#[sk("ORDER#<id>")]
#[gsi("ByRegion", pk(tenant, region), sk(status, placed_at))]
#[gsi("ByCourier", pk(courier), sk(total))]
pub struct NativeOrder {
    pub tenant: String,
    pub id: Uuid,
    pub region: Region,
    pub status: String,
    pub placed_at: OffsetDateTime,
    pub total: i64,
    pub courier: Option<String>,
}

/// The orders table, keyed natively.
#[derive(DynamoTable)]
#[dynamo(entities(NativeOrder))]
pub struct NativeOrders;
