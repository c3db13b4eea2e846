//! Seed 001 "Status + timestamp compound sort key": a customer's orders
//! keyed `<status>#<created_at>#<order_id>`, so "this customer's open
//! orders, newest first, 20 at a time" is one key condition read backwards.
//! The status is part of the table key, so shipping an order is a `move`:
//! delete + put in one transaction (an update that sets a table-key field
//! does not compile, DYNA227), which fails cleanly, changing nothing, when
//! the old item is gone or the new key is taken.
//! Seed 000 "Status-keyed index": "my open items, oldest first" on GSI1
//! `OWNER#<owner>` / `<status>#<v7 id>`, and "opened this week" as an id
//! range. Closing an item is an update that sets only the status (the id
//! comes with the key); it moves the item inside the index.

use std::fmt;

use dynakey::{uuid7, Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

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
    /// Ann's open items after the 3-day-old one was closed.
    pub ann_open_after_close: Vec<String>,
    /// Ann's open items of the week after the close.
    pub ann_this_week_after_close: Vec<String>,
    /// Ann's closed items, oldest first, after the close.
    pub ann_closed_after_close: Vec<String>,
    /// The stored `gsi1sk` of the closed item, and its id.
    pub closed_gsi1sk: (String, uuid::Uuid),
    /// Closing an item that does not exist (`if_exists`).
    pub close_missing: Result<(), String>,
    /// C-100's open orders counted after o04 was shipped by a move.
    pub open_count_after_move: u64,
    /// C-100's shipped orders, newest first, after the move.
    pub shipped_after_move: Vec<String>,
    /// Moving o04 again (the old item is gone, the new key taken): the
    /// reasons' codes, one per action (delete, put).
    pub move_again: Result<(), Vec<String>>,
    /// Moving o40, which does not exist, to a free key: the reasons' codes.
    pub move_missing: Result<(), Vec<String>>,
    /// Whether that failed move wrote its new item (it must not).
    pub missing_written: bool,
    /// Moving o06 onto the key of the shipped o04 (taken): the reasons'
    /// codes.
    pub move_onto_taken: Result<(), Vec<String>>,
    /// Whether open o06 is still there after that failed move.
    pub o06_still_open: bool,
}

/// The order shipped by a move.
pub const MOVED: i64 = 4;

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
    batch.send().await?;

    let c100 = || CustomerOrder::pk("C-100");
    let open = || CustomerOrder::sk().status(OrderStatus::Open).begins_with();
    let page = db
        .query(c100()?)
        .sk(open()?)
        .descending()
        .page_size(20)
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

    // Close the item opened 3 days ago: only the status is set, the update
    // rewrites gsi1sk = "Closed#<id>" from it and the key's id.
    let closed_id = ids
        .iter()
        .find(|(_, d)| *d == 3)
        .map(|(id, _)| *id)
        .unwrap_or_default();
    db.update(WorkItem::update(closed_id).set_status(WorkStatus::Closed))
        .if_exists()
        .await?;
    let ann = |status: WorkStatus| async move {
        let v = db
            .query(WorkItem::gsi1_pk("ann")?)
            .sk(WorkItem::gsi1_sk().status(status).begins_with()?)
            .all()
            .await?;
        Ok::<Vec<WorkItem>, Error>(v)
    };
    let ann_open_after_close = ann(WorkStatus::Open).await?.iter().map(label).collect();
    let ann_closed_after_close = ann(WorkStatus::Closed).await?.iter().map(label).collect();
    let ann_this_week_after_close = db
        .query(WorkItem::gsi1_pk("ann")?)
        .sk(WorkItem::gsi1_sk()
            .status(WorkStatus::Open)
            .between(uuid7::first(NOW - Duration::days(7)), uuid7::last(NOW))?)
        .all()
        .await?
        .iter()
        .map(label)
        .collect();
    let stored = crate::raw_item(db, &WorkItem::key(closed_id)?).await?;
    let closed_gsi1sk = (
        stored
            .as_ref()
            .and_then(|i| crate::attr_s(i, "gsi1sk"))
            .unwrap_or_default()
            .to_owned(),
        closed_id,
    );
    let close_missing = db
        .update(WorkItem::update(uuid7::at(NOW)).set_status(WorkStatus::Closed))
        .if_exists()
        .await
        .map(|_| ())
        .map_err(|e| match e {
            Error::ConditionFailed { .. } => "ConditionFailed".to_owned(),
            other => format!("other: {other}"),
        });

    // Ship o04: its sort key changes, so it is a move (delete + put in one
    // transaction).
    let open04 = order("C-100", OrderStatus::Open, MOVED);
    let shipped04 = CustomerOrder {
        status: OrderStatus::Shipped,
        ..open04.clone()
    };
    db.move_item(open04.item_key()?, &shipped04).await?;
    let open_count_after_move = db.query(c100()?).sk(open()?).count().await?;
    let shipped_after_move = db
        .query(c100()?)
        .sk(CustomerOrder::sk()
            .status(OrderStatus::Shipped)
            .begins_with()?)
        .descending()
        .all()
        .await?
        .into_iter()
        .map(|o| o.order_id)
        .collect();
    let codes = |r: Result<(), Error>| {
        r.map_err(|e| match e {
            Error::TransactionCanceled { reasons } => {
                reasons.into_iter().map(|r| r.code).collect::<Vec<_>>()
            }
            other => vec![format!("other: {other}")],
        })
    };
    let move_again = codes(db.move_item(open04.item_key()?, &shipped04).await);
    // The old side's condition alone: o40 does not exist, its new key is free.
    let open40 = order("C-100", OrderStatus::Open, 40);
    let shipped40 = CustomerOrder {
        status: OrderStatus::Shipped,
        ..open40.clone()
    };
    let move_missing = codes(db.move_item(open40.item_key()?, &shipped40).await);
    let missing_written = db.get(shipped40.item_key()?).consistent().await?.is_some();
    // The new side's condition: a move from o06 whose target key (shipped
    // o04) is taken fails too, and o06 stays where it was.
    let open06 = order("C-100", OrderStatus::Open, 6);
    let move_onto_taken = codes(db.move_item(open06.item_key()?, &shipped04).await);
    let o06_still_open = db.get(open06.item_key()?).consistent().await?.is_some();

    let names = |v: Vec<CustomerOrder>| v.into_iter().map(|o| o.order_id).collect();
    Ok(Report {
        open_has_more: !page.is_last(),
        open_newest: names(page.items),
        open_count,
        shipped: names(shipped),
        first_sk,
        ann_open,
        ann_this_week,
        ann_open_after_close,
        ann_this_week_after_close,
        ann_closed_after_close,
        closed_gsi1sk,
        close_missing,
        open_count_after_move,
        shipped_after_move,
        move_again,
        move_missing,
        missing_written,
        move_onto_taken,
        o06_still_open,
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
                ])
                .row([
                    "begins_with Open#, after closing 3d ago".to_owned(),
                    format!("{:?}", self.ann_open_after_close),
                ])
                .row([
                    "Open# this week, after the close".to_owned(),
                    format!("{:?}", self.ann_this_week_after_close),
                ])
                .row([
                    "begins_with Closed#, after the close".to_owned(),
                    format!("{:?}", self.ann_closed_after_close),
                ]),
        );
        p.note(format!(
            "closed item's gsi1sk: {}; closing a missing item (if_exists): {:?}",
            self.closed_gsi1sk.0, self.close_missing
        ));
        p.table(
            Table::new(
                "move: ship o04 (Open#… -> Shipped#…, delete + put in one transaction)",
                ["step", "result"],
            )
            .row([
                "open orders counted after the move".to_owned(),
                self.open_count_after_move.to_string(),
            ])
            .row([
                "shipped, newest first".to_owned(),
                self.shipped_after_move.join(" "),
            ])
            .row([
                "move o04 again (old item gone, new key taken)".to_owned(),
                format!("{:?}", self.move_again),
            ])
            .row([
                "move o40, which does not exist, to a free key".to_owned(),
                format!(
                    "{:?}; new item written: {}",
                    self.move_missing, self.missing_written
                ),
            ])
            .row([
                "move o06 onto shipped o04's key (taken)".to_owned(),
                format!(
                    "{:?}; o06 still open: {}",
                    self.move_onto_taken, self.o06_still_open
                ),
            ]),
        );
        p.fmt(f)
    }
}
