// Updates that compile: a missing input that comes with the table key, a
// complete sparse update, a removal that takes an item out of an index, a
// sparse key set from its own input only, upserts that set every required
// field (a counter from zero), typed conditions, and a helper generic over
// any complete update (its entity named as `U::Entity`).
use dynakey::{Db, DynamoEntity, DynamoValue};

#[derive(DynamoValue, Clone, Copy)]
enum Status {
    Open,
    Closed,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "WORK_ITEM")]
#[pk("ITEM#<id>")]
#[sk("DATA")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<id>")]
struct WorkItem {
    id: uuid::Uuid,
    owner: String,
    status: Status,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
#[gsi("GSI2", pk = "<owner>", sk = "LIVE#<live_since>", sparse)]
struct Note {
    id: String,
    owner: Option<String>,
    live_since: Option<time::OffsetDateTime>,
    #[dynamo(version)]
    version: u64,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "SUBSCRIBER")]
#[pk("SUB#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "PLAN#<plan>", sk = "SINCE#<since>", sparse)]
struct Subscriber {
    id: String,
    plan: Option<String>,
    since: Option<time::Date>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "PAGE_VIEWS")]
#[pk("PAGE#<page>")]
struct PageViews {
    page: String,
    views: u64,
    last_referrer: Option<String>,
}

fn run(db: &Db) {
    let id = uuid::Uuid::now_v7();
    let _ = db
        .update(WorkItem::update(id).set_status(Status::Closed))
        .if_exists();
    let _ = db.update(
        WorkItem::update(id)
            .set_owner("bob")
            .set_status(Status::Open),
    );
    let _ = db.update(Note::update("n1").set_live_since(time::OffsetDateTime::now_utc()));
    let _ = db.update(Note::update("n1").remove_live_since().if_version(3));
    let _ = db.update(
        Note::update("n1")
            .set_owner("ann")
            .set_live_since(time::OffsetDateTime::now_utc()),
    );
    // Reassigning sets the partition key's one input: the sort key's inputs
    // are not needed.
    let _ = db.update(Subscriber::update("s1").set_plan("pro"));
    let _ = db.update(
        WorkItem::upsert(id)
            .set_owner("ann")
            .set_status(Status::Open),
    );
    let _ = db.update(PageViews::upsert("home").increment_views(1));
    let _ = WorkItem::attrs()
        .status
        .eq(Status::Open)
        .and(WorkItem::attrs().owner.begins_with("a"));
}

fn send<U: dynakey::TypedUpdate>(db: &Db, update: U) -> dynakey::UpdateItem<U::Entity> {
    db.update(update).if_exists()
}

fn run_generic(db: &Db) {
    let id = uuid::Uuid::now_v7();
    let _ = send(db, WorkItem::update(id).set_status(Status::Closed));
    let _ = send(db, PageViews::upsert("home").increment_views(1));
}

fn main() {
    let _ = run;
    let _ = run_generic;
}
