//! What `db.sync_table_with(..)` changes on a live table: each difference
//! whose remedy is [`Remedy::SyncTableWith`], with the call DynamoDB
//! changes it by (UpdateTable for capacity, billing, class, encryption,
//! warm throughput and deletion protection; TagResource / UntagResource;
//! PutResourcePolicy), and what it leaves, with why.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::put_resource_policy::PutResourcePolicyInput;
use aws_sdk_dynamodb::operation::tag_resource::TagResourceInput;
use aws_sdk_dynamodb::operation::untag_resource::UntagResourceInput;
use aws_sdk_dynamodb::operation::update_table::UpdateTableInput;
use aws_sdk_dynamodb::types::{
    BillingMode, GlobalSecondaryIndexUpdate, OnDemandThroughput, ProvisionedThroughput,
    SseSpecification, SseType, TableDescription, Tag, UpdateGlobalSecondaryIndexAction,
    WarmThroughput as SdkWarm,
};
use aws_sdk_dynamodb::Client;

use super::report::{Difference, Remedy};
use crate::db::Db;
use crate::error::Error;
use crate::send::{send_then, Operation, To};
use crate::table::apply::unsupported;
use crate::table::{build_err, wait_active, Billing, Encryption, TableOptions};

/// What [`Db::sync_table_with`](crate::Db::sync_table_with) did.
///
/// ```
/// use dynakey_runtime::table::verify::SyncReport;
/// let r = SyncReport::default();
/// assert!(r.applied.is_empty() && r.not_applied.is_empty() && r.indexes_added.is_empty());
/// assert!(r.indexes_removed.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SyncReport {
    /// Indexes added as `sync_table` adds them: global, then vector.
    pub indexes_added: Vec<&'static str>,
    /// Vector indexes removed as `sync_table` removes them: those no
    /// entity declares.
    pub indexes_removed: Vec<String>,
    /// The differences changed (and no longer found afterwards).
    pub applied: Vec<Difference>,
    /// The differences left, each with why: its remedy is not a live
    /// change (a key, a local index, an index's projection), DynamoDB or
    /// the backend refused the change, or the table still differs after it.
    pub not_applied: Vec<(Difference, String)>,
}

/// A capacity number as the API's `i64` (`-1`: no maximum).
fn api_units(v: Option<u64>) -> i64 {
    v.and_then(|v| i64::try_from(v).ok()).unwrap_or(-1)
}

fn on_demand(max_read: Option<u64>, max_write: Option<u64>) -> OnDemandThroughput {
    OnDemandThroughput::builder()
        .max_read_request_units(api_units(max_read))
        .max_write_request_units(api_units(max_write))
        .build()
}

fn provisioned(read: u64, write: u64) -> Result<ProvisionedThroughput, Error> {
    ProvisionedThroughput::builder()
        .read_capacity_units(api_units(Some(read)))
        .write_capacity_units(api_units(Some(write)))
        .build()
        .map_err(build_err)
}

/// Whether a difference is about capacity (one UpdateTable changes them
/// together: DynamoDB wants every index's units with a switch to
/// provisioned).
fn is_capacity(d: &Difference) -> bool {
    matches!(
        d,
        Difference::BillingMode { .. }
            | Difference::OnDemandThroughput { .. }
            | Difference::ProvisionedThroughput { .. }
    )
}

/// The outcome of one change: refused by DynamoDB (its message), or an
/// error to return.
enum Refusal {
    Said(String),
    Fail(Error),
}

/// What a change's error `e` (whose service code was `code`) is: a refusal
/// to report, or an error to return.
fn refusal(code: Option<&str>, e: Error) -> Refusal {
    if unsupported(code) {
        return Refusal::Said("the backend does not have this operation".into());
    }
    match e {
        Error::Validation { message, .. } => {
            Refusal::Said(format!("DynamoDB refused it: {message}"))
        }
        other if code == Some("LimitExceededException") => {
            Refusal::Said(format!("DynamoDB refused it: {other}"))
        }
        other => Refusal::Fail(other),
    }
}

impl Db {
    /// Sends one change through the send path (its span records the error
    /// of a refused one); its error as a [`Refusal`].
    async fn change<O: Operation<Client = Client>>(&self, req: O) -> Result<(), Refusal> {
        let mut code = None;
        let to = To::table(self.client(), self.table_name());
        send_then(&to, req, |sent, attempts| {
            sent.map(drop).map_err(|e| {
                code = e.code().map(str::to_owned);
                O::error(e, attempts)
            })
        })
        .await
        .map_err(|e| refusal(code.as_deref(), e))
    }

    /// Changes the capacity of the table and its global indexes to the
    /// options' billing, in one UpdateTable.
    async fn fix_capacity(
        &self,
        t: &TableDescription,
        billing: Billing,
        diffs: &[&Difference],
    ) -> Result<(), Refusal> {
        let switch = diffs
            .iter()
            .any(|d| matches!(d, Difference::BillingMode { .. }));
        let table_differs = switch
            || diffs.iter().any(|d| {
                matches!(
                    d,
                    Difference::OnDemandThroughput { index: None, .. }
                        | Difference::ProvisionedThroughput { index: None, .. }
                )
            });
        let index_differs = |name: &str| {
            switch
                || diffs.iter().any(|d| match d {
                    Difference::OnDemandThroughput { index: Some(i), .. }
                    | Difference::ProvisionedThroughput { index: Some(i), .. } => i == name,
                    _ => false,
                })
        };
        let mut req = UpdateTableInput::builder().table_name(self.table_name());
        if table_differs {
            req = match billing {
                Billing::OnDemand {
                    max_read,
                    max_write,
                } => {
                    let r = req.billing_mode(BillingMode::PayPerRequest);
                    if max_read.is_some() || max_write.is_some() || !switch {
                        r.on_demand_throughput(on_demand(max_read, max_write))
                    } else {
                        r
                    }
                }
                Billing::Provisioned { read, write } => req
                    .billing_mode(BillingMode::Provisioned)
                    .provisioned_throughput(provisioned(read, write).map_err(Refusal::Fail)?),
            };
        }
        for g in t.global_secondary_indexes() {
            let Some(name) = g.index_name().filter(|n| index_differs(n)) else {
                continue;
            };
            let action = UpdateGlobalSecondaryIndexAction::builder().index_name(name);
            let action = match billing {
                Billing::OnDemand {
                    max_read,
                    max_write,
                } if max_read.is_some() || max_write.is_some() || !switch => {
                    action.on_demand_throughput(on_demand(max_read, max_write))
                }
                Billing::OnDemand { .. } => continue,
                Billing::Provisioned { read, write } => {
                    action.provisioned_throughput(provisioned(read, write).map_err(Refusal::Fail)?)
                }
            };
            req = req.global_secondary_index_updates(
                GlobalSecondaryIndexUpdate::builder()
                    .update(action.build().map_err(|e| Refusal::Fail(build_err(e)))?)
                    .build(),
            );
        }
        self.change(req).await
    }

    /// Changes one setting (not capacity: see `fix_capacity`).
    async fn fix_one(
        &self,
        arn: Option<&str>,
        options: &TableOptions,
        d: &Difference,
    ) -> Result<(), Refusal> {
        let update = UpdateTableInput::builder().table_name(self.table_name());
        let no_arn = || Refusal::Said("DescribeTable gave no table ARN".into());
        let table_update = match d {
            Difference::DeletionProtection => Some(update.deletion_protection_enabled(true)),
            Difference::TableClass { expected, .. } => Some(update.table_class((*expected).into())),
            Difference::Encryption { expected, .. } => {
                let spec = match expected {
                    Encryption::AwsOwned => SseSpecification::builder().enabled(false).build(),
                    Encryption::Kms { key } => SseSpecification::builder()
                        .enabled(true)
                        .sse_type(SseType::Kms)
                        .set_kms_master_key_id(key.clone())
                        .build(),
                };
                Some(update.sse_specification(spec))
            }
            Difference::WarmThroughput { expected, .. } => {
                let warm = SdkWarm::builder()
                    .read_units_per_second(api_units(Some(expected.read_units_per_second)))
                    .write_units_per_second(api_units(Some(expected.write_units_per_second)))
                    .build();
                Some(update.warm_throughput(warm))
            }
            _ => None,
        };
        if let Some(req) = table_update {
            return self.change(req).await;
        }
        match d {
            Difference::Tag {
                key,
                expected: Some(v),
                ..
            } => {
                let tag = Tag::builder()
                    .key(key)
                    .value(v)
                    .build()
                    .map_err(|e| Refusal::Fail(build_err(e)))?;
                let arn = arn.ok_or_else(no_arn)?;
                let req = TagResourceInput::builder().resource_arn(arn).tags(tag);
                self.change(req).await
            }
            Difference::Tag { key, .. } => {
                let arn = arn.ok_or_else(no_arn)?;
                let req = UntagResourceInput::builder()
                    .resource_arn(arn)
                    .tag_keys(key);
                self.change(req).await
            }
            Difference::ResourcePolicy { .. } => {
                let arn = arn.ok_or_else(no_arn)?;
                let policy = options.resource_policy.clone().unwrap_or_default();
                let req = PutResourcePolicyInput::builder()
                    .resource_arn(arn)
                    .policy(policy);
                self.change(req).await
            }
            _ => Err(Refusal::Said(d.remedy().to_string())),
        }
    }

    /// Changes every difference whose remedy is a live change, one call at
    /// a time (DynamoDB takes one table update at a time), waiting for the
    /// table to be ACTIVE after each update; fills `out`.
    pub(crate) async fn fix_settings(
        &self,
        t: &TableDescription,
        options: &TableOptions,
        diffs: Vec<Difference>,
        out: &mut SyncReport,
    ) -> Result<(), Error> {
        let (live, rest): (Vec<Difference>, Vec<Difference>) = diffs
            .into_iter()
            .partition(|d| d.remedy() == Remedy::SyncTableWith);
        for d in rest {
            let why = d.remedy().to_string();
            out.not_applied.push((d, why));
        }
        let capacity: Vec<&Difference> = live.iter().filter(|d| is_capacity(d)).collect();
        let mut tried: Vec<(Vec<Difference>, Result<(), Refusal>)> = Vec::new();
        if !capacity.is_empty() {
            let r = self.fix_capacity(t, options.billing, &capacity).await;
            tried.push((capacity.into_iter().cloned().collect(), r));
            wait_active(self.client(), self.table_name()).await?;
        }
        for d in live.iter().filter(|d| !is_capacity(d)) {
            let r = self.fix_one(t.table_arn(), options, d).await;
            tried.push((vec![d.clone()], r));
            wait_active(self.client(), self.table_name()).await?;
        }
        for (ds, r) in tried {
            match r {
                Ok(()) => out.applied.extend(ds),
                Err(Refusal::Said(why)) => {
                    out.not_applied
                        .extend(ds.into_iter().map(|d| (d, why.clone())));
                }
                Err(Refusal::Fail(e)) => return Err(e),
            }
        }
        Ok(())
    }
}
