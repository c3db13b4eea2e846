//! Creating the table a set of entities needs.

mod options;

use std::collections::BTreeMap;
use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType, TableStatus,
    TimeToLiveSpecification,
};
use aws_sdk_dynamodb::Client;

use crate::entity::{EntityMeta, IndexKind};
use crate::error::Error;

pub use options::{create_table_with, TableOptions};

pub(crate) fn invalid(message: String) -> Error {
    Error::refused(message)
}

pub(crate) fn build_err(e: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::refused(format!("the table definition could not be built: {e}"))
}

pub(crate) fn key_schema(pk: &str, sk: Option<&str>) -> Result<Vec<KeySchemaElement>, Error> {
    let b = |name: &str, t: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(t)
            .build()
            .map_err(build_err)
    };
    let mut v = vec![b(pk, KeyType::Hash)?];
    if let Some(sk) = sk {
        v.push(b(sk, KeyType::Range)?);
    }
    Ok(v)
}

/// The key attributes a set of entities agree on, and their indexes.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub(crate) pk: Option<&'static str>,
    pub(crate) sk: Option<Option<&'static str>>,
    pub(crate) attrs: Vec<&'static str>,
    pub(crate) indexes: BTreeMap<&'static str, (IndexKind, &'static str, Option<&'static str>)>,
    pub(crate) ttl: Option<&'static str>,
    /// Per index: `None` for ALL, else the non-key attributes it holds.
    pub(crate) projections: BTreeMap<&'static str, Option<Vec<&'static str>>>,
}

impl Plan {
    fn attr(&mut self, a: &'static str) {
        if !self.attrs.contains(&a) {
            self.attrs.push(a);
        }
    }

    /// Adds what one entity's index holds: ALL wins, included attributes
    /// add up (with the discriminator).
    fn project(&mut self, ix: &crate::entity::IndexMeta, disc: &'static str) {
        use crate::entity::IndexProjection as P;
        let mine: Option<Vec<&'static str>> = match ix.projection {
            P::All => None,
            P::KeysOnly => Some(vec![disc]),
            P::Include(a) => Some(std::iter::once(disc).chain(a.iter().copied()).collect()),
        };
        let slot = self.projections.entry(ix.name).or_insert(Some(Vec::new()));
        match (slot.as_mut(), mine) {
            (Some(have), Some(add)) => {
                for a in add {
                    if !have.contains(&a) {
                        have.push(a);
                    }
                }
            }
            _ => *slot = None,
        }
    }

    /// The projection `create_table` gives index `name`.
    pub(crate) fn projection(&self, name: &str) -> Projection {
        match self.projections.get(name) {
            Some(Some(attrs)) => Projection::builder()
                .projection_type(ProjectionType::Include)
                .set_non_key_attributes(Some(attrs.iter().map(|a| (*a).to_owned()).collect()))
                .build(),
            _ => Projection::builder()
                .projection_type(ProjectionType::All)
                .build(),
        }
    }

    pub(crate) fn from_metas(metas: &[&EntityMeta]) -> Result<Self, Error> {
        let mut p = Plan::default();
        for m in metas {
            match p.pk {
                None => p.pk = Some(m.pk.attr),
                Some(a) if a != m.pk.attr => {
                    return Err(invalid(format!(
                        "{} keeps its partition key in `{}`, another entity in `{a}`",
                        m.type_name, m.pk.attr
                    )))
                }
                _ => {}
            }
            let sk = m.sk.as_ref().map(|k| k.attr);
            match p.sk {
                None => p.sk = Some(sk),
                Some(a) if a != sk => {
                    return Err(invalid(format!(
                        "{} has sort key {:?}, another entity {:?}",
                        m.type_name, sk, a
                    )))
                }
                _ => {}
            }
            p.attr(m.pk.attr);
            if let Some(sk) = sk {
                p.attr(sk);
            }
            for ix in m.indexes {
                let def = (ix.kind, ix.pk.attr, ix.sk.as_ref().map(|k| k.attr));
                match p.indexes.get(ix.name) {
                    Some(d) if *d != def => {
                        return Err(invalid(format!(
                            "index {} is declared with different keys by {} and another entity",
                            ix.name, m.type_name
                        )))
                    }
                    _ => {
                        p.indexes.insert(ix.name, def);
                    }
                }
                p.project(ix, m.discriminator_attr);
                p.attr(ix.pk.attr);
                if let Some(k) = &ix.sk {
                    p.attr(k.attr);
                }
            }
            if let Some(t) = m.ttl_attr {
                match p.ttl {
                    Some(a) if a != t => {
                        return Err(invalid(format!("two TTL attributes: `{a}` and `{t}`")))
                    }
                    _ => p.ttl = Some(t),
                }
            }
        }
        if p.pk.is_none() {
            return Err(invalid("no entity given".into()));
        }
        Ok(p)
    }
}

/// Creates table `name` for `metas`: the table key, every global index
/// (with its projection, see [`IndexProjection`](crate::entity::IndexProjection)) and local index, on-demand billing, and TTL when an
/// entity has a TTL field (ignored where the backend lacks it). An existing
/// table is fine. Returns once the table and its indexes are ACTIVE.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::{table::create_table, Entity};
/// let local = dynakey_runtime::local::memory().unwrap();
/// create_table(local.client(), "notes", &[Note::META]).await.unwrap();
/// create_table(local.client(), "notes", &[Note::META]).await.unwrap(); // idempotent
/// let t = local.client().describe_table().table_name("notes").send().await.unwrap();
/// assert_eq!(t.table().unwrap().global_secondary_indexes().len(), 1);
/// # });
/// ```
pub async fn create_table(client: &Client, name: &str, metas: &[&EntityMeta]) -> Result<(), Error> {
    create_table_with(client, name, metas, &TableOptions::default()).await
}

/// [`create_table`] with [`TableOptions`]; the one implementation.
async fn create(
    client: &Client,
    name: &str,
    metas: &[&EntityMeta],
    options: &TableOptions,
) -> Result<(), Error> {
    let plan = Plan::from_metas(metas)?;
    let pk = plan.pk.unwrap_or("pk");
    let sk = plan.sk.flatten();
    let mut req = client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .set_key_schema(Some(key_schema(pk, sk)?));
    for a in &plan.attrs {
        req = req.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(*a)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .map_err(build_err)?,
        );
    }
    for (ix, (kind, ipk, isk)) in &plan.indexes {
        match kind {
            IndexKind::Global => {
                req = req.global_secondary_indexes(
                    GlobalSecondaryIndex::builder()
                        .index_name(*ix)
                        .set_key_schema(Some(key_schema(ipk, *isk)?))
                        .projection(plan.projection(ix))
                        .build()
                        .map_err(build_err)?,
                );
            }
            IndexKind::Local => {
                let Some(isk) = isk else {
                    return Err(invalid(format!("local index {ix} has no sort key")));
                };
                req = req.local_secondary_indexes(
                    LocalSecondaryIndex::builder()
                        .index_name(*ix)
                        .set_key_schema(Some(key_schema(pk, Some(isk))?))
                        .projection(plan.projection(ix))
                        .build()
                        .map_err(build_err)?,
                );
            }
        }
    }
    if let Some(spec) = options.stream_specification()? {
        req = req.stream_specification(spec);
    }
    let existed = match req.send().await {
        Ok(_) => false,
        Err(e) => {
            let exists = e
                .as_service_error()
                .is_some_and(|s| s.is_resource_in_use_exception());
            if !exists {
                return Err(Error::from_sdk(e, 1));
            }
            true
        }
    };
    wait_active(client, name).await?;
    if existed {
        options.ensure_stream(client, name).await?;
    }
    if let Some(ttl) = plan.ttl {
        // Backends without TTL, or a TTL already on: nothing to do.
        let _ = client
            .update_time_to_live()
            .table_name(name)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(ttl)
                    .enabled(true)
                    .build()
                    .map_err(build_err)?,
            )
            .send()
            .await;
    }
    Ok(())
}

pub(crate) async fn wait_active(client: &Client, name: &str) -> Result<(), Error> {
    let mut delay = Duration::from_millis(20);
    for _ in 0..200 {
        let out = client
            .describe_table()
            .table_name(name)
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, 1))?;
        if let Some(t) = out.table() {
            let table_ok = t.table_status() == Some(&TableStatus::Active);
            let ix_ok = t.global_secondary_indexes().iter().all(|g| {
                g.index_status()
                    .is_none_or(|s| *s == aws_sdk_dynamodb::types::IndexStatus::Active)
            });
            if table_ok && ix_ok {
                return Ok(());
            }
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(2));
    }
    Err(Error::Backend {
        message: format!("table {name} did not become ACTIVE"),
        source: None,
    })
}

/// Deletes table `name`; a missing table is fine.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let local = dynakey_runtime::local::memory().unwrap();
/// dynakey_runtime::table::delete_table(local.client(), "nope").await.unwrap();
/// # });
/// ```
pub async fn delete_table(client: &Client, name: &str) -> Result<(), Error> {
    match client.delete_table().table_name(name).send().await {
        Ok(_) => Ok(()),
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_not_found_exception()) =>
        {
            Ok(())
        }
        Err(e) => Err(Error::from_sdk(e, 1)),
    }
}
