//! Changing a schema: v1 → v2 of a shop table, with items in it and writers
//! writing while it moves.
//!
//! v2 changes four things at once: an order's sort key widens from `d4` to
//! `d6` (every order moves), a user's `mail` attribute is renamed `email`, a
//! new sparse index finds users by email (it must be backfilled), and a new
//! field `tier` has a default (old users read as `free`, and the default is
//! written into them). The committed snapshot `schema_evolution.schema` (beside this file) is the
//! v1 schema, so the build checks v2 against it: without the migrations
//! `ShopV2` lists, it would not compile (DYNA501, DYNA503).
//!
//! The run: v1 items are written; `sync_table` adds the index; a dry run
//! counts the work; the migration starts with two writers writing v2 items
//! beside it, and is killed at a random page; a second run resumes and
//! finishes; a third changes nothing. Every v2 query then returns exactly
//! the expected items, in order.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use dynakey::schema::Migration;
use dynakey::{Db, DynamoEntity, DynamoTable, Error};

use crate::report::{Printout, Table};

super::recipe!(
    "schema_evolution",
    "dynakey (schema evolution)",
    "v1 → v2 while writers write: d4 → d6 moves every order, mail → email, a new sparse index backfilled, a default filled; killed and resumed"
);

/// An order as v1 stored it: `ORDER#<n:d4>`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d4>")]
pub struct OrderV1 {
    pub customer: String,
    pub n: u32,
    pub total: u32,
}

/// A user as v1 stored it: the address under `mail`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER")]
#[pk("CUSTOMER#<customer>")]
#[sk("PROFILE")]
pub struct UserV1 {
    pub customer: String,
    #[dynamo(rename = "mail", omit_empty)]
    pub email: String,
}

/// An order in v2: `ORDER#<n:d6>`, room for a million orders.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<n:d6>")]
pub struct Order {
    pub customer: String,
    pub n: u32,
    pub total: u32,
}

impl From<OrderV1> for Order {
    fn from(o: OrderV1) -> Self {
        Order {
            customer: o.customer,
            n: o.n,
            total: o.total,
        }
    }
}

fn free() -> String {
    "free".into()
}

/// A user in v2: `email` under its own name, found by it through a sparse
/// index (users without one stay out), and a tier old users read as `free`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER")]
#[pk("CUSTOMER#<customer>")]
#[sk("PROFILE")]
#[gsi("GSI1", pk = "EMAIL#<email>", sk = "PROFILE", sparse)]
pub struct User {
    pub customer: String,
    #[dynamo(omit_empty)]
    pub email: String,
    #[dynamo(default = "free")]
    pub tier: String,
}

/// The v1 table (its snapshot is current).
#[derive(DynamoTable)]
#[dynamo(entities(OrderV1, UserV1), schema = "schema_evolution.schema")]
pub struct ShopV1;

/// What moves v1 items to v2, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration::rekey::<OrderV1, Order>("orders-sk-d6"),
    Migration::rename_attribute::<User>("users-mail-to-email", "mail", "email"),
    Migration::backfill::<User>("users-by-email"),
    Migration::fill_default::<User>("users-tier", "tier"),
];

/// The v2 table, checked at compile time against the v1 snapshot: the
/// migrations cover the drift.
#[derive(DynamoTable)]
#[dynamo(
    entities(Order, User),
    schema = "schema_evolution.schema",
    migrations = MIGRATIONS
)]
pub struct ShopV2;

/// How many items, on the embedded engine and on a server.
pub fn sizes(embedded: bool) -> (u32, u32) {
    if embedded {
        (4_000, 1_000)
    } else {
        (240, 60)
    }
}

/// What the recipe saw.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// v1 orders and users written.
    pub written: (u32, u32),
    /// Indexes `sync_table` added.
    pub added_indexes: Vec<&'static str>,
    /// The dry run's count of changes per step.
    pub dry_run: Vec<(&'static str, u64, u64)>,
    /// Pages the first run read before it was killed.
    pub killed_after_pages: u64,
    /// Items the concurrent writers wrote (orders, users).
    pub concurrent: (u64, u64),
    /// Changes per step of the resumed run.
    pub resumed: Vec<(&'static str, u64, bool)>,
    /// What a third run changed (nothing).
    pub third_run_changed: u64,
    /// Distinct orders read back through v2 keys, and whether every
    /// customer's came in `n` order.
    pub orders: (usize, bool),
    /// v2 orders expected: the v1 ones plus the writers'.
    pub orders_expected: usize,
    /// Order keys still in the v1 shape (`ORDER#dddd`).
    pub v1_keys_left: usize,
    /// Users found through the email index, and expected.
    pub by_email: (usize, usize),
    /// Users whose tier reads `free` (the v1 ones), and users whose tier
    /// attribute is stored (all, after the default is filled).
    pub tiers: (usize, usize),
    /// Users read, and expected.
    pub users: (usize, usize),
}

/// Creates the v1 table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(ShopV1::ENTITIES).await
}

fn customer(i: u32) -> String {
    format!("c{:03}", i % 50)
}

/// Writes v1, moves it to v2 under load with a kill, and reads v2 back.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let embedded = !std::env::var("DYNAKEY_ENDPOINT").is_ok_and(|v| !v.trim().is_empty());
    let (n_orders, n_users) = sizes(embedded);
    let mut batch = db.batch_write();
    for i in 0..n_orders {
        batch = batch.put(&OrderV1 {
            customer: customer(i),
            n: i,
            total: i % 97,
        });
    }
    for i in 0..n_users {
        // One user in ten has no address yet: out of the email index.
        let email = if i % 10 == 0 {
            String::new()
        } else {
            format!("u{i}@example.com")
        };
        batch = batch.put(&UserV1 {
            customer: format!("u{i:04}"),
            email,
        });
    }
    batch.send().await?;

    let added_indexes = db.sync_table(ShopV2::ENTITIES).await?;
    let dry = db.migrate(MIGRATIONS).dry_run().await?;

    // Two writers write v2 items while the migration runs.
    let stop = Arc::new(AtomicBool::new(false));
    let (orders_written, users_written) =
        (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let (db, stop) = (db.clone(), stop.clone());
            let (ow, uw) = (orders_written.clone(), users_written.clone());
            tokio::spawn(async move {
                let mut k = 0u32;
                while !stop.load(Ordering::Relaxed) {
                    let n = 100_000 + w * 10_000 + k;
                    db.put(&Order {
                        customer: customer(k),
                        n,
                        total: 1,
                    })
                    .await?;
                    ow.fetch_add(1, Ordering::Relaxed);
                    if k.is_multiple_of(4) {
                        let email = format!("new{w}-{k}@example.com");
                        db.put(&User {
                            customer: format!("n{w}-{k:04}"),
                            email,
                            tier: "pro".into(),
                        })
                        .await?;
                        uw.fetch_add(1, Ordering::Relaxed);
                    }
                    k += 1;
                    tokio::task::yield_now().await;
                }
                Ok::<(), Error>(())
            })
        })
        .collect();

    // The first run is killed after a random number of pages.
    let total_pages = dry.steps.iter().map(|s| s.scanned).sum::<u64>() / 50 + 1;
    let kill_at = 1 + uuid::Uuid::new_v4().as_u128() as u64 % total_pages.max(2);
    let pages = Arc::new(AtomicU64::new(0));
    let seen = pages.clone();
    let first = db.migrate(MIGRATIONS).page_size(50).on_progress(move |_| {
        seen.fetch_add(1, Ordering::Relaxed);
    });
    let killed = async {
        while pages.load(Ordering::Relaxed) < kill_at {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    };
    tokio::select! {
        r = first.send() => { r?; }
        _ = killed => {}
    }
    let killed_after_pages = pages.load(Ordering::Relaxed);
    let resumed = db.migrate(MIGRATIONS).page_size(50).await?;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.map_err(|e| Error::Backend {
            message: e.to_string(),
            source: None,
        })??;
    }
    let third = db.migrate(MIGRATIONS).await?;

    let concurrent = (
        orders_written.load(Ordering::Relaxed),
        users_written.load(Ordering::Relaxed),
    );
    let check = verify(db, n_orders, n_users, concurrent).await?;
    Ok(Report {
        written: (n_orders, n_users),
        added_indexes,
        dry_run: dry
            .steps
            .iter()
            .map(|s| (s.name, s.changed, s.write_units))
            .collect(),
        killed_after_pages,
        concurrent,
        resumed: resumed
            .steps
            .iter()
            .map(|s| (s.name, s.changed, s.already_done))
            .collect(),
        third_run_changed: third.changed(),
        ..check
    })
}

/// Reads v2 back and compares it with what was written.
async fn verify(
    db: &Db,
    n_orders: u32,
    n_users: u32,
    concurrent: (u64, u64),
) -> Result<Report, Error> {
    // Every customer's orders, through the v2 key, in `n` order.
    let mut seen = BTreeSet::new();
    let mut in_order = true;
    for c in 0..50 {
        let orders = db
            .query(Order::pk(customer(c))?)
            .sk(Order::sk().begins_with()?)
            .all()
            .await?;
        in_order &= orders.windows(2).all(|w| w[0].n < w[1].n);
        seen.extend(orders.into_iter().map(|o| (o.customer, o.n)));
    }
    // The raw items: nothing of the v1 order shape is left, and every user
    // holds its tier.
    let (mut v1_keys_left, mut tiers_stored) = (0, 0);
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(|e| Error::Backend {
                message: e.to_string(),
                source: None,
            })?;
        for i in out.items() {
            let s = |a: &str| i.get(a).and_then(|v| v.as_s().ok()).map(String::as_str);
            if s("sk").is_some_and(|k| k.starts_with("ORDER#") && k.len() == "ORDER#0000".len()) {
                v1_keys_left += 1;
            }
            if s("_type") == Some("USER") && i.contains_key("tier") {
                tiers_stored += 1;
            }
        }
        match out.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => break,
        }
    }
    let users = db.scan::<User>().all().await?;
    let with_email: Vec<&User> = users.iter().filter(|u| !u.email.is_empty()).collect();
    let mut by_email = 0;
    for u in &with_email {
        by_email += db.query(User::gsi1_pk(&u.email)?).all().await?.len();
    }
    let free = users.iter().filter(|u| u.tier == "free").count();
    Ok(Report {
        written: (0, 0),
        added_indexes: Vec::new(),
        dry_run: Vec::new(),
        killed_after_pages: 0,
        concurrent: (0, 0),
        resumed: Vec::new(),
        third_run_changed: 0,
        orders: (seen.len(), in_order),
        orders_expected: n_orders as usize + concurrent.0 as usize,
        v1_keys_left,
        by_email: (by_email, with_email.len()),
        tiers: (free, tiers_stored),
        users: (users.len(), n_users as usize + concurrent.1 as usize),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut dry = Table::new("dry run", ["step", "items to change", "write units"]);
        for (name, n, wcu) in &self.dry_run {
            dry.push([name.to_string(), n.to_string(), wcu.to_string()]);
        }
        p.table(dry);
        let mut res = Table::new("resumed run", ["step", "changed", "finished before"]);
        for (name, n, done) in &self.resumed {
            res.push([name.to_string(), n.to_string(), done.to_string()]);
        }
        p.table(res);
        p.table(
            Table::new("v2 read back", ["what", "got", "expected"])
                .row([
                    "orders (v1 + concurrent)".to_owned(),
                    self.orders.0.to_string(),
                    self.orders_expected.to_string(),
                ])
                .row([
                    "v1-shaped order keys left".to_owned(),
                    self.v1_keys_left.to_string(),
                    "0".into(),
                ])
                .row([
                    "users found by email".to_owned(),
                    self.by_email.0.to_string(),
                    self.by_email.1.to_string(),
                ])
                .row([
                    "users".to_owned(),
                    self.users.0.to_string(),
                    self.users.1.to_string(),
                ])
                .row([
                    "users with a stored tier".to_owned(),
                    self.tiers.1.to_string(),
                    self.users.1.to_string(),
                ]),
        );
        p.note(format!(
            "{} orders and {} users written in v1; index {:?} added; first run killed after {} pages with {} orders and {} users written meanwhile; a third run changed {}",
            self.written.0, self.written.1, self.added_indexes, self.killed_after_pages, self.concurrent.0, self.concurrent.1, self.third_run_changed
        ));
        p.fmt(f)
    }
}
