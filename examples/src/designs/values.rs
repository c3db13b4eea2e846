//! One or two example values of every entity, as the recipes write them:
//! they give the design documents real example keys and the NoSQL
//! Workbench models their sample data. Fixed values (no clock, no random
//! ids), so the documents do not change from run to run.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::codec::Item;
use dynakey::{Blob, Entity};
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::OffsetDateTime;
use uuid::Uuid;

use super::tables::{Comment, NativeOrder, Region, Task};
use crate::seeds::*;

/// 2026-07-16 09:12 UTC, the time the examples happen at.
pub const AT: OffsetDateTime = datetime!(2026-07-16 09:12 UTC);

/// A fixed version-7 uuid whose time is [`AT`] (`n` tells them apart).
pub fn uuid7(n: u16) -> Uuid {
    let ms = (AT.unix_timestamp_nanos() / 1_000_000) as u64;
    let mut b = [0u8; 16];
    b[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
    b[6] = 0x70;
    b[7] = n as u8;
    b[8] = 0x80;
    b[14..].copy_from_slice(&n.to_be_bytes());
    Uuid::from_bytes(b)
}

/// Alice's profile: `USER#alice` / `PROFILE`.
pub fn member() -> Member {
    Member {
        user_id: "alice".into(),
        name: "Alice".into(),
    }
}

/// Alice in staff: `USER#alice` / `GROUP#staff`, reversed in GSI1.
pub fn membership() -> Membership {
    Membership {
        user_id: "alice".into(),
        group_id: "staff".into(),
    }
}

/// The staff team: `GROUP#staff` / `INFO`, also in GSI1.
pub fn team() -> Team {
    Team {
        group_id: "staff".into(),
        title: "Staff".into(),
    }
}

/// A staffer of team red, hired 2024-03-01.
pub fn staffer() -> Staffer {
    Staffer {
        id: "s1".into(),
        team: "red".into(),
        hired_on: date!(2024 - 03 - 01),
    }
}

/// A refund of −15.50 of team red (`AMOUNT#-99999984.50` in GSI1).
pub fn expense() -> Expense {
    Expense {
        id: "e2".into(),
        team: "red".into(),
        amount: Decimal::new(-1550, 2),
    }
}

/// A warehouse in Bern (GSI1 `CITY#Bern` / `North Gate`, a bare placeholder).
pub fn warehouse() -> Warehouse {
    Warehouse {
        id: "w1".into(),
        city: "Bern".into(),
        name: "North Gate".into(),
    }
}

/// A pro subscriber (in sparse GSI2) and one without a plan (not in it).
pub fn subscribers() -> [Subscriber; 2] {
    [
        Subscriber {
            id: "s1".into(),
            plan: Some("pro".into()),
            since: Some(date!(2026 - 07 - 01)),
        },
        Subscriber {
            id: "s2".into(),
            plan: None,
            since: None,
        },
    ]
}

/// The `omit_empty` variant: a plan, and an empty one left out.
pub fn legacy_subscribers() -> [LegacySubscriber; 2] {
    [
        LegacySubscriber {
            id: "s1".into(),
            plan: "pro".into(),
        },
        LegacySubscriber {
            id: "s2".into(),
            plan: String::new(),
        },
    ]
}

/// An article featured on 2026-07-16 (in the `FEATURED` list).
pub fn article() -> Article {
    Article {
        id: "a1".into(),
        featured_on: Some(date!(2026 - 07 - 16)),
    }
}

/// A pending job (GSI2, shard 2) and a claimed one (GSI1, until 09:17).
pub fn queued_jobs() -> [QueuedJob; 2] {
    [
        QueuedJob {
            id: uuid7(1),
            shard: Some(2),
            claim_shard: None,
            owner: None,
            claimed_until: None,
            payload: "ship order o1".into(),
        },
        QueuedJob {
            id: uuid7(2),
            shard: None,
            claim_shard: Some(2),
            owner: Some("claim-7".into()),
            claimed_until: Some(datetime!(2026-07-16 09:17 UTC)),
            payload: "ship order o2".into(),
        },
    ]
}

/// A pending priority job, priority 1.
pub fn priority_job() -> PriorityJob {
    PriorityJob {
        id: uuid7(3),
        shard: Some(1),
        priority: 1,
        payload: "refund order o3".into(),
    }
}

/// An open work item of ann (GSI1 `OWNER#ann` / `Open#<id>`).
pub fn work_item() -> WorkItem {
    WorkItem {
        id: uuid7(4),
        owner: "ann".into(),
        status: WorkStatus::Open,
    }
}

/// A live note (in GSI2) and a deleted one (out of it).
pub fn notes() -> [Note; 2] {
    [
        Note {
            owner: "ann".into(),
            id: "n1".into(),
            live_since: Some(datetime!(2026-07-01 08:00 UTC)),
            deleted_at: None,
        },
        Note {
            owner: "ann".into(),
            id: "n2".into(),
            live_since: None,
            deleted_at: Some(AT),
        },
    ]
}

/// A live note with an owner (GSI2 by the owner alone).
pub fn owned_note() -> OwnedNote {
    OwnedNote {
        id: "n3".into(),
        owner: Some("ann".into()),
        live_since: Some(datetime!(2026-07-02 08:00 UTC)),
        deleted_at: None,
    }
}

/// Employee 42 of acme in Zurich: `SITE#CH#Zurich#EMP#000042`.
pub fn employee() -> Employee {
    Employee {
        org: "acme".into(),
        country: "CH".into(),
        city: "Zurich".into(),
        number: 42,
    }
}

/// An adjustment of −10: `DELTA#-9990`.
pub fn adjustment() -> Adjustment {
    Adjustment {
        account: "a1".into(),
        delta: -10,
    }
}

/// A message in the lobby, keyed by its v7 uuid.
pub fn chat_message() -> ChatMessage {
    ChatMessage {
        room: "lobby".into(),
        id: uuid7(5),
        text: "hello".into(),
    }
}

/// A vote on shard 3 of the best-pet poll.
pub fn vote() -> Vote {
    Vote {
        poll: "best-pet".into(),
        shard: 3,
        at: AT,
        vote_id: uuid7(6),
    }
}

/// A session on hashed shard 1.
pub fn user_session() -> UserSession {
    UserSession {
        shard: 1,
        id: "sess-1".into(),
        user: "ann".into(),
    }
}

/// A cpu sample in its six-hour bucket.
pub fn metric_sample() -> MetricSample {
    MetricSample {
        metric: "cpu".into(),
        bucket: AT.unix_timestamp() / (6 * 3600),
        at: AT,
        value: 73,
    }
}

/// The first chunk of file f1.
pub fn file_chunk() -> FileChunk {
    FileChunk {
        file_id: "f1".into(),
        index: 0,
        data: Blob::new(b"first 350 KB".to_vec()),
    }
}

/// The manifest of file f1: two chunks.
pub fn file_manifest() -> FileManifest {
    FileManifest {
        file_id: "f1".into(),
        chunks: 2,
    }
}

/// The first chunk of version 3 of file f2.
pub fn version_chunk() -> VersionChunk {
    VersionChunk {
        file_id: "f2".into(),
        version: 3,
        index: 0,
        data: Blob::new(b"version 3, part 1".to_vec()),
    }
}

/// The current-version pointer of file f2.
pub fn current_version() -> CurrentVersion {
    CurrentVersion {
        file_id: "f2".into(),
        version: 3,
        chunks: 2,
    }
}

/// A document flagged for review (in GSI1) and one that is not.
pub fn documents() -> [Document; 2] {
    [
        Document {
            doc_id: "d7".into(),
            title: "Budget".into(),
            review_flag: Some("legal".into()),
            submitted_at: Some(AT),
        },
        Document {
            doc_id: "d8".into(),
            title: "Roadmap".into(),
            review_flag: None,
            submitted_at: None,
        },
    ]
}

/// An open order of customer c1: `Open#<created_at>#o1`.
pub fn customer_order() -> CustomerOrder {
    CustomerOrder {
        customer_id: "c1".into(),
        status: OrderStatus::Open,
        created_at: AT,
        order_id: "o1".into(),
    }
}

/// An order of customer C-100 in store s1, newest first.
pub fn store_order() -> StoreOrder {
    StoreOrder {
        store: "s1".into(),
        customer: "C-100".into(),
        placed_at: AT,
        order_id: "o9".into(),
    }
}

/// A document of tenant acme.
pub fn tenant_doc() -> TenantDoc {
    TenantDoc {
        tenant: "acme".into(),
        doc_id: "a1".into(),
        title: "Plan".into(),
    }
}

/// An event of device-7 in July 2026.
pub fn device_event() -> DeviceEvent {
    DeviceEvent {
        device: "device-7".into(),
        month: "2026-07".into(),
        ts: (AT.unix_timestamp_nanos() / 1_000_000) as u64,
        reading: 21,
    }
}

/// Ticket 2 of project p1: `ITEM#000002`.
pub fn ticket() -> Ticket {
    Ticket {
        project: "p1".into(),
        number: 2,
    }
}

/// The hand-made key the format replaces: `LABEL#item-2`.
pub fn hand_keyed() -> HandKeyed {
    HandKeyed {
        project: "p1".into(),
        label: "item-2".into(),
    }
}

/// User u1's profile: `USER#u1` / `#PROFILE`.
pub fn user_profile() -> UserProfile {
    UserProfile {
        user_id: "u1".into(),
        name: "Alice".into(),
        email: "alice@example.com".into(),
        created_at: datetime!(2026-01-02 03:04:05 UTC),
    }
}

/// Order o1 of user u1: `USER#u1` / `ORDER#o1`.
pub fn user_order() -> UserOrder {
    UserOrder {
        user_id: "u1".into(),
        order_id: "o1".into(),
        order_date: date!(2026 - 07 - 16),
        amount: Decimal::new(1999, 2),
        status: OrderStatus::Shipped,
    }
}

/// The details of order o1: `ORDER#o1` / `#INFO`.
pub fn order_info() -> OrderInfo {
    OrderInfo {
        order_id: "o1".into(),
        items: vec!["p1".into(), "p3".into()],
        shipping_address: "u1, 1 Main St".into(),
    }
}

/// Product p1: `PRODUCT#p1` / `#DETAILS`.
pub fn product() -> Product {
    Product {
        product_id: "p1".into(),
        price: Decimal::new(999, 2),
        stock: 10,
        category: "books".into(),
    }
}

/// Task 7 of project apollo: `TASK#0007`.
pub fn task() -> Task {
    Task {
        project: "apollo".into(),
        n: 7,
        title: "Launch plan".into(),
    }
}

/// A comment on task 7: `TASK#0007#COMMENT#c1`.
pub fn comment() -> Comment {
    Comment {
        project: "apollo".into(),
        n: 7,
        id: "c1".into(),
        text: "Looks good".into(),
    }
}

/// An open work item of ann, on the native `ByOwner` index.
pub fn native_work_item() -> super::native_keys::WorkItem {
    super::native_keys::WorkItem {
        id: uuid7(9),
        owner: "ann".into(),
        status: WorkStatus::Open,
    }
}

/// Two orders of acme in Europe, one with a courier (in `ByCourier`) and
/// one without (out of it), the second a refund (a negative total).
pub fn native_orders() -> [NativeOrder; 2] {
    [
        NativeOrder {
            tenant: "acme".into(),
            id: uuid7(10),
            region: Region::Eu,
            status: "open".into(),
            placed_at: AT,
            total: 4200,
            courier: Some("bob".into()),
        },
        NativeOrder {
            tenant: "acme".into(),
            id: uuid7(11),
            region: Region::Eu,
            status: "refunded".into(),
            placed_at: datetime!(2026-07-15 18:00 UTC),
            total: -1500,
            courier: None,
        },
    ]
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

/// Three items of the kind the live view points out, written into the
/// shop table the way a buggy script or another client would: one whose
/// discriminator no entity has, one that does not decode (a profile
/// without its email), and an order whose sort key disagrees with its
/// `order_id` (drift: `to_item()` would write another key).
///
/// ```
/// use dynakey_examples::designs::{find, values};
/// let shop = (find("shop").unwrap().build)().unwrap();
/// let view = shop.inspect(values::problem_items());
/// assert_eq!(view.problems().count(), 3);
/// ```
pub fn problem_items() -> Vec<Item> {
    let disc = UserProfile::META.discriminator_attr;
    let cart: Item = [
        ("pk", s("USER#u2")),
        ("sk", s("CART#current")),
        (disc, s("LEGACY_CART")),
        ("items", AttributeValue::N("3".into())),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let mut no_email = user_profile().to_item().unwrap_or_default();
    no_email.insert("pk".into(), s("USER#u3"));
    no_email.insert("user_id".into(), s("u3"));
    no_email.remove("email");
    let mut drifted = UserOrder {
        order_id: "o7".into(),
        ..user_order()
    }
    .to_item()
    .unwrap_or_default();
    drifted.insert("sk".into(), s("ORDER#O7"));
    vec![cart, no_email, drifted]
}
