//! `dry_run()` reports what the run then changes: a property test over
//! random sequences of migration steps of every kind (rekey, backfill,
//! rename, fill a default, drop an entity, drop an index; repeated, in any
//! order, after an earlier run finished a random first part of them),
//! each case on a fresh table holding items of every shape the steps meet
//! (old and new shapes, an old item whose new key is taken, items of other
//! entities). For each: the dry run's report is the run's, step by step
//! (changed, raced, write units, already done), the dry run wrote nothing,
//! and a dry run after the run reports every step done.
//!
//! Seeded and shrinking; on every backend (fewer cases against
//! `DYNAKEY_ENDPOINT`).

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::prelude::*;
use dynakey::schema::{Migration, MigrationReport};
use dynakey::Item;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

/// A user as first stored: `mail`, no `tier`, an index on the address.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
#[sk("PROFILE")]
#[gsi("GSI2", pk = "MAIL#<mail>", sk = "PROFILE")]
struct UserV1 {
    id: String,
    mail: String,
}

/// The user now: `email` (renamed), a `tier` (a default), an index on
/// the address the old items lack (a backfill).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "USER")]
#[pk("USER#<id>")]
#[sk("PROFILE")]
#[gsi("GSI1", pk = "EMAIL#<email>", sk = "PROFILE")]
struct User {
    id: String,
    email: String,
    #[dynamo(default = "free")]
    tier: String,
}

fn free() -> String {
    "free".into()
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER")]
#[pk("C#<customer>")]
#[sk("ORDER#<n:d4>")]
struct OrderV1 {
    customer: String,
    n: u32,
}

/// Orders re-keyed to six digits.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER")]
#[pk("C#<customer>")]
#[sk("ORDER#<n:d6>")]
struct Order {
    customer: String,
    n: u32,
}

impl From<OrderV1> for Order {
    fn from(o: OrderV1) -> Self {
        Order {
            customer: o.customer,
            // Old orders 0 and 1 become 100 and 101: where new orders
            // already are (the move finds its key taken).
            n: if o.n < 2 { o.n + 100 } else { o.n },
        }
    }
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "SESSION")]
#[pk("USER#<id>")]
#[sk("SESSION#<n:d4>")]
struct Session {
    id: String,
    n: u32,
}

/// Every kind of step (some twice: a kind after another of its kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Rekey,
    Backfill,
    Rename,
    Fill,
    DropSessions,
    DropOrders,
    DropIndex,
}

const NAMES: [&str; 6] = ["s0", "s1", "s2", "s3", "s4", "s5"];

fn migration(name: &'static str, step: Step) -> Migration {
    match step {
        Step::Rekey => Migration::rekey::<OrderV1, Order>(name),
        Step::Backfill => Migration::backfill::<User>(name),
        Step::Rename => Migration::rename_attribute::<User>(name, "mail", "email"),
        Step::Fill => Migration::fill_default::<User>(name, "tier"),
        Step::DropSessions => Migration::drop_entity(name, "SESSION", "_type"),
        Step::DropOrders => Migration::drop_entity(name, "ORDER", "_type"),
        Step::DropIndex => Migration::drop_index::<UserV1>(name, "GSI2"),
    }
}

fn steps(kinds: &[Step]) -> &'static [Migration] {
    let v: Vec<Migration> = kinds
        .iter()
        .zip(NAMES)
        .map(|(k, n)| migration(n, *k))
        .collect();
    Box::leak(v.into_boxed_slice())
}

/// Every item of the table, sorted by key (the run's checkpoints too).
async fn contents(db: &Db) -> Vec<String> {
    let out = db
        .client()
        .scan()
        .table_name(db.table_name())
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    let mut v: Vec<String> = out
        .items()
        .iter()
        .map(|i| {
            let mut kv: Vec<String> = i.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
            kv.sort();
            kv.join(",")
        })
        .collect();
    v.sort();
    v
}

async fn fixture(backend: &dynakey::local::Backend) -> Db {
    let db = backend.db(format!("dry_run_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[User::META, Order::META, Session::META])
        .await
        .unwrap();
    let mut items: Vec<Item> = Vec::new();
    for i in 0..5 {
        let id = format!("u{i}");
        let old = UserV1 {
            id: id.clone(),
            mail: format!("{id}@example.com"),
        };
        let mut item = old.to_item().unwrap();
        if i == 0 {
            // Already renamed by a newer writer, the old name left over.
            item.insert("email".into(), AttributeValue::S("new@example.com".into()));
        }
        items.push(item);
        items.push(Session { id, n: i }.to_item().unwrap());
    }
    // A user of the new shape.
    let now = User {
        id: "u9".into(),
        email: "u9@example.com".into(),
        tier: free(),
    };
    items.push(now.to_item().unwrap());
    for n in 0..4 {
        items.push(
            OrderV1 {
                customer: "c1".into(),
                n,
            }
            .to_item()
            .unwrap(),
        );
    }
    // Where old orders 0 (but not 1) move to.
    items.push(
        Order {
            customer: "c1".into(),
            n: 100,
        }
        .to_item()
        .unwrap(),
    );
    for item in items {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    db
}

type Row = (&'static str, bool, u64, u64, u64);

fn rows(r: &MigrationReport) -> Vec<Row> {
    r.steps
        .iter()
        .map(|s| (s.name, s.already_done, s.changed, s.raced, s.write_units))
        .collect()
}

async fn check(
    backend: &dynakey::local::Backend,
    kinds: &[Step],
    first: usize,
) -> Result<(), TestCaseError> {
    let db = fixture(backend).await;
    let all = steps(kinds);
    // An earlier run finished the first steps.
    let done = db.migrate(&all[..first]).segments(2).await.unwrap();
    prop_assert!(done.steps.iter().all(|s| !s.already_done));
    let before = contents(&db).await;
    let dry = db.migrate(all).segments(2).dry_run().await.unwrap();
    prop_assert_eq!(&contents(&db).await, &before, "the dry run wrote");
    let run = db.migrate(all).segments(3).await.unwrap();
    prop_assert_eq!(rows(&dry), rows(&run));
    let again = db.migrate(all).dry_run().await.unwrap();
    prop_assert!(again.steps.iter().all(|s| s.already_done));
    Ok(())
}

fn kind() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::Rekey),
        Just(Step::Backfill),
        Just(Step::Rename),
        Just(Step::Fill),
        Just(Step::DropSessions),
        Just(Step::DropOrders),
        Just(Step::DropIndex),
    ]
}

#[test]
fn a_dry_run_reports_what_the_run_then_changes() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let backend = dynakey::local::from_env().unwrap();
    let cases = if backend.is_embedded() { 40 } else { 10 };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x6472_7972),
        failure_persistence: None,
        max_shrink_iters: 32,
        ..Config::default()
    });
    let strategy = prop::collection::vec(kind(), 1..=NAMES.len()).prop_flat_map(|k| {
        let n = k.len();
        (Just(k), 0..n)
    });
    let result = runner.run(&strategy, |(kinds, first)| {
        rt.block_on(check(&backend, &kinds, first))
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, c)) => panic!("{why}\nsmallest failing case: {c:?}"),
        Err(e) => panic!("{e}"),
    }
}

/// Every kind alone, and the sequence: a rename, then a fill of
/// the renamed attribute's entity, which reads the renamed users (before
/// the rename, none reads as a `User`).
#[tokio::test]
async fn every_kind_alone_and_the_rename_then_fill() {
    let backend = dynakey::local::from_env().unwrap();
    use Step::*;
    for kind in [
        Rekey,
        Backfill,
        Rename,
        Fill,
        DropSessions,
        DropOrders,
        DropIndex,
    ] {
        check(&backend, &[kind], 0).await.unwrap();
    }
    let db = fixture(&backend).await;
    let all = steps(&[Rename, Fill, Rekey]);
    let dry = db.migrate(all).dry_run().await.unwrap();
    // Four old users renamed (u0 only drops its old name); the fill then
    // finds those five without a tier; orders 1..3 move, 0's key is taken.
    let changed: Vec<u64> = dry.steps.iter().map(|s| s.changed).collect();
    assert_eq!(changed, [5, 5, 3]);
    assert_eq!(dry.steps[2].raced, 1);
    let run = db.migrate(all).await.unwrap();
    assert_eq!(rows(&dry), rows(&run));
}
