//! Seed 002 "Key schema for one-table design": users, their orders, order
//! details and products in one table with enriched keys
//! (`USER#<id>`/`#PROFILE`, `USER#<id>`/`ORDER#<id>`, `ORDER#<id>`/`#INFO`,
//! `PRODUCT#<id>`/`#DETAILS`) and the seed's three queries: a user's
//! profile, all orders of a user, an order's details. Products are read
//! in one batch.

use std::fmt;

use dynakey::{Db, DynamoUnion, Entity, Error};
use rust_decimal::Decimal;
use time::macros::{date, datetime};

use super::adjacency::usage_row;
use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::{OrderInfo, OrderStatus, Product, UserOrder, UserProfile};

super::recipe!(
    "users_orders_products",
    "002 Key schema for one-table design",
    "USER#/#PROFILE, USER#/ORDER#, ORDER#/#INFO, PRODUCT#/#DETAILS and the three example queries"
);

/// What a user's partition holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum UserItem {
    /// `#PROFILE` (sorts before `ORDER#`).
    Profile(UserProfile),
    /// `ORDER#<id>`.
    Order(UserOrder),
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// 1. Get user profile: `USER#u1` / `#PROFILE`.
    pub profile: Option<UserProfile>,
    /// 2. All orders of u1: `begins_with(sk, "ORDER#")`.
    pub orders: Vec<UserOrder>,
    /// 3. Order details: `ORDER#o2` / `#INFO`.
    pub details: Option<OrderInfo>,
    /// u1's whole partition, every type, in key order.
    pub partition: Vec<UserItem>,
    /// Three products read in one batch (sorted by id).
    pub products: Vec<Product>,
    /// What each read cost: profile, orders, details, products.
    pub usage: [Usage; 4],
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[
        UserProfile::META,
        UserOrder::META,
        OrderInfo::META,
        Product::META,
    ])
    .await
}

fn user_order(user_id: &str, order_id: &str, amount: i64, status: OrderStatus) -> UserOrder {
    UserOrder {
        user_id: user_id.into(),
        order_id: order_id.into(),
        order_date: date!(2026 - 07 - 16),
        amount: Decimal::new(amount, 2),
        status,
    }
}

/// Writes two users with orders, the orders' details and three products,
/// then runs the seed's queries.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write();
    for (id, name) in [("u1", "Alice"), ("u2", "Bob")] {
        batch = batch.put(&UserProfile {
            user_id: id.into(),
            name: name.into(),
            email: format!("{}@example.com", name.to_lowercase()),
            created_at: datetime!(2026-01-02 03:04:05 UTC),
        });
    }
    for (user, order, amount, status) in [
        ("u1", "o1", 1999, OrderStatus::Shipped),
        ("u1", "o2", 4550, OrderStatus::Open),
        ("u1", "o3", 500, OrderStatus::Open),
        ("u2", "o4", 12000, OrderStatus::Open),
    ] {
        batch = batch
            .put(&user_order(user, order, amount, status))
            .put(&OrderInfo {
                order_id: order.into(),
                items: vec!["p1".into(), "p3".into()],
                shipping_address: format!("{user}, 1 Main St"),
            });
    }
    for (id, price, stock, category) in [
        ("p1", 999, 10, "books"),
        ("p2", 2500, 0, "games"),
        ("p3", 150, 200, "books"),
    ] {
        batch = batch.put(&Product {
            product_id: id.into(),
            price: Decimal::new(price, 2),
            stock,
            category: category.into(),
        });
    }
    batch.send().await?;

    let (m, meter) = Meter::attach(db);
    let profile = m.get(UserProfile::key("u1")?).await?;
    let u0 = meter.take();
    let orders = m
        .query(UserOrder::pk("u1")?)
        .sk(UserOrder::sk().begins_with()?)
        .all()
        .await?;
    let u1 = meter.take();
    let details = m.get(OrderInfo::key("o2")?).await?;
    let u2 = meter.take();
    let keys = ["p1", "p2", "p3"]
        .map(Product::key)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let mut products = m.batch_get(keys).await?.items;
    let u3 = meter.take();
    products.sort_by(|a, b| a.product_id.cmp(&b.product_id));
    let partition = db
        .query(UserProfile::pk("u1")?)
        .of::<UserItem>()
        .all()
        .await?;
    Ok(Report {
        profile,
        orders,
        details,
        partition,
        products,
        usage: [u0, u1, u2, u3],
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new("USER#u1, every type in key order", ["sk", "what"]);
        for i in &self.partition {
            match i {
                UserItem::Profile(u) => {
                    t.push(["#PROFILE".to_owned(), format!("{} <{}>", u.name, u.email)])
                }
                UserItem::Order(o) => t.push([
                    format!("ORDER#{}", o.order_id),
                    format!("{} {:?}", o.amount, o.status),
                ]),
            }
        }
        p.table(t);
        p.note(format!(
            "1. profile of u1: {:?}",
            self.profile.as_ref().map(|u| &u.name)
        ));
        p.note(format!(
            "2. orders of u1: {:?}",
            self.orders.iter().map(|o| &o.order_id).collect::<Vec<_>>()
        ));
        p.note(format!(
            "3. details of o2: {:?}",
            self.details
                .as_ref()
                .map(|d| (&d.items, &d.shipping_address))
        ));
        let mut t = Table::new(
            "products (one BatchGetItem)",
            ["id", "price", "stock", "category"],
        );
        for pr in &self.products {
            t.push([
                pr.product_id.clone(),
                pr.price.to_string(),
                pr.stock.to_string(),
                pr.category.clone(),
            ]);
        }
        p.table(t);
        p.table(
            Table::new(
                "what each access pattern costs",
                [
                    "query",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("1. get profile", &self.usage[0]))
            .row(usage_row("2. orders (begins_with ORDER#)", &self.usage[1]))
            .row(usage_row("3. get order details", &self.usage[2]))
            .row(usage_row("products (batch get)", &self.usage[3])),
        );
        p.fmt(f)
    }
}
