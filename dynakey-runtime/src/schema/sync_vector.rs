//! `sync_table`'s vector indexes: each missing one added by its own
//! `UpdateTable` and each one no entity declares removed, one at a time
//! (DynamoDB creates or deletes one online index per table at once), each
//! waited for through the lifecycle DynamoDB and the embedded engine report.
//!
//! An added index reports `ACTIVE` before it answers a search (minutes
//! before, on DynamoDB), so readiness is a search that is no longer refused
//! (`Cannot search backfilling vector index`), not the status; a removed
//! one is gone when DescribeTable no longer lists it.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::search_vectors::builders::SearchVectorsInputBuilder;
use aws_sdk_dynamodb::operation::search_vectors::SearchVectorsInput;
use aws_sdk_dynamodb::operation::update_table::UpdateTableInput;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeValue, DeleteVectorIndexAction, TableStatus, VectorIndexUpdate,
};

use crate::db::Db;
use crate::entity::KeyAttrType;
use crate::error::Error;
use crate::send::{send, send_then, Operation, To};
use crate::table::vector::VectorDef;
use crate::table::{attribute_definition, build_err, Plan};

/// How long a vector index may take to become searchable or to go: AWS
/// took about a quarter of an hour past `ACTIVE` for a 25-item table.
const LIFECYCLE_LIMIT: Duration = Duration::from_secs(60 * 60);

/// Removes the vector indexes `plan` does not declare, then adds the ones
/// it declares and the table lacks; returns the names added and removed.
pub(crate) async fn sync_vectors(
    db: &Db,
    plan: &Plan,
    live: &[aws_sdk_dynamodb::types::VectorIndexDescription],
) -> Result<(Vec<&'static str>, Vec<String>), Error> {
    let mut removed = Vec::new();
    for v in live {
        let name = v.index_name().unwrap_or_default();
        if !plan.vectors.contains_key(name) {
            remove(db, name).await?;
            removed.push(name.to_owned());
        }
    }
    let mut added = Vec::new();
    for (name, def) in &plan.vectors {
        if live.iter().any(|v| v.index_name() == Some(*name)) {
            continue;
        }
        add(db, def).await?;
        added.push(*name);
    }
    Ok((added, removed))
}

async fn add(db: &Db, def: &VectorDef) -> Result<(), Error> {
    let m = def.meta;
    let create = def.sdk_create()?;
    let mut req = UpdateTableInput::builder().table_name(db.table_name());
    for (a, ty, _) in m.schema_attrs() {
        req = req.attribute_definitions(attribute_definition(a, ty)?);
    }
    let req = req.vector_index_updates(VectorIndexUpdate::builder().create(create).build());
    send(&admin(db), req).await?;
    wait(db, m.name, "become searchable", || searchable(db, def)).await
}

async fn remove(db: &Db, name: &str) -> Result<(), Error> {
    let delete = DeleteVectorIndexAction::builder()
        .index_name(name)
        .build()
        .map_err(build_err)?;
    let req = UpdateTableInput::builder()
        .table_name(db.table_name())
        .vector_index_updates(VectorIndexUpdate::builder().delete(delete).build());
    send(&admin(db), req).await?;
    wait(db, name, "go", || gone(db, name)).await
}

/// Where the table admin requests of `db` go.
fn admin(db: &Db) -> To<'_> {
    To::table(db.client(), db.table_name())
}

/// Polls `ready` with a growing delay until it says yes, or the limit.
async fn wait<F, Fut>(db: &Db, name: &str, what: &str, mut ready: F) -> Result<(), Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool, Error>>,
{
    let start = Instant::now();
    let mut delay = Duration::from_millis(20);
    while start.elapsed() < LIFECYCLE_LIMIT {
        if ready().await? {
            return Ok(());
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(5));
    }
    Err(Error::Backend {
        message: format!(
            "vector index {name} of table {} did not {what} within {} minutes",
            db.table_name(),
            LIFECYCLE_LIMIT.as_secs() / 60
        ),
        source: None,
    })
}

/// A value of the scope's type, for the readiness search.
fn any_value(ty: KeyAttrType) -> AttributeValue {
    match ty {
        KeyAttrType::S => AttributeValue::S("-".into()),
        KeyAttrType::N => AttributeValue::N("0".into()),
        KeyAttrType::B => AttributeValue::B(Blob::new(vec![0])),
    }
}

/// Whether the index answers a search (a refusal as backfilling is "not
/// yet"; any other error is the caller's).
async fn searchable(db: &Db, def: &VectorDef) -> Result<bool, Error> {
    let m = def.meta;
    let mut req = SearchVectorsInput::builder()
        .table_name(db.table_name())
        .index_name(m.name)
        .set_search_vector(Some(vec![
            AttributeValue::N("1".into());
            m.dimensions as usize
        ]))
        .top_k(1);
    if let Some(scope) = m.scope() {
        req = req
            .search_condition_expression("#s = :s")
            .expression_attribute_names("#s", scope.attr)
            .expression_attribute_values(":s", any_value(scope.ty));
    }
    send_then(&To::db(db), req, |sent, attempts| match sent {
        Ok(_) => Ok(true),
        Err(e) if e.message().is_some_and(|m| m.contains("backfilling")) => Ok(false),
        // While the index allocates, the table reports UPDATING and a
        // search may be refused for that too.
        Err(e) if e.code() == Some("ResourceInUseException") => Ok(false),
        Err(e) => Err(SearchVectorsInputBuilder::error(e, attempts)),
    })
    .await
}

/// Whether the index is no longer listed and the table is ACTIVE.
async fn gone(db: &Db, name: &str) -> Result<bool, Error> {
    let req = DescribeTableInput::builder().table_name(db.table_name());
    let out = send(&admin(db), req).await?;
    let Some(t) = out.table() else {
        return Ok(true);
    };
    let listed = t
        .vector_indexes()
        .iter()
        .any(|v| v.index_name() == Some(name));
    Ok(!listed && t.table_status() == Some(&TableStatus::Active))
}
