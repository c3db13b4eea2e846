//! Seed 000 "Sparse index": an item whose index inputs are `None` writes no
//! index keys, so GSI2 holds only paying subscribers and featured articles.
//! Subscribing is an update that sets both inputs (the item enters GSI2);
//! unsubscribing is `remove_plan()` (it leaves GSI2 and stays in the
//! table). Featuring an article sets `featured_on`, unfeaturing removes it;
//! the constant partition `FEATURED` is one list, read by a day range. With
//! `omit_empty`, a plan written as `""` (by a put or an update) is left out
//! like `None`.

use std::fmt;

use dynakey::{Db, Entity, Error};
use time::macros::date;
use time::Date;

use crate::report::{Printout, Table};
use crate::seeds::{Article, LegacySubscriber, Subscriber};

super::recipe!(
    "sparse_index",
    "000 Sparse index",
    "GSI2 holds only items with every input: subscribe/unsubscribe and feature/unfeature by update",
    |db| vec![db.clone(), legacy_db(db)]
);

/// The day s2 subscribes.
pub const SUBSCRIBED_ON: Date = date!(2026 - 07 - 16);
/// The day a2 is featured.
pub const A2_FEATURED_ON: Date = date!(2026 - 07 - 11);
/// The day range read from `FEATURED`, both ends included.
pub const FEATURED_RANGE: (Date, Date) = (date!(2026 - 07 - 05), date!(2026 - 07 - 11));

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// GSI2 `PLAN#pro`, oldest subscription first.
    pub pro: Vec<Subscriber>,
    /// GSI2 `PLAN#pro` after s2 subscribed (an update of plan + since).
    pub pro_after_subscribe: Vec<Subscriber>,
    /// GSI2 `PLAN#pro` after s1 unsubscribed (`remove_plan()`).
    pub pro_after_unsubscribe: Vec<Subscriber>,
    /// s1 in the table after it unsubscribed (it stays, keeping `since`).
    pub s1_in_table: Option<Subscriber>,
    /// GSI2 `PLAN#team` before and after s4 was put again without a plan.
    pub team_before_put: Vec<String>,
    /// See `team_before_put`.
    pub team_after_put: Vec<String>,
    /// GSI2 `FEATURED`, by day, as written by the batch.
    pub featured: Vec<Article>,
    /// GSI2 `FEATURED` after a2 was featured and a3 unfeatured by updates.
    pub featured_after: Vec<Article>,
    /// GSI2 `FEATURED` with the sort key between the days of
    /// [`FEATURED_RANGE`].
    pub featured_in_range: Vec<Article>,
    /// The `omit_empty` table's GSI2 `PLAN#pro` after the puts (l1 wrote
    /// `""`).
    pub legacy_pro: Vec<LegacySubscriber>,
    /// The same after the updates `l1.set_plan("pro")` and
    /// `l2.set_plan("")`.
    pub legacy_pro_after_update: Vec<LegacySubscriber>,
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

fn sub(id: &str, plan: Option<&str>, since: Option<Date>) -> Subscriber {
    Subscriber {
        id: id.into(),
        plan: plan.map(Into::into),
        since,
    }
}

/// Writes four subscribers (two pro, one team, one free) and four articles
/// (three featured), then moves them in and out of the sparse index with
/// updates and reads it after each step.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let article = |id: &str, featured_on| Article {
        id: id.into(),
        featured_on,
    };
    db.batch_write()
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

    let pro = || Subscriber::gsi2_pk("pro");
    let before = db.query(pro()?).all().await?;

    // Subscribe: both inputs of GSI2 are set, so the update writes
    // gsi2pk = PLAN#pro, gsi2sk = SINCE#2026-07-16 with them.
    db.update(
        Subscriber::update("s2")
            .set_plan("pro")
            .set_since(SUBSCRIBED_ON),
    )
    .if_exists()
    .await?;
    let pro_after_subscribe = db.query(pro()?).all().await?;

    // Unsubscribe: removing the plan removes the index partition key it
    // feeds, and the item leaves the index (DynamoDB indexes an item only
    // while both key attributes exist).
    db.update(Subscriber::update("s1").remove_plan())
        .if_exists()
        .await?;
    let pro_after_unsubscribe = db.query(pro()?).all().await?;
    let s1_in_table = db.get(Subscriber::key("s1")?).consistent().await?;

    // A put of the whole item without a plan does the same.
    let team = || async {
        let v = db.query(Subscriber::gsi2_pk("team")?).all().await?;
        Ok::<Vec<String>, Error>(v.into_iter().map(|s| s.id).collect())
    };
    let team_before_put = team().await?;
    db.put(&sub("s4", None, None)).if_exists().await?;
    let team_after_put = team().await?;

    let featured = db.query(Article::gsi2_pk()?).all().await?;
    db.update(Article::update("a2").set_featured_on(A2_FEATURED_ON))
        .if_exists()
        .await?;
    db.update(Article::update("a3").remove_featured_on())
        .if_exists()
        .await?;
    let featured_after = db.query(Article::gsi2_pk()?).all().await?;
    let featured_in_range = db
        .query(Article::gsi2_pk()?)
        .sk(Article::gsi2_sk().between(FEATURED_RANGE.0, FEATURED_RANGE.1)?)
        .all()
        .await?;

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
    legacy
        .update(LegacySubscriber::update("l1").set_plan("pro"))
        .if_exists()
        .await?;
    legacy
        .update(LegacySubscriber::update("l2").set_plan(""))
        .if_exists()
        .await?;
    let legacy_pro_after_update = legacy
        .query(LegacySubscriber::gsi2_pk("pro")?)
        .all()
        .await?;
    Ok(Report {
        pro: before,
        pro_after_subscribe,
        pro_after_unsubscribe,
        s1_in_table,
        team_before_put,
        team_after_put,
        featured,
        featured_after,
        featured_in_range,
        legacy_pro,
        legacy_pro_after_update,
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

fn articles(title: &str, v: &[Article]) -> Table {
    let mut t = Table::new(title, ["id", "featured on"]);
    for a in v {
        t.push([
            a.id.clone(),
            a.featured_on.map(|d| d.to_string()).unwrap_or_default(),
        ]);
    }
    t
}

fn legacy(title: &str, v: &[LegacySubscriber]) -> Table {
    let mut t = Table::new(title, ["id", "plan"]);
    for s in v {
        t.push([&s.id, &s.plan]);
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
            "GSI2 PLAN#pro after update s2: set_plan(\"pro\").set_since(..)",
            &self.pro_after_subscribe,
        ));
        p.table(subs(
            "GSI2 PLAN#pro after update s1: remove_plan()",
            &self.pro_after_unsubscribe,
        ));
        p.note(format!("s1 is still in the table: {:?}", self.s1_in_table));
        p.note(format!(
            "GSI2 PLAN#team: {:?}, after a put of s4 without a plan: {:?}",
            self.team_before_put, self.team_after_put
        ));
        p.table(articles("GSI2 FEATURED (one list), by day", &self.featured));
        p.table(articles(
            "GSI2 FEATURED after a2.set_featured_on(..), a3.remove_featured_on()",
            &self.featured_after,
        ));
        p.table(articles(
            &format!(
                "GSI2 FEATURED, sort key between ON#{} and ON#{}",
                FEATURED_RANGE.0, FEATURED_RANGE.1
            ),
            &self.featured_in_range,
        ));
        p.table(legacy(
            "omit_empty: GSI2 PLAN#pro of the legacy table (l1 was put with plan \"\")",
            &self.legacy_pro,
        ));
        p.table(legacy(
            "omit_empty: after update l1.set_plan(\"pro\"), l2.set_plan(\"\")",
            &self.legacy_pro_after_update,
        ));
        p.fmt(f)
    }
}
