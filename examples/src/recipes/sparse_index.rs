//! Seed 000 "Sparse index", the put-based half: an item whose index inputs
//! are `None` writes no index keys, so GSI2 holds only paying subscribers
//! and featured articles. A put of the changed item takes it out again.
//! With `omit_empty`, a plan written as `""` is left out like `None`.
//! (Subscribing and unsubscribing through an update come with the typed
//! update builder.)

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::date;

use super::adjacency::assert_written;
use crate::report::{Printout, Table};
use crate::seeds::{Article, LegacySubscriber, Subscriber};

super::recipe!(
    "sparse_index",
    "000 Sparse index",
    "GSI2 holds only items with every input: paying subscribers, featured articles",
    |db| vec![db.clone(), legacy_db(db)]
);

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// GSI2 `PLAN#pro`, oldest subscription first.
    pub pro: Vec<Subscriber>,
    /// GSI2 `PLAN#pro` after s1 was put again without a plan.
    pub pro_after_put: Vec<Subscriber>,
    /// s1 in the table after that put (it stays; only the index lost it).
    pub s1_in_table: Option<Subscriber>,
    /// GSI2 `FEATURED`, by day.
    pub featured: Vec<Article>,
    /// The `omit_empty` table's GSI2 `PLAN#pro`.
    pub legacy_pro: Vec<LegacySubscriber>,
}

/// The table of [`LegacySubscriber`] next to `db`: its GSI2 has no sort
/// key, so it cannot share GSI2 with [`Subscriber`].
pub fn legacy_db(db: &Db) -> Db {
    Db::new(db.client().clone(), format!("{}-legacy", db.table_name()))
}

/// Creates the table and the legacy table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[Subscriber::META, Article::META]).await?;
    legacy_db(db).create_table(&[LegacySubscriber::META]).await
}

fn sub(id: &str, plan: Option<&str>, since: Option<time::Date>) -> Subscriber {
    Subscriber {
        id: id.into(),
        plan: plan.map(Into::into),
        since,
    }
}

/// Writes four subscribers (two pro, one team, one free), four articles
/// (three featured), then reads the sparse index.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let article = |id: &str, featured_on| Article {
        id: id.into(),
        featured_on,
    };
    let out = db
        .batch_write()
        .put(&sub("s1", Some("pro"), Some(date!(2026 - 07 - 01))))
        .put(&sub("s2", None, None))
        .put(&sub("s3", Some("pro"), Some(date!(2026 - 06 - 15))))
        .put(&sub("s4", Some("team"), Some(date!(2026 - 07 - 10))))
        .put(&article("a1", Some(date!(2026 - 07 - 10))))
        .put(&article("a2", None))
        .put(&article("a3", Some(date!(2026 - 07 - 12))))
        .put(&article("a4", Some(date!(2026 - 07 - 01))))
        .send()
        .await?;
    assert_written(out.unprocessed.len())?;

    let pro = db.query(Subscriber::gsi2_pk("pro")?).all().await?;
    db.put(&sub("s1", None, None)).if_exists().await?;
    let pro_after_put = db.query(Subscriber::gsi2_pk("pro")?).all().await?;
    let s1_in_table = db.get(Subscriber::key("s1")?).consistent().await?;
    let featured = db.query(Article::gsi2_pk()?).all().await?;

    let legacy = legacy_db(db);
    for (id, plan) in [("l1", ""), ("l2", "pro")] {
        legacy
            .put(&LegacySubscriber {
                id: id.into(),
                plan: plan.into(),
            })
            .await?;
    }
    let legacy_pro = legacy
        .query(LegacySubscriber::gsi2_pk("pro")?)
        .all()
        .await?;
    Ok(Report {
        pro,
        pro_after_put,
        s1_in_table,
        featured,
        legacy_pro,
    })
}

fn subs(title: &str, v: &[Subscriber]) -> Table {
    let mut t = Table::new(title, ["id", "plan", "since"]);
    for s in v {
        t.push([
            s.id.clone(),
            s.plan.clone().unwrap_or_default(),
            s.since.map(|d| d.to_string()).unwrap_or_default(),
        ]);
    }
    t
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.table(subs(
            "GSI2 PLAN#pro (s2 has no plan: not in the index)",
            &self.pro,
        ));
        p.table(subs(
            "GSI2 PLAN#pro after s1 was put again without a plan",
            &self.pro_after_put,
        ));
        p.note(format!("s1 is still in the table: {:?}", self.s1_in_table));
        let mut t = Table::new("GSI2 FEATURED (one list), by day", ["id", "featured on"]);
        for a in &self.featured {
            t.push([
                a.id.clone(),
                a.featured_on.map(|d| d.to_string()).unwrap_or_default(),
            ]);
        }
        p.table(t);
        let mut t = Table::new(
            "omit_empty: GSI2 PLAN#pro of the legacy table (l1 wrote plan \"\")",
            ["id", "plan"],
        );
        for s in &self.legacy_pro {
            t.push([&s.id, &s.plan]);
        }
        p.table(t);
        p.fmt(f)
    }
}
