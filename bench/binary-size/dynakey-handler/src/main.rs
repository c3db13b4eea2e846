//! A put, a get and a query of one entity with dynakey, through a plain
//! `aws_sdk_dynamodb::Client` (no embedded engine, no tool features).

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use dynakey::prelude::*;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<id:d8>")]
struct Order {
    customer: String,
    id: u32,
    total: u64,
    note: String,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let conf = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(env("AWS_REGION")))
        .credentials_provider(Credentials::new(
            env("AWS_ACCESS_KEY_ID"),
            env("AWS_SECRET_ACCESS_KEY"),
            None,
            None,
            "env",
        ))
        .build();
    let db = dynakey::Db::new(aws_sdk_dynamodb::Client::from_conf(conf), "orders");
    let order = Order {
        customer: "ann".into(),
        id: 1,
        total: 250,
        note: "first".into(),
    };
    db.put(&order).await?;
    let got = db.get(Order::key("ann", 1u32)?).await?;
    let all = db.query(Order::pk("ann")?).all().await?;
    println!("{got:?} {}", all.len());
    Ok(())
}
