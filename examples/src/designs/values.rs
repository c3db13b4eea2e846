//! One or two example values of every entity, as the recipes write them:
//! they give the design documents real example keys and the NoSQL
//! Workbench models their sample data. Fixed values (no clock, no random
//! ids), so the documents do not change from run to run.

use dynakey::Blob;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::OffsetDateTime;
use uuid::Uuid;

use super::tables::{Comment, Task};
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

pub fn member() -> Member {
    Member {
        user_id: "alice".into(),
        name: "Alice".into(),
    }
}

pub fn membership() -> Membership {
    Membership {
        user_id: "alice".into(),
        group_id: "staff".into(),
    }
}

pub fn team() -> Team {
    Team {
        group_id: "staff".into(),
        title: "Staff".into(),
    }
}

pub fn staffer() -> Staffer {
    Staffer {
        id: "s1".into(),
        team: "red".into(),
        hired_on: date!(2024 - 03 - 01),
    }
}

pub fn expense() -> Expense {
    Expense {
        id: "e2".into(),
        team: "red".into(),
        amount: Decimal::new(-1550, 2),
    }
}

pub fn warehouse() -> Warehouse {
    Warehouse {
        id: "w1".into(),
        city: "Bern".into(),
        name: "North Gate".into(),
    }
}

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

pub fn article() -> Article {
    Article {
        id: "a1".into(),
        featured_on: Some(date!(2026 - 07 - 16)),
    }
}

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

pub fn priority_job() -> PriorityJob {
    PriorityJob {
        id: uuid7(3),
        shard: Some(1),
        priority: 1,
        payload: "refund order o3".into(),
    }
}

pub fn work_item() -> WorkItem {
    WorkItem {
        id: uuid7(4),
        owner: "ann".into(),
        status: WorkStatus::Open,
    }
}

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

pub fn owned_note() -> OwnedNote {
    OwnedNote {
        id: "n3".into(),
        owner: Some("ann".into()),
        live_since: Some(datetime!(2026-07-02 08:00 UTC)),
        deleted_at: None,
    }
}

pub fn employee() -> Employee {
    Employee {
        org: "acme".into(),
        country: "CH".into(),
        city: "Zurich".into(),
        number: 42,
    }
}

pub fn adjustment() -> Adjustment {
    Adjustment {
        account: "a1".into(),
        delta: -10,
    }
}

pub fn chat_message() -> ChatMessage {
    ChatMessage {
        room: "lobby".into(),
        id: uuid7(5),
        text: "hello".into(),
    }
}

pub fn vote() -> Vote {
    Vote {
        poll: "best-pet".into(),
        shard: 3,
        at: AT,
        vote_id: uuid7(6),
    }
}

pub fn user_session() -> UserSession {
    UserSession {
        shard: 1,
        id: "sess-1".into(),
        user: "ann".into(),
    }
}

pub fn metric_sample() -> MetricSample {
    MetricSample {
        metric: "cpu".into(),
        bucket: AT.unix_timestamp() / (6 * 3600),
        at: AT,
        value: 73,
    }
}

pub fn file_chunk() -> FileChunk {
    FileChunk {
        file_id: "f1".into(),
        index: 0,
        data: Blob::new(b"first 350 KB".to_vec()),
    }
}

pub fn file_manifest() -> FileManifest {
    FileManifest {
        file_id: "f1".into(),
        chunks: 2,
    }
}

pub fn version_chunk() -> VersionChunk {
    VersionChunk {
        file_id: "f2".into(),
        version: 3,
        index: 0,
        data: Blob::new(b"version 3, part 1".to_vec()),
    }
}

pub fn current_version() -> CurrentVersion {
    CurrentVersion {
        file_id: "f2".into(),
        version: 3,
        chunks: 2,
    }
}

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

pub fn customer_order() -> CustomerOrder {
    CustomerOrder {
        customer_id: "c1".into(),
        status: OrderStatus::Open,
        created_at: AT,
        order_id: "o1".into(),
    }
}

pub fn store_order() -> StoreOrder {
    StoreOrder {
        store: "s1".into(),
        customer: "C-100".into(),
        placed_at: AT,
        order_id: "o9".into(),
    }
}

pub fn tenant_doc() -> TenantDoc {
    TenantDoc {
        tenant: "acme".into(),
        doc_id: "a1".into(),
        title: "Plan".into(),
    }
}

pub fn device_event() -> DeviceEvent {
    DeviceEvent {
        device: "device-7".into(),
        month: "2026-07".into(),
        ts: (AT.unix_timestamp_nanos() / 1_000_000) as u64,
        reading: 21,
    }
}

pub fn ticket() -> Ticket {
    Ticket {
        project: "p1".into(),
        number: 2,
    }
}

pub fn hand_keyed() -> HandKeyed {
    HandKeyed {
        project: "p1".into(),
        label: "item-2".into(),
    }
}

pub fn user_profile() -> UserProfile {
    UserProfile {
        user_id: "u1".into(),
        name: "Alice".into(),
        email: "alice@example.com".into(),
        created_at: datetime!(2026-01-02 03:04:05 UTC),
    }
}

pub fn user_order() -> UserOrder {
    UserOrder {
        user_id: "u1".into(),
        order_id: "o1".into(),
        order_date: date!(2026 - 07 - 16),
        amount: Decimal::new(1999, 2),
        status: OrderStatus::Shipped,
    }
}

pub fn order_info() -> OrderInfo {
    OrderInfo {
        order_id: "o1".into(),
        items: vec!["p1".into(), "p3".into()],
        shipping_address: "u1, 1 Main St".into(),
    }
}

pub fn product() -> Product {
    Product {
        product_id: "p1".into(),
        price: Decimal::new(999, 2),
        stock: 10,
        category: "books".into(),
    }
}

pub fn task() -> Task {
    Task {
        project: "apollo".into(),
        n: 7,
        title: "Launch plan".into(),
    }
}

pub fn comment() -> Comment {
    Comment {
        project: "apollo".into(),
        n: 7,
        id: "c1".into(),
        text: "Looks good".into(),
    }
}
