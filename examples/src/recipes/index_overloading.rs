//! Seed 000 "Index overloading": staffers, expenses and warehouses give
//! GSI1's key attributes their own meaning (`TEAM#`/`HIRED#`,
//! `TEAM#`/`AMOUNT#`, `CITY#`/name), and one index answers a question per
//! type.

use std::fmt;

use dynakey::{Db, DynamoUnion, Entity, Error};
use rust_decimal::Decimal;
use time::macros::date;

use super::adjacency::usage_row;
use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::{Expense, Staffer, Warehouse};

super::recipe!(
    "index_overloading",
    "000 Index overloading",
    "one GSI, a meaning per type: a team's hires, its expenses (refund first), a city's warehouses"
);

/// What a team's GSI1 partition holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum TeamPartition {
    /// `HIRED#<date>`.
    Staffer(Staffer),
    /// `AMOUNT#<n8.2>`.
    Expense(Expense),
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Team red's staff by `begins_with(gsi1sk, "HIRED#")`, oldest hire first.
    pub hires: Vec<Staffer>,
    /// Warehouses in Bern (GSI1 `CITY#Bern`), by name.
    pub in_bern: Vec<Warehouse>,
    /// Team red's whole GSI1 partition: expenses (refund first), then staff.
    pub by_team: Vec<TeamPartition>,
    /// The typed staff query without the prefix: expenses read and dropped.
    pub hires_unprefixed: Usage,
    /// With `begins_with(gsi1sk, "HIRED#")`: only staff read.
    pub hires_prefixed: Usage,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Staffer::META, Expense::META, Warehouse::META])
        .await
}

/// Writes three staffers (two on team red), three expenses of red (one a
/// refund) and three warehouses (two in Bern), then reads GSI1 three ways.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let staffer = |id: &str, team: &str, hired_on| Staffer {
        id: id.into(),
        team: team.into(),
        hired_on,
    };
    let expense = |id: &str, amount| Expense {
        id: id.into(),
        team: "red".into(),
        amount,
    };
    let warehouse = |id: &str, city: &str, name: &str| Warehouse {
        id: id.into(),
        city: city.into(),
        name: name.into(),
    };
    db.batch_write()
        .put(&staffer("s1", "red", date!(2024 - 03 - 01)))
        .put(&staffer("s2", "red", date!(2021 - 11 - 15)))
        .put(&staffer("s3", "blue", date!(2022 - 06 - 30)))
        .put(&expense("e1", Decimal::new(4000, 2)))
        .put(&expense("e2", Decimal::new(-1550, 2)))
        .put(&expense("e3", Decimal::new(1_250_000, 2)))
        .put(&warehouse("w1", "Bern", "West"))
        .put(&warehouse("w2", "Bern", "East"))
        .put(&warehouse("w3", "Basel", "Rhine"))
        .send()
        .await?;

    let hires = db
        .query(Staffer::gsi1_pk("red")?)
        .sk(Staffer::gsi1_sk().begins_with()?)
        .all()
        .await?;
    let in_bern = db.query(Warehouse::gsi1_pk("Bern")?).all().await?;
    let by_team = db
        .query(Staffer::gsi1_pk("red")?)
        .of::<TeamPartition>()
        .all()
        .await?;

    let (metered, meter) = Meter::attach(db);
    metered.query(Staffer::gsi1_pk("red")?).all().await?;
    let hires_unprefixed = meter.take();
    metered
        .query(Staffer::gsi1_pk("red")?)
        .sk(Staffer::gsi1_sk().begins_with()?)
        .all()
        .await?;
    let hires_prefixed = meter.take();
    Ok(Report {
        hires,
        in_bern,
        by_team,
        hires_unprefixed,
        hires_prefixed,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new(
            "GSI1 TEAM#red, begins_with HIRED#: team red's hires, oldest first",
            ["id", "hired on"],
        );
        for s in &self.hires {
            t.push([s.id.clone(), s.hired_on.to_string()]);
        }
        p.table(t);
        let mut t = Table::new("GSI1 CITY#Bern: warehouses by name", ["id", "name"]);
        for w in &self.in_bern {
            t.push([&w.id, &w.name]);
        }
        p.table(t);
        let mut t = Table::new(
            "GSI1 TEAM#red, every type: AMOUNT# sorts before HIRED#, -15.50 before 40",
            ["type", "id", "value"],
        );
        for i in &self.by_team {
            match i {
                TeamPartition::Expense(e) => {
                    t.push(["Expense".into(), e.id.clone(), e.amount.to_string()])
                }
                TeamPartition::Staffer(s) => {
                    t.push(["Staffer".into(), s.id.clone(), s.hired_on.to_string()])
                }
            }
        }
        p.table(t);
        p.table(
            Table::new(
                "typed Staffer query of GSI1 TEAM#red: what DynamoDB reads",
                [
                    "sort-key condition",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("none (type filter)", &self.hires_unprefixed))
            .row(usage_row("begins_with HIRED#", &self.hires_prefixed)),
        );
        p.fmt(f)
    }
}
