//! Seed 001 "Zero-padded numbers in composites": a number inside a string
//! key must have a fixed width. `ITEM#<number:d6>` sorts 2 before 10; a
//! label composed by hand, `item-2`, sorts after `item-10`: the classic
//! silent bug. (An integer in a sort key without a width does not compile:
//! DYNA103.)

use std::fmt;

use dynakey::{Db, Entity, Error};

use crate::report::{Printout, Table};
use crate::seeds::{HandKeyed, Ticket};

super::recipe!(
    "zero_padded",
    "001 Zero-padded numbers in composites",
    "ITEM#<number:d6> sorts 2 before 10; a hand-made item-2 sorts after item-10"
);

/// The numbers written, in this order.
pub const NUMBERS: [u32; 7] = [10, 2, 100, 1, 11, 9, 3];

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Tickets in sort-key order.
    pub padded: Vec<u32>,
    /// Their stored sort keys.
    pub padded_keys: Vec<String>,
    /// Hand-made labels in sort-key order.
    pub hand_made: Vec<String>,
    /// Tickets numbered 2 or more (`ge(2)`).
    pub padded_from_2: Vec<u32>,
    /// Labels from `item-2` on (`ge("item-2")`): 10, 11 and 100 are lost.
    pub hand_made_from_2: Vec<String>,
    /// Number 1 000 000 under `d6`.
    pub too_wide: String,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Ticket::META, HandKeyed::META]).await
}

/// Writes the numbers both ways and reads them back in key order.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let mut batch = db.batch_write();
    for number in NUMBERS {
        batch = batch
            .put(&Ticket {
                project: "p1".into(),
                number,
            })
            .put(&HandKeyed {
                project: "p1".into(),
                label: format!("item-{number}"),
            });
    }
    batch.send().await?;
    let p1 = || Ticket::pk("p1");
    let tickets = db
        .query(p1()?)
        .sk(Ticket::sk().begins_with()?)
        .all()
        .await?;
    let mut padded_keys = Vec::new();
    for t in &tickets {
        padded_keys.push(t.item_key()?.sk().unwrap_or_default().to_owned());
    }
    let hand_made = db
        .query(HandKeyed::pk("p1")?)
        .sk(HandKeyed::sk().begins_with()?)
        .all()
        .await?;
    let padded_from_2 = db.query(p1()?).sk(Ticket::sk().ge(2)?).all().await?;
    let hand_made_from_2 = db
        .query(HandKeyed::pk("p1")?)
        .sk(HandKeyed::sk().ge("item-2")?)
        .all()
        .await?;
    let too_wide = match Ticket::key("p1", 1_000_000) {
        Err(e) => e.to_string(),
        Ok(k) => format!("built {k:?}"),
    };
    let numbers = |v: Vec<Ticket>| v.into_iter().map(|t| t.number).collect();
    let labels = |v: Vec<HandKeyed>| v.into_iter().map(|h| h.label).collect();
    Ok(Report {
        padded: numbers(tickets),
        padded_keys,
        hand_made: labels(hand_made),
        padded_from_2: numbers(padded_from_2),
        hand_made_from_2: labels(hand_made_from_2),
        too_wide,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new(
            "PROJECT#p1 in key order",
            ["ITEM#<number:d6>", "LABEL#item-<n> (by hand)"],
        );
        for (k, h) in self.padded_keys.iter().zip(&self.hand_made) {
            t.push([k, h]);
        }
        p.table(t);
        p.table(
            Table::new("from 2 on", ["read", "result"])
                .row(["ge(2)".to_owned(), format!("{:?}", self.padded_from_2)])
                .row([
                    "ge(\"item-2\")".to_owned(),
                    format!("{:?}", self.hand_made_from_2),
                ]),
        );
        p.note(format!("1000000 under d6: {}", self.too_wide));
        p.fmt(f)
    }
}
