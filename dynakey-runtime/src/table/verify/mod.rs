//! `db.verify_table(..)`: a live table checked against what the code
//! needs, from DescribeTable, DescribeTimeToLive,
//! DescribeContinuousBackups, ListTagsOfResource and GetResourcePolicy. Run it in a deployment smoke test: it names
//! every difference and what fixes it (see [`Remedy`]).

mod fetch;
// `sync_table_with`, which applies the settings this module compares, is
// the schema runner's.
#[cfg(feature = "migrate")]
mod fix;
mod live;
mod report;
mod vector;

#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
pub use fix::SyncReport;
pub use report::{
    Difference, KeyElement, LiveProjection, LiveTtl, Remedy, TableReport, VectorAspect,
};

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::describe_continuous_backups::DescribeContinuousBackupsInput;
use aws_sdk_dynamodb::operation::describe_time_to_live::DescribeTimeToLiveInput;
use aws_sdk_dynamodb::types::{
    KeySchemaElement, PointInTimeRecoveryStatus, Projection, ProjectionType, TableDescription,
    TimeToLiveStatus,
};

use super::apply::unsupported;
use super::{IndexDef, Plan, TableOptions};
use crate::db::Db;
use crate::entity::{EntityMeta, IndexKind};
use crate::error::Error;
use crate::send::{send_or_none, To};

fn elements(ks: &[KeySchemaElement]) -> Vec<KeyElement> {
    ks.iter()
        .map(|k| {
            (
                k.attribute_name().to_owned(),
                k.key_type().as_str().to_owned(),
            )
        })
        .collect()
}

fn expected_keys(def: &IndexDef, pk: &str) -> Vec<KeyElement> {
    let hash: Vec<String> = match def.kind {
        IndexKind::Global => def.hash.iter().map(|(a, _)| (*a).to_owned()).collect(),
        IndexKind::Local => vec![pk.to_owned()],
    };
    hash.into_iter()
        .map(|a| (a, "HASH".to_owned()))
        .chain(
            def.range
                .iter()
                .map(|(a, _)| ((*a).to_owned(), "RANGE".to_owned())),
        )
        .collect()
}

fn live_projection(p: Option<&Projection>) -> LiveProjection {
    match p.and_then(|p| p.projection_type()) {
        Some(ProjectionType::KeysOnly) => LiveProjection::KeysOnly,
        Some(ProjectionType::Include) => LiveProjection::Include(
            p.map(|p| p.non_key_attributes().to_vec())
                .unwrap_or_default(),
        ),
        _ => LiveProjection::All,
    }
}

/// What the code reads through an index that `live` lacks: the attributes
/// `create_table` projects (`needs`, `None` for whole items) beyond the
/// key attributes every index holds.
fn missing(needs: &Option<Vec<&'static str>>, live: &LiveProjection, keys: &[&str]) -> Vec<String> {
    match (needs, live) {
        (_, LiveProjection::All) => Vec::new(),
        (None, _) => vec!["(every attribute)".to_owned()],
        (Some(attrs), live) => attrs
            .iter()
            .filter(|a| !keys.contains(a))
            .filter(|a| match live {
                LiveProjection::Include(have) => !have.iter().any(|h| h == *a),
                _ => true,
            })
            .map(|a| (*a).to_owned())
            .collect(),
    }
}

/// The live index of that name: its kind, key schema and projection.
fn live_index(
    t: &TableDescription,
    name: &str,
) -> Option<(IndexKind, Vec<KeyElement>, LiveProjection)> {
    if let Some(g) = t
        .global_secondary_indexes()
        .iter()
        .find(|g| g.index_name() == Some(name))
    {
        return Some((
            IndexKind::Global,
            elements(g.key_schema()),
            live_projection(g.projection()),
        ));
    }
    t.local_secondary_indexes()
        .iter()
        .find(|l| l.index_name() == Some(name))
        .map(|l| {
            (
                IndexKind::Local,
                elements(l.key_schema()),
                live_projection(l.projection()),
            )
        })
}

/// The differences DescribeTable shows.
fn table_differences(t: &TableDescription, plan: &Plan, options: &TableOptions) -> Vec<Difference> {
    let mut out = Vec::new();
    let pk = plan.pk.unwrap_or("pk");
    let mut want = vec![(pk.to_owned(), "HASH".to_owned())];
    want.extend(
        plan.sk
            .flatten()
            .map(|s| (s.to_owned(), "RANGE".to_owned())),
    );
    let found = elements(t.key_schema());
    if found != want {
        out.push(Difference::TableKey {
            expected: want,
            found,
        });
    }
    for (a, ty) in &plan.attrs {
        let def = t
            .attribute_definitions()
            .iter()
            .find(|d| d.attribute_name() == *a);
        if let Some(d) = def {
            if d.attribute_type().as_str() != ty.as_str() {
                out.push(Difference::AttributeType {
                    attribute: (*a).to_owned(),
                    expected: *ty,
                    found: d.attribute_type().as_str().to_owned(),
                });
            }
        }
    }
    let table_keys: Vec<&str> = std::iter::once(pk).chain(plan.sk.flatten()).collect();
    for (name, def) in &plan.indexes {
        let Some((kind, found, projection)) = live_index(t, name) else {
            out.push(Difference::MissingIndex {
                index: (*name).to_owned(),
                kind: def.kind,
            });
            continue;
        };
        let expected = expected_keys(def, pk);
        if kind != def.kind || found != expected {
            out.push(Difference::IndexKey {
                index: (*name).to_owned(),
                kind: def.kind,
                expected,
                found,
            });
            continue;
        }
        let keys: Vec<&str> = table_keys
            .iter()
            .copied()
            .chain(def.attrs().map(|(a, _)| a))
            .collect();
        let needs = plan.projections.get(name).cloned().flatten();
        let lacks = missing(&needs, &projection, &keys);
        if !lacks.is_empty() {
            out.push(Difference::NarrowProjection {
                index: (*name).to_owned(),
                kind: def.kind,
                found: projection,
                missing: lacks,
            });
        }
    }
    let declared = |n: &str| plan.indexes.contains_key(n);
    for g in t.global_secondary_indexes() {
        let n = g.index_name().unwrap_or_default();
        if !declared(n) {
            out.push(Difference::ExtraIndex {
                index: n.to_owned(),
                kind: IndexKind::Global,
            });
        }
    }
    for l in t.local_secondary_indexes() {
        let n = l.index_name().unwrap_or_default();
        if !declared(n) {
            out.push(Difference::ExtraIndex {
                index: n.to_owned(),
                kind: IndexKind::Local,
            });
        }
    }
    out.extend(vector::vector_differences(t, plan, &table_keys));
    if let Some(view) = options.stream {
        let live = t
            .stream_specification()
            .filter(|s| s.stream_enabled())
            .map(|s| {
                s.stream_view_type()
                    .map_or("(unknown)", |v| v.as_str())
                    .to_owned()
            });
        if live.as_deref() != Some(view.as_str()) {
            out.push(Difference::Stream {
                expected: view,
                found: live,
            });
        }
    }
    out
}

/// The differences in the settings only the options know.
fn settings_differences(t: &TableDescription, options: &TableOptions) -> Vec<Difference> {
    let mut out = Vec::new();
    if options.deletion_protection && t.deletion_protection_enabled() != Some(true) {
        out.push(Difference::DeletionProtection);
    }
    // DescribeTable omits the billing summary of a provisioned table
    // created before on-demand existed; a table with no summary and no
    // provisioned units says nothing either way.
    let summary = t.billing_mode_summary().and_then(|b| b.billing_mode());
    let units = t
        .provisioned_throughput()
        .and_then(|p| p.read_capacity_units())
        .is_some_and(|u| u > 0);
    let mode = summary
        .map(|m| m.as_str())
        .or(units.then_some("PROVISIONED"));
    match mode {
        Some(m) if m != options.billing.mode() => out.push(Difference::BillingMode {
            expected: options.billing.mode(),
            found: m.to_owned(),
        }),
        _ => {}
    }
    if let Some(class) = options.table_class {
        let live = t
            .table_class_summary()
            .and_then(|c| c.table_class())
            .map_or("STANDARD", |c| c.as_str());
        if live != class.as_str() {
            out.push(Difference::TableClass {
                expected: class.as_str(),
                found: live.to_owned(),
            });
        }
    }
    out
}

#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
impl Db {
    /// Checks the live table against `entities` with default options
    /// (no stream consumed, no production settings); see
    /// [`Db::verify_table_with`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
    /// # #[pk("T#<id>")] #[sk("TASK")]
    /// # struct TaskV1 { id: String, owner: String }
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
    /// # #[pk("T#<id>")] #[sk("TASK")]
    /// # #[gsi("GSI1", pk = "OWNER#<owner>", sk = "T#<id>")]
    /// # struct Task { id: String, owner: String }
    /// use dynakey_runtime::table::verify::Difference;
    /// use dynakey_runtime::Entity;
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("tasks");
    /// db.create_table(&[TaskV1::META]).await.unwrap();
    /// let report = db.verify_table(&[Task::META]).await.unwrap();
    /// assert!(!report.is_ok());
    /// assert!(matches!(&report.differences[0], Difference::MissingIndex { index, .. } if index == "GSI1"));
    /// assert_eq!(report.fixed_by_sync_table().count(), 1);
    /// db.sync_table(&[Task::META]).await.unwrap();
    /// assert!(db.verify_table(&[Task::META]).await.unwrap().matches());
    /// # });
    /// ```
    pub async fn verify_table(&self, entities: &[&EntityMeta]) -> Result<TableReport, Error> {
        self.verify_table_with(entities, &TableOptions::default())
            .await
    }

    /// Checks the live table against `entities` and `options`: the key
    /// schema and key attribute types, every index (missing, extra, other
    /// keys, a projection narrower than what the code reads through it),
    /// TTL, the stream when `options.stream` says the code consumes
    /// changes, and the settings the options name (point-in-time recovery,
    /// deletion protection, billing mode, table class, encryption and its
    /// key, tags, the resource policy, warm throughput, and the on-demand
    /// maximums or provisioned units of the table and each global index). What the backend
    /// cannot answer (dynoxide has no DescribeContinuousBackups) is listed
    /// in [`TableReport::unchecked`], never guessed.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::StreamView;
    /// use dynakey_runtime::table::{verify::Difference, TableOptions};
    /// use dynakey_runtime::Entity;
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("notes");
    /// db.create_table(&[Note::META]).await.unwrap(); // no stream
    /// let reads_changes = TableOptions::default().stream(StreamView::NewAndOldImages);
    /// let report = db.verify_table_with(&[Note::META], &reads_changes).await.unwrap();
    /// assert_eq!(report.differences, [Difference::Stream { expected: StreamView::NewAndOldImages, found: None }]);
    /// # });
    /// ```
    pub async fn verify_table_with(
        &self,
        entities: &[&EntityMeta],
        options: &TableOptions,
    ) -> Result<TableReport, Error> {
        let plan = Plan::from_metas(entities)?;
        let name = self.table_name();
        let mut report = TableReport {
            table: name.to_owned(),
            differences: Vec::new(),
            unchecked: Vec::new(),
        };
        let Some(table) = super::describe(self.client(), name).await? else {
            report.differences.push(Difference::MissingTable);
            return Ok(report);
        };
        let to = To::table(self.client(), name);
        report.differences = table_differences(&table, &plan, options);
        if let Some(ttl) = plan.ttl {
            let req = DescribeTimeToLiveInput::builder().table_name(name);
            match send_or_none(&to, req, |e| unsupported(e.code())).await? {
                Some(out) => {
                    let d = out.time_to_live_description();
                    let on = d.and_then(|d| d.time_to_live_status()).is_some_and(|s| {
                        matches!(s, TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
                    });
                    let attr = d.and_then(|d| d.attribute_name());
                    let found = match (on, attr) {
                        (true, Some(a)) => LiveTtl::On(a.to_owned()),
                        _ => LiveTtl::Off,
                    };
                    if found != LiveTtl::On(ttl.to_owned()) {
                        report.differences.push(Difference::Ttl {
                            expected: ttl.to_owned(),
                            found,
                        });
                    }
                }
                None => report
                    .unchecked
                    .push("TTL: the backend has no DescribeTimeToLive".into()),
            }
        }
        if let Some(pitr) = options.point_in_time_recovery {
            let req = DescribeContinuousBackupsInput::builder().table_name(name);
            match send_or_none(&to, req, |e| unsupported(e.code())).await? {
                Some(out) => {
                    let p = out
                        .continuous_backups_description()
                        .and_then(|c| c.point_in_time_recovery_description());
                    let on = p
                        .and_then(|p| p.point_in_time_recovery_status())
                        .is_some_and(|s| *s == PointInTimeRecoveryStatus::Enabled);
                    let days = p
                        .and_then(|p| p.recovery_period_in_days())
                        .map(|d| d as u32);
                    let wrong_days = pitr
                        .recovery_period_days
                        .is_some_and(|want| days.is_some_and(|d| d != want));
                    if !on || wrong_days {
                        report.differences.push(Difference::PointInTimeRecovery {
                            expected_days: pitr.recovery_period_days,
                            found: on.then_some(days),
                        });
                    }
                }
                None => report.unchecked.push(
                    "point-in-time recovery: the backend has no DescribeContinuousBackups".into(),
                ),
            }
        }
        report
            .differences
            .extend(settings_differences(&table, options));
        self.verify_live_settings(&table, options, &mut report)
            .await?;
        Ok(report)
    }
}
