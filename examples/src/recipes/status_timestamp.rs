//! Seed 001 "Status + timestamp compound sort key": a customer's orders
//! keyed `<status>#<created_at>#<order_id>`, so "this customer's open
//! orders, newest first, 20 at a time" is one key condition read backwards.
//! Seed 000 "Status-keyed index", its put and query half: "my open items,
//! oldest first" on GSI1 `OWNER#<owner>` / `<status>#<v7 id>`, and "opened
//! this week" as an id range. (A status change is an update, or a `move`
//! of the table key; both come with the typed update builder.)

use std::fmt;

use dynakey::{uuid7, Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use super::adjacency::assert_written;
use crate::report::{Printout, Table};
use crate::seeds::{CustomerOrder, OrderStatus, WorkItem, WorkStatus};

super::recipe!(
    "status_timestamp",
    "001 Status + timestamp compound sort key; 000 Status-keyed index",
    "<status>#<created_at>: open orders newest first in one query; GSI1 <status>#<v7 id> for owners"
);

/// When order `o00` was created; one an hour.
pub const START: OffsetDateTime = datetime!(2026-07-01 00:00 UTC);
/// "Now" of the work items.
pub const NOW: OffsetDateTime = datetime!(2026-07-16 12:00 UTC);

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// C-100's open orders, newest first, the first page of 20.
    pub open_newest: Vec<String>,
    /// Whether another page follows.
    pub open_has_more: bool,
    /// C-100's open orders, counted.
    pub open_count: u64,
    /// C-100's shipped orders, newest first.
    pub shipped: Vec<String>,
    /// The stored sort key of order o00.
    pub first_sk: String,
    /// Ann's open work items, oldest first (by their notes).
    pub ann_open: Vec<String>,
    /// Ann's items opened in the week before [`NOW`].
    pub ann_this_week: Vec<String>,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[CustomerOrder::META, WorkItem::META])
        .await
}

fn order(customer: &str, status: OrderStatus, i: i64) -> CustomerOrder {
    CustomerOrder {
        customer_id: customer.into(),
        status,
        created_at: START + Duration::hours(i),
        order_id: format!("o{i:02}"),
    }
}

/// The work items of the recipe: (owner, status, days before [`NOW`]).
pub const WORK: [(&str, WorkStatus, i64); 5] = [
    ("ann", WorkStatus::Open, 10),
    ("ann", WorkStatus::Open, 3),
    ("ann", WorkStatus::Closed, 2),
    ("ann", WorkStatus::Open, 1),
    ("bob", WorkStatus::Open, 1),
];

/// Writes 30 orders of C-100 (25 open, 5 shipped) and one of C-200, and
/// five work items; then reads by status and time.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write().put(&order("C-200", OrderStatus::Open, 99));
    for i in 0..30 {
        let status = if i % 6 == 5 {
            OrderStatus::Shipped
        } else {
            OrderStatus::Open
        };
        batch = batch.put(&order("C-100", status, i));
    }
    let mut ids = Vec::new();
    for (owner, status, days) in WORK {
        let id = uuid7::at(NOW - Duration::days(days));
        ids.push((id, days));
        batch = batch.put(&WorkItem {
            id,
            owner: owner.into(),
            status,
        });
    }
    assert_written(batch.send().await?.unprocessed.len())?;

    let c100 = || CustomerOrder::pk("C-100");
    let open = || CustomerOrder::sk().status(OrderStatus::Open).begins_with();
    let page = db
        .query(c100()?)
        .sk(open()?)
        .descending()
        .limit(20)
        .page(None)
        .await?;
    let open_count = db.query(c100()?).sk(open()?).count().await?;
    let shipped = db
        .query(c100()?)
        .sk(CustomerOrder::sk()
            .status(OrderStatus::Shipped)
            .begins_with()?)
        .descending()
        .all()
        .await?;
    let first_sk = order("C-100", OrderStatus::Open, 0)
        .item_key()?
        .sk()
        .unwrap_or_default()
        .to_owned();

    let label = |w: &WorkItem| {
        let days = ids
            .iter()
            .find(|(id, _)| *id == w.id)
            .map_or(-1, |(_, d)| *d);
        format!("{days}d ago")
    };
    let ann_open = db
        .query(WorkItem::gsi1_pk("ann")?)
        .sk(WorkItem::gsi1_sk().status(WorkStatus::Open).begins_with()?)
        .all()
        .await?
        .iter()
        .map(label)
        .collect();
    let ann_this_week = db
        .query(WorkItem::gsi1_pk("ann")?)
        .sk(WorkItem::gsi1_sk()
            .status(WorkStatus::Open)
            .between(uuid7::first(NOW - Duration::days(7)), uuid7::last(NOW))?)
        .all()
        .await?
        .iter()
        .map(label)
        .collect();
    let names = |v: Vec<CustomerOrder>| v.into_iter().map(|o| o.order_id).collect();
    Ok(Report {
        open_has_more: !page.is_last(),
        open_newest: names(page.items),
        open_count,
        shipped: names(shipped),
        first_sk,
        ann_open,
        ann_this_week,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.table(
            Table::new("CUSTOMER#C-100", ["key condition", "result"])
                .row([
                    "begins_with Open#, descending, limit 20".to_owned(),
                    format!(
                        "{} (more: {})",
                        self.open_newest.join(" "),
                        self.open_has_more
                    ),
                ])
                .row([
                    "begins_with Open# (count)".to_owned(),
                    self.open_count.to_string(),
                ])
                .row([
                    "begins_with Shipped#, descending".to_owned(),
                    self.shipped.join(" "),
                ]),
        );
        p.note(format!("stored sort key of o00: {}", self.first_sk));
        p.table(
            Table::new("GSI1 OWNER#ann (work items)", ["key condition", "result"])
                .row([
                    "begins_with Open#".to_owned(),
                    format!("{:?}", self.ann_open),
                ])
                .row([
                    "Open# between first(now-7d) and last(now)".to_owned(),
                    format!("{:?}", self.ann_this_week),
                ]),
        );
        p.fmt(f)
    }
}
