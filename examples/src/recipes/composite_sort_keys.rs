//! Seed 003 "Composite sort keys": a company's staff by country, city and
//! number in one partition (`SITE#CH#Zurich#EMP#000042`); `begins_with`
//! over the leading fields reads any depth. `d6` orders numbers that are not
//! negative; `n4` takes a sign.

use std::fmt;

use dynakey::{Db, Entity, Error};

use crate::report::{Printout, Table};
use crate::seeds::{Adjustment, Employee};

super::recipe!(
    "composite_sort_keys",
    "003 Composite sort keys",
    "SITE#<country>#<city>#EMP#<number:d6>: begins_with at any depth, padded numbers, signed n4"
);

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// `begins_with(sk, "SITE#")`, counted.
    pub everyone: u64,
    /// `begins_with(sk, "SITE#CH#")`, counted.
    pub in_switzerland: u64,
    /// `begins_with(sk, "SITE#CH#Zurich#EMP#")`: the numbers, in order.
    pub in_zurich: Vec<i32>,
    /// City York: `York` does not select `Yorkshire`.
    pub in_york: Vec<i32>,
    /// Zurich, numbers 2 to 10 (`between`).
    pub zurich_2_to_10: Vec<i32>,
    /// The stored sort keys of the Zurich staff.
    pub zurich_keys: Vec<String>,
    /// Adjustments under `n4`, in sort-key order: (delta, stored sort key).
    pub adjustments: Vec<(i32, String)>,
    /// The error of number −1 under `d6`.
    pub negative_error: String,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Employee::META, Adjustment::META]).await
}

const STAFF: [(&str, &str, i32); 8] = [
    ("CH", "Zurich", 10),
    ("CH", "Zurich", 2),
    ("CH", "Zurich", 1),
    ("CH", "Bern", 3),
    ("DE", "Berlin", 4),
    ("GB", "York", 5),
    ("GB", "Yorkshire", 6),
    ("GB", "York", 7),
];

/// Writes eight employees of acme (and one of another org) and five
/// adjustments, then reads the hierarchy at each depth.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let emp = |org: &str, country: &str, city: &str, number| Employee {
        org: org.into(),
        country: country.into(),
        city: city.into(),
        number,
    };
    let mut batch = db.batch_write().put(&emp("globex", "CH", "Zurich", 1));
    for (country, city, number) in STAFF {
        batch = batch.put(&emp("acme", country, city, number));
    }
    for delta in [3, -10, 250, 0, -2] {
        batch = batch.put(&Adjustment {
            account: "a1".into(),
            delta,
        });
    }
    batch.send().await?;

    let acme = || Employee::pk("acme");
    let everyone = db
        .query(acme()?)
        .sk(Employee::sk().begins_with()?)
        .count()
        .await?;
    let in_switzerland = db
        .query(acme()?)
        .sk(Employee::sk().country("CH").begins_with()?)
        .count()
        .await?;
    let zurich = db
        .query(acme()?)
        .sk(Employee::sk().country("CH").city("Zurich").begins_with()?)
        .all()
        .await?;
    let in_york = db
        .query(acme()?)
        .sk(Employee::sk().country("GB").city("York").begins_with()?)
        .all()
        .await?;
    let zurich_2_to_10 = db
        .query(acme()?)
        .sk(Employee::sk().country("CH").city("Zurich").between(2, 10)?)
        .all()
        .await?;
    let mut zurich_keys = Vec::new();
    for e in &zurich {
        let k = e.item_key()?;
        zurich_keys.push(k.sk().unwrap_or_default().to_owned());
    }
    let adjustments = db
        .query(Adjustment::pk("a1")?)
        .all()
        .await?
        .into_iter()
        .map(|a| {
            let sk = Adjustment::key("a1", a.delta)
                .map(|k| k.sk().unwrap_or_default().to_owned())
                .unwrap_or_default();
            (a.delta, sk)
        })
        .collect();
    let negative_error = match Employee::key("acme", "CH", "Zurich", -1) {
        Err(e) => e.to_string(),
        Ok(k) => format!("unexpectedly built {k:?}"),
    };
    let numbers = |v: Vec<Employee>| v.into_iter().map(|e| e.number).collect();
    Ok(Report {
        everyone,
        in_switzerland,
        in_zurich: numbers(zurich),
        in_york: numbers(in_york),
        zurich_2_to_10: numbers(zurich_2_to_10),
        zurich_keys,
        adjustments,
        negative_error,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.table(
            Table::new("ORG#acme at each depth", ["condition", "result"])
                .row(["begins_with SITE# (count)", &self.everyone.to_string()])
                .row([
                    "begins_with SITE#CH# (count)",
                    &self.in_switzerland.to_string(),
                ])
                .row([
                    "begins_with SITE#CH#Zurich#EMP#".to_owned(),
                    format!("{:?}", self.in_zurich),
                ])
                .row([
                    "begins_with SITE#GB#York#EMP#".to_owned(),
                    format!("{:?} (not Yorkshire)", self.in_york),
                ])
                .row([
                    "Zurich, number between 2 and 10".to_owned(),
                    format!("{:?}", self.zurich_2_to_10),
                ]),
        );
        let mut t = Table::new("stored sort keys in Zurich (d6: 10 after 2)", ["sk"]);
        for k in &self.zurich_keys {
            t.push([k]);
        }
        p.table(t);
        let mut t = Table::new(
            "ACCOUNT#a1 under n4: -10 before -2 before 0",
            ["delta", "sk"],
        );
        for (d, sk) in &self.adjustments {
            t.push([d.to_string(), sk.clone()]);
        }
        p.table(t);
        p.note(format!("number -1 under d6: {}", self.negative_error));
        p.fmt(f)
    }
}
