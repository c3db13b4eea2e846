//! A production table on a laptop: the table's export to S3 (DynamoDB
//! JSON, one `{"Item": ..}` per line, as "DynamoDB table export output
//! format" in AWS's developer guide describes it) loaded into a table and
//! looked at with the design view's live view; then an incremental export
//! applied on top and read as typed changes.
//!
//! With a real export, the same in four commands (gzip is yours):
//!
//! ```text
//! aws s3 cp --recursive s3://BUCKET/PREFIX/AWSDynamoDB/EXPORT_ID/data/ export/
//! gunzip export/*.json.gz
//! cargo run --example design -- load --file prod.db --table shop export/*.json
//! cargo run --example design -- live --file prod.db --table shop --html shop-live.html
//! ```
//!
//! `load` writes into the embedded engine's file (`local::file`); the
//! recipe does the same into the table it is given, on any backend, with an
//! export it writes itself: the shop of seed 002 as other clients left it
//! (numbers in their own forms, the three items the live view exists to
//! find) and a last line a broken download cut short.

use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::changes::{item_to_json, ChangeDecoder, ChangeKind, ExportReader};
use dynakey::design::ItemStatus;
use dynakey::{Db, DynamoUnion, Entity, Error, Item};
use serde_json::json;

use crate::designs::{self, tables::Shop};
use crate::report::{Printout, Table};
use crate::seeds::{OrderInfo, OrderStatus, Product, UserOrder, UserProfile};

super::recipe!(
    "export_to_laptop",
    "AWS DynamoDB table export output format (full and incremental exports)",
    "a full export loaded into a table and checked by the live view; an incremental export applied and read as typed changes"
);

/// What the shop table holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum ShopItem {
    /// `USER#<id>` / `#PROFILE`.
    Profile(UserProfile),
    /// `USER#<id>` / `ORDER#<id>`.
    Order(UserOrder),
    /// `ORDER#<id>` / `#INFO`.
    Info(OrderInfo),
    /// `PRODUCT#<id>` / `#DETAILS`.
    Product(Product),
}

/// What the recipe found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Lines in the full export.
    pub lines: usize,
    /// Items the full export wrote.
    pub loaded: usize,
    /// The lines it could not read: (line, why).
    pub bad_lines: Vec<(u64, String)>,
    /// Items the live view read back, and whether that is the table.
    pub viewed: (usize, bool),
    /// Items per entity, in the design's order.
    pub counts: Vec<(&'static str, usize)>,
    /// What the live view points out: (pk, sk, what).
    pub problems: Vec<(String, String, String)>,
    /// The incremental export's typed changes: (what, key, changed fields).
    pub changes: Vec<(String, String, Vec<&'static str>)>,
    /// What applying it did: (puts, deletes).
    pub applied: (usize, usize),
    /// Order o1's status after it.
    pub o1_status: Option<OrderStatus>,
    /// Whether product p2 is still there after it.
    pub p2_left: bool,
}

/// Creates the shop table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(Shop::ENTITIES).await
}

fn user(id: &str, name: &str) -> UserProfile {
    UserProfile {
        name: name.into(),
        user_id: id.into(),
        email: format!("{}@example.com", name.to_lowercase()),
        ..designs::values::user_profile()
    }
}

fn order(user: &str, id: &str, cents: i64, status: OrderStatus) -> UserOrder {
    UserOrder {
        user_id: user.into(),
        order_id: id.into(),
        amount: rust_decimal::Decimal::new(cents, 2),
        status,
        ..designs::values::user_order()
    }
}

fn product(id: &str, stock: u32) -> Product {
    Product {
        product_id: id.into(),
        stock,
        ..designs::values::product()
    }
}

fn item<E: Entity>(e: &E) -> Result<Item, Error> {
    Ok(e.to_item()?)
}

/// A number attribute rewritten in another client's form (`10` as `1.0E1`).
fn written_by_another_client(mut item: Item, attr: &str, text: &str) -> Item {
    item.insert(attr.to_owned(), AttributeValue::N(text.to_owned()));
    item
}

/// The full export's lines, as its data file holds them once gunzipped:
/// the shop's items (two numbers in another client's form), the three the
/// live view points out, and a last line cut short.
///
/// ```
/// let lines = dynakey_examples::recipes::export_to_laptop::full_export().unwrap();
/// assert_eq!(lines.len(), 12);
/// assert!(lines[0].starts_with("{\"Item\":{"));
/// ```
pub fn full_export() -> Result<Vec<String>, Error> {
    let mut items = vec![
        item(&user("u1", "Alice"))?,
        item(&user("u2", "Bob"))?,
        item(&order("u1", "o1", 1999, OrderStatus::Open))?,
        item(&order("u1", "o2", 500, OrderStatus::Shipped))?,
        item(&order("u2", "o3", 4250, OrderStatus::Open))?,
        item(&designs::values::order_info())?,
        written_by_another_client(item(&product("p1", 10))?, "stock", "1.0E1"),
        written_by_another_client(item(&product("p2", 3))?, "price", "9.990"),
    ];
    items.extend(designs::values::problem_items());
    let mut lines: Vec<String> = items
        .iter()
        .map(|i| json!({ "Item": item_to_json(i) }).to_string())
        .collect();
    // A download cut short.
    lines.push(r##"{"Item":{"pk":{"S":"PRODUCT#p9"},"sk":{"S":"#DE"##.to_owned());
    Ok(lines)
}

/// One line of an incremental export (NEW_AND_OLD_IMAGES).
fn incremental_line(micros: u64, keys: &Item, old: Option<&Item>, new: Option<&Item>) -> String {
    let mut v = json!({
        "Metadata": { "WriteTimestampMicros": { "N": micros.to_string() } },
        "Keys": item_to_json(keys),
    });
    if let Some(o) = old {
        v["OldImage"] = item_to_json(o);
    }
    if let Some(n) = new {
        v["NewImage"] = item_to_json(n);
    }
    v.to_string()
}

/// The incremental export's lines: o1 shipped, p2 deleted, u4 signed up.
///
/// ```
/// let lines = dynakey_examples::recipes::export_to_laptop::incremental_export().unwrap();
/// assert!(lines.iter().all(|l| l.contains("WriteTimestampMicros")));
/// ```
pub fn incremental_export() -> Result<Vec<String>, Error> {
    let open = order("u1", "o1", 1999, OrderStatus::Open);
    let shipped = order("u1", "o1", 1999, OrderStatus::Shipped);
    let p2 = product("p2", 3);
    let u4 = user("u4", "Dee");
    let t = 1_784_196_000_000_000;
    Ok(vec![
        incremental_line(
            t,
            &open.item_key()?.to_attributes(),
            Some(&item(&open)?),
            Some(&item(&shipped)?),
        ),
        incremental_line(
            t + 500_000,
            &p2.item_key()?.to_attributes(),
            Some(&item(&p2)?),
            None,
        ),
        incremental_line(
            t + 1_000_000,
            &u4.item_key()?.to_attributes(),
            None,
            Some(&item(&u4)?),
        ),
    ])
}

fn refused(message: impl Into<String>) -> Error {
    Error::Refused {
        reason: dynakey::RefusedReason::Other,
        message: message.into(),
    }
}

/// Loads the export into `db`, looks at it with the live view, and applies
/// the incremental export.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let full = full_export()?;
    let load = ExportReader::new(full.join("\n").as_bytes())
        .load_into(db)
        .await?;
    let bad_lines = load
        .errors
        .iter()
        .map(|e| (e.line, e.kind.to_string()))
        .collect();

    let design = (designs::find("shop")
        .ok_or_else(|| refused("no shop design"))?
        .build)()?;
    let view = design.live(db, 1000).await?;
    let problems = view
        .problems()
        .map(|i| {
            let what = match &i.status {
                ItemStatus::Unmatched { .. } => "matches no entity",
                ItemStatus::Undecodable { .. } => "does not decode",
                ItemStatus::Drift { .. } => "keys drifted",
                ItemStatus::Sound | ItemStatus::Unchecked => "",
            };
            (
                i.pk.clone(),
                i.sk.clone().unwrap_or_default(),
                what.to_owned(),
            )
        })
        .collect();

    let inc = incremental_export()?.join("\n");
    let mut changes = Vec::new();
    for c in ExportReader::new(inc.as_bytes()).changes(ChangeDecoder::<ShopItem>::union()) {
        let c = c.map_err(|e| refused(e.to_string()))?;
        let key = key_text(&c.keys);
        let (what, changed) = match &c.kind {
            ChangeKind::Inserted(_) => ("inserted", Vec::new()),
            ChangeKind::Modified { changed, .. } => ("modified", changed.clone()),
            ChangeKind::Removed(_) => ("removed", Vec::new()),
            _ => ("other", Vec::new()),
        };
        changes.push((what.to_owned(), key, changed));
    }
    let applied = ExportReader::new(inc.as_bytes()).load_into(db).await?;
    let o1 = db.get(UserOrder::key("u1", "o1")?).consistent().await?;
    let p2 = db.get(Product::key("p2")?).consistent().await?;
    Ok(Report {
        lines: full.len(),
        loaded: load.puts,
        bad_lines,
        viewed: (view.items().len(), view.is_complete()),
        counts: view.counts(),
        problems,
        changes,
        applied: (applied.puts, applied.deletes),
        o1_status: o1.map(|o| o.status),
        p2_left: p2.is_some(),
    })
}

/// `pk / sk` of a key.
fn key_text(keys: &Item) -> String {
    let s = |a: &str| {
        keys.get(a)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    format!("{} / {}", s("pk"), s("sk"))
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.note(format!(
            "full export: {} lines, {} items loaded, {} line(s) unreadable",
            self.lines,
            self.loaded,
            self.bad_lines.len()
        ));
        let mut bad = Table::new("unreadable lines", ["line", "why"]);
        for (line, why) in &self.bad_lines {
            bad.push([line.to_string(), why.clone()]);
        }
        p.table(bad);
        let mut counts = Table::new(
            format!(
                "live view: {} items{}",
                self.viewed.0,
                if self.viewed.1 {
                    " (the whole table)"
                } else {
                    ""
                }
            ),
            ["entity", "items"],
        );
        for (e, n) in &self.counts {
            counts.push([(*e).to_owned(), n.to_string()]);
        }
        p.table(counts);
        let mut problems = Table::new("what the live view points out", ["pk", "sk", "problem"]);
        for (pk, sk, what) in &self.problems {
            problems.push([pk, sk, what]);
        }
        p.table(problems);
        let mut changes = Table::new(
            "incremental export, as typed changes",
            ["change", "key", "changed"],
        );
        for (what, key, changed) in &self.changes {
            changes.push([what.clone(), key.clone(), changed.join(", ")]);
        }
        p.table(changes);
        p.note(format!(
            "applied: {} put, {} deleted; o1 now {:?}; p2 {}",
            self.applied.0,
            self.applied.1,
            self.o1_status,
            if self.p2_left { "still there" } else { "gone" }
        ));
        p.fmt(f)
    }
}
