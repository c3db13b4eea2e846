//! The README's tour of the API: a table, a union, every operation.

use dynakey_examples::seeds::{ChatMessage, Member, Membership, Team, Vote};

#[rustfmt::skip]
async fn tour(membership: Membership, staff_membership: Membership) -> Result<(), Box<dyn std::error::Error>> {
// README: "The whole API".
use dynakey::prelude::*;                        // derives, Db, Entity and the other traits
use dynakey::local;                             // the embedded engine: feature `local`

#[derive(DynamoTable)]
#[dynamo(entities(Member, Membership, Team))]   // checked against each other: DYNA301–305
struct Groups;

#[derive(DynamoUnion)]
enum UserPartition { Member(Member), Membership(Membership) }

let backend = local::from_env()?;               // embedded engine, or DYNAKEY_ENDPOINT
let db = backend.db("groups");                  // any aws_sdk_dynamodb::Client works: Db::new(client, "groups")
db.create_table(Groups::ENTITIES).await?;       // key schema, GSIs, LSIs, TTL, idempotent
for g in ["admins", "staff"] { db.delete(Membership::key("alice", g)?).await?; } // not in the README: setup (a server may hold an earlier run's items)
db.put(&Member { user_id: "alice".into(), name: "alice".into() }).await?; // not in the README: setup
db.put(&Team { group_id: "staff".into(), title: "Staff".into() }).await?; // not in the README: setup

db.put(&membership).if_not_exists().await?;
let member = db.get(Member::key("alice")?).consistent().await?;
let edges = db.query(Membership::pk("alice")?).sk(Membership::sk().begins_with()?).all().await?;
let both: Vec<UserPartition> = db.query(Member::pk("alice")?).of::<UserPartition>().all().await?;
let newest = db.query(ChatMessage::pk("ann")?).descending().limit(20).all().await?;       // 20 in all
let page = db.query(ChatMessage::pk("ann")?).descending().page_size(20).page(None).await?; // page.cursor resumes
let shards = (0..4).map(|s| Vote::pk("best-pet", s)).collect::<Result<Vec<_>, _>>()?;
let votes = db.query_many(shards).all().await?;  // concurrent, merged in sort-key order
let scanned = db.scan::<Member>().segments(4).all().await?;

db.transact_write()                              // the same names and builders as on `db`
    .put_with(&staff_membership, |p| p.if_not_exists())
    .update(Member::update("alice").set_name("Alice"))
    .delete(Team::key("old")?)
    .check(Team::key("staff")?, Team::attrs().title.exists())
    .await?;
// End of the README's tour.

    assert_eq!(member.map(|m| m.name), Some("alice".to_owned()));
    assert_eq!(edges, vec![membership.clone()]);
    assert_eq!(both.len(), 2);
    assert!(both.iter().any(|p| matches!(p, UserPartition::Member(m) if m.user_id == "alice")));
    assert!(both.iter().any(|p| matches!(p, UserPartition::Membership(m) if m.group_id == "admins")));
    assert!(newest.is_empty() && page.items.is_empty() && votes.is_empty());
    assert_eq!(scanned.len(), 1);
    let renamed = db.get(Member::key("alice")?).await?.expect("alice");
    assert_eq!(renamed.name, "Alice");
    let groups = db.query(Membership::pk("alice")?).all().await?;
    assert_eq!(groups.len(), 2);
    Ok(())
}

#[tokio::test]
async fn the_whole_api_runs() {
    let edge = |g: &str| Membership {
        user_id: "alice".into(),
        group_id: g.into(),
    };
    tour(edge("admins"), edge("staff")).await.unwrap();
}

/// The README's "real DynamoDB" snippet: compiled, not run (it needs an
/// AWS account).
#[rustfmt::skip]
#[allow(dead_code)]
async fn on_real_dynamodb(conf: aws_types::SdkConfig) -> Result<(), Box<dyn std::error::Error>> {
// conf: your SDK configuration, from aws_config::load_defaults(BehaviorVersion::latest()).await
let db = dynakey::Db::new(aws_sdk_dynamodb::Client::new(&conf), "dynakey-adjacency");
dynakey_examples::recipes::adjacency::setup(&db).await?; // on-demand table with its GSIs
println!("{}", dynakey_examples::recipes::adjacency::run(&db).await?);
dynakey::table::delete_table(db.client(), db.table_name()).await?;
    Ok(())
}
