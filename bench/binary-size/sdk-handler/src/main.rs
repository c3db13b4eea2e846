//! The same put, get and query as `dynakey-handler`, written with
//! aws-sdk-dynamodb and serde_dynamo: the keys by hand.

use std::collections::HashMap;

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Order {
    pk: String,
    sk: String,
    #[serde(rename = "_type")]
    kind: String,
    customer: String,
    id: u32,
    total: u64,
    note: String,
}

fn key(customer: &str, id: u32) -> HashMap<String, AttributeValue> {
    HashMap::from([
        (
            "pk".to_owned(),
            AttributeValue::S(format!("CUSTOMER#{customer}")),
        ),
        ("sk".to_owned(), AttributeValue::S(format!("ORDER#{id:08}"))),
    ])
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
    let client = aws_sdk_dynamodb::Client::from_conf(conf);
    let order = Order {
        pk: "CUSTOMER#ann".into(),
        sk: format!("ORDER#{:08}", 1),
        kind: "ORDER".into(),
        customer: "ann".into(),
        id: 1,
        total: 250,
        note: "first".into(),
    };
    client
        .put_item()
        .table_name("orders")
        .set_item(Some(serde_dynamo::to_item(&order)?))
        .send()
        .await?;
    let got = client
        .get_item()
        .table_name("orders")
        .set_key(Some(key("ann", 1)))
        .send()
        .await?;
    let got: Option<Order> = got.item.map(serde_dynamo::from_item).transpose()?;
    let mut all: Vec<Order> = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .query()
            .table_name("orders")
            .key_condition_expression("#pk = :pk")
            .expression_attribute_names("#pk", "pk")
            .expression_attribute_values(":pk", AttributeValue::S("CUSTOMER#ann".into()))
            .set_exclusive_start_key(start)
            .send()
            .await?;
        all.extend(serde_dynamo::from_items::<_, Order>(
            page.items.unwrap_or_default(),
        )?);
        start = page.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    println!("{got:?} {}", all.len());
    Ok(())
}
