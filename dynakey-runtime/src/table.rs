//! Creating the table a set of entities needs.

mod apply;
#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
pub mod export;
pub(crate) mod golden;
#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
pub mod iam;
mod options;
mod settings;
pub(crate) mod vector;
#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
pub mod verify;

use std::collections::BTreeMap;
use std::time::Duration;

use aws_sdk_dynamodb::operation::create_table::{CreateTableError, CreateTableInput};
use aws_sdk_dynamodb::operation::delete_table::{DeleteTableError, DeleteTableInput};
use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::update_time_to_live::UpdateTimeToLiveInput;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, GlobalSecondaryIndex, KeySchemaElement, KeyType, LocalSecondaryIndex,
    Projection, ProjectionType, TableStatus, TimeToLiveSpecification,
};
use aws_sdk_dynamodb::Client;

use crate::entity::{EntityMeta, IndexKind, IndexMeta, KeyAttrType};
use crate::error::{Error, RefusedReason};
use crate::send::{send, send_or_none, To};

pub use options::{create_table_with, TableOptions};
pub use settings::{Billing, Encryption, PointInTimeRecovery, TableClass, WarmThroughput};

pub(crate) fn invalid(message: String) -> Error {
    Error::refused(RefusedReason::TableDefinition, message)
}

pub(crate) fn build_err(e: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::refused(
        RefusedReason::Unbuildable,
        format!("the table definition could not be built: {e}"),
    )
}

pub(crate) fn key_schema(pk: &str, sk: Option<&str>) -> Result<Vec<KeySchemaElement>, Error> {
    let hash = [(pk, KeyAttrType::S)];
    let range: Vec<(&str, KeyAttrType)> = sk.map(|s| (s, KeyAttrType::S)).into_iter().collect();
    key_schema_of(&hash, &range)
}

/// A key schema of partition attributes `hash` and sort attributes
/// `range`, in order (a native index has up to four of each).
pub(crate) fn key_schema_of(
    hash: &[(&str, KeyAttrType)],
    range: &[(&str, KeyAttrType)],
) -> Result<Vec<KeySchemaElement>, Error> {
    let b = |name: &str, t: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(t)
            .build()
            .map_err(build_err)
    };
    let hash = hash.iter().map(|(a, _)| b(a, KeyType::Hash));
    let range = range.iter().map(|(a, _)| b(a, KeyType::Range));
    hash.chain(range).collect()
}

/// The key of one index as `create_table` creates it: its kind, partition
/// attributes and sort attributes with their types, in key-schema order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexDef {
    pub(crate) kind: IndexKind,
    pub(crate) hash: Vec<(&'static str, KeyAttrType)>,
    pub(crate) range: Vec<(&'static str, KeyAttrType)>,
}

impl IndexDef {
    pub(crate) fn of(ix: &IndexMeta) -> Self {
        IndexDef {
            kind: ix.kind,
            hash: ix.pk_attrs().collect(),
            range: ix.sk_attrs().collect(),
        }
    }

    /// Every key attribute with its type.
    pub(crate) fn attrs(&self) -> impl Iterator<Item = (&'static str, KeyAttrType)> + '_ {
        self.hash.iter().chain(self.range.iter()).copied()
    }

    /// Its key schema; a local index's partition key is the table's `pk`.
    pub(crate) fn key_schema(&self, pk: &str) -> Result<Vec<KeySchemaElement>, Error> {
        match self.kind {
            IndexKind::Global => key_schema_of(&self.hash, &self.range),
            IndexKind::Local => key_schema_of(&[(pk, KeyAttrType::S)], &self.range),
        }
    }
}

/// The `AttributeDefinition` of a key attribute.
pub(crate) fn attribute_definition(
    attr: &str,
    ty: KeyAttrType,
) -> Result<AttributeDefinition, Error> {
    AttributeDefinition::builder()
        .attribute_name(attr)
        .attribute_type(ty.scalar())
        .build()
        .map_err(build_err)
}

/// The key attributes a set of entities agree on, and their indexes.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub(crate) pk: Option<&'static str>,
    pub(crate) sk: Option<Option<&'static str>>,
    /// Every key attribute (table and indexes) with its one type.
    pub(crate) attrs: Vec<(&'static str, KeyAttrType)>,
    pub(crate) indexes: BTreeMap<&'static str, IndexDef>,
    pub(crate) ttl: Option<&'static str>,
    /// Per index: `None` for ALL, else the non-key attributes it holds.
    pub(crate) projections: BTreeMap<&'static str, Option<Vec<&'static str>>>,
    /// The vector indexes, by name.
    pub(crate) vectors: BTreeMap<&'static str, vector::VectorDef>,
}

impl Plan {
    /// Adds key attribute `a` of type `ty`; one attribute has one type in
    /// a table (DynamoDB refuses two definitions of it).
    fn attr(&mut self, a: &'static str, ty: KeyAttrType, by: &str) -> Result<(), Error> {
        match self.attrs.iter().find(|(n, _)| *n == a) {
            Some((_, t)) if *t != ty => Err(invalid(format!(
                "key attribute `{a}` is {t} in one index and {ty} in another ({by}): an attribute has one type in a table's key schemas"
            ))),
            Some(_) => Ok(()),
            None => {
                self.attrs.push((a, ty));
                Ok(())
            }
        }
    }

    /// Adds what one entity's index holds: ALL wins, included attributes
    /// add up (with the discriminator).
    fn project(&mut self, ix: &IndexMeta, disc: &'static str) {
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
            p.attr(m.pk.attr, KeyAttrType::S, m.type_name)?;
            if let Some(sk) = sk {
                p.attr(sk, KeyAttrType::S, m.type_name)?;
            }
            for ix in m.indexes {
                let def = IndexDef::of(ix);
                match p.indexes.get(ix.name) {
                    Some(d) if *d != def => {
                        return Err(invalid(format!(
                            "index {} is declared with different keys by {} and another entity",
                            ix.name, m.type_name
                        )))
                    }
                    _ => {}
                }
                p.project(ix, m.discriminator_attr);
                for (a, ty) in def.attrs() {
                    p.attr(a, ty, ix.name)?;
                }
                p.indexes.insert(ix.name, def);
            }
            vector::add_entity(&mut p.vectors, m)?;
            for v in m.vectors {
                // A search schema attribute is defined with its type; the
                // vector attribute is not (DynamoDB refuses that).
                for (a, ty, _) in v.schema_attrs() {
                    p.attr(a, ty, v.name)?;
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
    let mut req = CreateTableInput::builder()
        .table_name(name)
        .set_key_schema(Some(key_schema(pk, sk)?));
    req = apply::create_request(options, req)?;
    for (a, ty) in &plan.attrs {
        req = req.attribute_definitions(attribute_definition(a, *ty)?);
    }
    for (ix, def) in &plan.indexes {
        match def.kind {
            IndexKind::Global => {
                let gsi = GlobalSecondaryIndex::builder()
                    .index_name(*ix)
                    .set_key_schema(Some(def.key_schema(pk)?))
                    .projection(plan.projection(ix));
                req = req.global_secondary_indexes(
                    apply::global_index(options, gsi)?
                        .build()
                        .map_err(build_err)?,
                );
            }
            IndexKind::Local => {
                if def.range.is_empty() {
                    return Err(invalid(format!("local index {ix} has no sort key")));
                }
                req = req.local_secondary_indexes(
                    LocalSecondaryIndex::builder()
                        .index_name(*ix)
                        .set_key_schema(Some(def.key_schema(pk)?))
                        .projection(plan.projection(ix))
                        .build()
                        .map_err(build_err)?,
                );
            }
        }
    }
    vector::check_billing(&plan.vectors, &options.billing)?;
    for def in plan.vectors.values() {
        req = req.vector_indexes(def.sdk()?);
    }
    if let Some(spec) = options.stream_specification()? {
        req = req.stream_specification(spec);
    }
    let to = To::table(client, name);
    let existed = send_or_none(&to, req, CreateTableError::is_resource_in_use_exception)
        .await?
        .is_none();
    wait_active(client, name).await?;
    if existed {
        options.ensure_stream(client, name).await?;
    }
    apply::after_create(options, client, name).await?;
    if let Some(ttl) = plan.ttl {
        // Backends without TTL, or a TTL already on: nothing to do.
        let req = UpdateTimeToLiveInput::builder()
            .table_name(name)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(ttl)
                    .enabled(true)
                    .build()
                    .map_err(build_err)?,
            );
        let _ = send(&To::table(client, name), req).await;
    }
    Ok(())
}

/// The description of table `name`; `None` when there is no such table
/// (for the live check and the schema runner).
#[cfg(any(feature = "export", feature = "migrate"))]
pub(crate) async fn describe(
    client: &Client,
    name: &str,
) -> Result<Option<aws_sdk_dynamodb::types::TableDescription>, Error> {
    let req = DescribeTableInput::builder().table_name(name);
    let to = To::table(client, name);
    let out = send_or_none(
        &to,
        req,
        aws_sdk_dynamodb::operation::describe_table::DescribeTableError::is_resource_not_found_exception,
    )
    .await?;
    Ok(out.map(|o| {
        o.table
            .unwrap_or_else(|| aws_sdk_dynamodb::types::TableDescription::builder().build())
    }))
}

pub(crate) async fn wait_active(client: &Client, name: &str) -> Result<(), Error> {
    let mut delay = Duration::from_millis(20);
    for _ in 0..200 {
        let req = DescribeTableInput::builder().table_name(name);
        let out = send(&To::table(client, name), req).await?;
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
    let req = DeleteTableInput::builder().table_name(name);
    let to = To::table(client, name);
    send_or_none(&to, req, DeleteTableError::is_resource_not_found_exception)
        .await
        .map(drop)
}
