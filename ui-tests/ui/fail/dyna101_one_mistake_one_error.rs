// One mistake, its errors only: a misspelled placeholder is DYNA101, and
// every use of the entity's API (keys, chains, parsers, updates, handles,
// the codec) adds no error of its own.
use dynakey::{Db, DynamoEntity, Entity};

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("ORG#<org>")]
#[sk("TASK#<idd:d6>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<idd:d6>")]
struct Task {
    org: String,
    id: u32,
    owner: String,
    status: String,
    title: String,
}

async fn handler(db: &Db) -> Result<(), dynakey::Error> {
    let key = Task::key("acme", 7u32)?;
    let _ = Task::pk("acme")?;
    let _ = Task::sk().idd(7u32).eq()?;
    let _ = Task::gsi1_sk().status("open").lt(9u32)?;
    let _ = Task::gsi1_pk("ann")?;
    let (_, _) = Task::parse_gsi1_sk("open#000007")?;
    let _ = Task::attrs().title.eq("x");
    db.update(Task::update("acme", 7u32).set_title("t").set_owner("bob")).await?;
    let t: Option<Task> = db.get(key).await?;
    if let Some(t) = t {
        let _ = t.to_item();
    }
    Ok(())
}

fn main() {
    let _ = handler;
}
