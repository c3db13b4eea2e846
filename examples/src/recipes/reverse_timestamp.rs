//! Seed 001 "Reverse timestamp": newest first *inside* a composite whose
//! outer component still sorts ascending. A store's orders keyed
//! `<customer>#<placed_at:rev>#<order_id>` list customers A→Z and each
//! customer's orders newest first in one forward read; a descending read
//! would flip the customers too. The real time stays a plain attribute.

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::report::{Printout, Table};
use crate::seeds::StoreOrder;

super::recipe!(
    "reverse_timestamp",
    "001 Reverse timestamp",
    "<customer>#<placed_at:rev>#<id>: customers ascending, each customer's orders newest first"
);

/// When the first order was placed.
pub const START: OffsetDateTime = datetime!(2026-07-16 09:00 UTC);

/// The orders of the recipe: (customer, order id, minutes after [`START`]).
pub const ORDERS: [(&str, &str, i64); 6] = [
    ("C-100", "o1", 0),
    ("C-200", "o2", 5),
    ("C-100", "o3", 10),
    ("C-050", "o4", 15),
    ("C-100", "o5", 20),
    ("C-200", "o6", 25),
];

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The whole partition, forward: (customer, order id).
    pub forward: Vec<(String, String)>,
    /// The whole partition, descending (customers flipped too).
    pub descending: Vec<(String, String)>,
    /// C-100 only (`begins_with "C-100#"`), forward: newest first.
    pub c100: Vec<String>,
    /// Stored sort key of o5 and the epoch milliseconds of its time.
    pub o5_sk: (String, i64),
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[StoreOrder::META]).await
}

fn order((customer, id, minutes): (&str, &str, i64)) -> StoreOrder {
    StoreOrder {
        store: "s1".into(),
        customer: customer.into(),
        placed_at: START + Duration::minutes(minutes),
        order_id: id.into(),
    }
}

/// Writes six orders of three customers and reads them three ways.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write();
    for o in ORDERS {
        batch = batch.put(&order(o));
    }
    batch.send().await?;
    let pairs = |v: Vec<StoreOrder>| {
        v.into_iter()
            .map(|o| (o.customer, o.order_id))
            .collect::<Vec<_>>()
    };
    let forward = pairs(db.query(StoreOrder::pk("s1")?).all().await?);
    let descending = pairs(db.query(StoreOrder::pk("s1")?).descending().all().await?);
    let c100 = db
        .query(StoreOrder::pk("s1")?)
        .sk(StoreOrder::sk().customer("C-100").begins_with()?)
        .all()
        .await?
        .into_iter()
        .map(|o| o.order_id)
        .collect();
    let o5 = order(ORDERS[4]);
    let sk = o5.item_key()?.sk().unwrap_or_default().to_owned();
    let ms = (o5.placed_at.unix_timestamp_nanos() / 1_000_000) as i64;
    Ok(Report {
        forward,
        descending,
        c100,
        o5_sk: (sk, ms),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new("STORE#s1", ["forward read", "descending read"]);
        for (a, b) in self.forward.iter().zip(&self.descending) {
            t.push([format!("{} {}", a.0, a.1), format!("{} {}", b.0, b.1)]);
        }
        p.table(t);
        p.note(format!(
            "begins_with C-100#: {:?} (newest first, read forward)",
            self.c100
        ));
        p.note(format!(
            "o5: sk {} = C-100 # (9999999999999 - {}) # o5",
            self.o5_sk.0, self.o5_sk.1
        ));
        p.fmt(f)
    }
}
