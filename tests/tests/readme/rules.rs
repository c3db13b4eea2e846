//! The README's index projections, typed partial reads and data rules.

use dynakey::prelude::*;
use dynakey::{Error, Result};
use time::OffsetDateTime;

use super::fresh;

mod keys_only {
    use super::*;

    #[rustfmt::skip]
    async fn snippet(db: &Db) -> Result<(usize, usize, usize)> {
// README: "Index projections".
#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("TASK#<id>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "TASK#<id>", projection = "KEYS_ONLY")]
struct Task { id: String, owner: String, body: String }

db.create_table(&[Task::META]).await?; // not in the README: setup
for id in ["t1", "t2"] { db.put(&Task { id: id.into(), owner: "ann".into(), body: "b".into() }).await?; } // not in the README: setup
let keys = db.query(Task::gsi1_pk("ann")?).keys_only().all().await?;    // Vec<Key<Task>>
let h = db.query(Task::gsi1_pk("ann")?).hydrate().await?;               // whole items, in index order
for gone in &h.missing { eprintln!("{gone:?}: the index named it, the table no longer has it") }
// db.query(Task::gsi1_pk("ann")?).all()  → error[E0277]: DYNA402: this index does not hold whole items
// db.query(Task::gsi1_pk("ann")?).await  → error[E0277]: `Query<Task, GlobalPartial, Typed<Task>>` is not a future
// End of the README's example.
        let bodies = h.items.iter().filter(|t| t.body == "b" && t.owner == "ann").count();
        Ok((keys.len(), bodies, h.missing.len()))
    }

    #[tokio::test]
    async fn keys_only_and_hydrate() {
        let (_b, db) = fresh(&[]).await;
        assert_eq!(snippet(&db).await.unwrap(), (2, 2, 0));
    }
}

mod partial {
    use super::*;

    /// A task with a status index, as the README's projection reads it.
    #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    #[dynamo(entity = "TASK")]
    #[pk("TASK#<id>")]
    #[gsi("GSI2", pk = "STATUS#<status>", sk = "TASK#<id>")]
    struct Task {
        id: String,
        title: String,
        status: String,
        body: String,
    }

    #[rustfmt::skip]
    async fn snippet(db: &Db) -> Result<(Vec<String>, Option<String>)> {
// README: "Index projections", typed partial reads.
#[derive(DynamoProjection)]
#[dynamo(of = Task)]
struct TaskTitle { id: String, title: String }

let titles: Vec<TaskTitle> = db.query(Task::gsi2_pk("open")?).project::<TaskTitle>().all().await?;
let one: Option<TaskTitle> = db.get(Task::key("t1")?).project::<TaskTitle>().await?;
// End of the README's example.
        Ok((
            titles.into_iter().map(|t| format!("{}:{}", t.id, t.title)).collect(),
            one.map(|t| t.title),
        ))
    }

    #[tokio::test]
    async fn typed_partial_reads() {
        let (_b, db) = fresh(&[Task::META]).await;
        for (id, status) in [("t1", "open"), ("t2", "done"), ("t3", "open")] {
            let t = Task {
                id: id.into(),
                title: format!("title {id}"),
                status: status.into(),
                body: "long".into(),
            };
            db.put(&t).await.unwrap();
        }
        let (titles, one) = snippet(&db).await.unwrap();
        assert_eq!(titles, ["t1:title t1", "t3:title t3"]);
        assert_eq!(one.as_deref(), Some("title t1"));
    }
}

#[rustfmt::skip]
mod data_rules {
    use super::*;

    fn bad_request(message: String) -> Option<Account> {
        panic!("refused: {message}")
    }
    fn conflict(why: &str) -> Option<Account> {
        panic!("{why}")
    }

// README: "Data rules".
fn email(v: &str) -> Result<(), String> {             // called as email(&value): Result<(), impl Display>
    if v.contains('@') { Ok(()) } else { Err(format!("{v:?} has no @")) }
}
fn account(a: &Account) -> Result<(), &'static str> {   // called as account(&entity)
    if a.credit <= a.limit { Ok(()) } else { Err("credit over the limit") }
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ACCOUNT", validate = account)]
#[pk("ACCOUNT#<id>")]
struct Account {
    id: String,
    #[dynamo(unique, validate = email)] email: String,   // one account per email
    credit: u32,
    limit: u32,
    #[dynamo(created_at)] created: Option<OffsetDateTime>,
    #[dynamo(updated_at)] updated: Option<OffsetDateTime>,
}

    async fn sign_up(db: &Db, account: Account) -> Result<Option<Account>> { // not in the README: setup
let outcome =  // not in the README: the match's value
match db.put(&account).if_not_exists().await {
    Err(Error::Invalid { field: Some("email"), message, .. }) => bad_request(message),
    Err(Error::Unique { field: "email", .. }) => conflict("that email is taken"),
    other => other?,
};
        Ok(outcome)
    }

    fn ann(email: &str, credit: u32) -> Account {
        Account { id: "ann".into(), email: email.into(), credit, limit: 10, created: None, updated: None }
    }

    #[tokio::test]
    async fn validation_timestamps_and_unique_values() {
        let (_b, db) = fresh(&[Account::META]).await;
        assert!(sign_up(&db, ann("ann@example.com", 1)).await.unwrap().is_none());
        let stored = db.get(Account::key("ann").unwrap()).await.unwrap().unwrap();
        assert!(stored.created.is_some() && stored.updated.is_some());
        // The entity's validator and the field's refuse before sending.
        let over = db.put(&ann("ann@example.com", 11)).await;
        assert!(matches!(over, Err(Error::Invalid { field: None, .. })), "{:?}", over.err());
        let bad = db.put(&Account { id: "bob".into(), ..ann("bob", 1) }).await;
        assert!(matches!(bad, Err(Error::Invalid { field: Some("email"), .. })), "{:?}", bad.err());
        // Another account with the same email is refused.
        let taken = db.put(&Account { id: "eve".into(), ..ann("ann@example.com", 1) }).await;
        assert!(matches!(taken, Err(Error::Unique { field: "email", .. })), "{:?}", taken.err());
    }
}
