//! [`TableOptions`] on a `CreateTable` request, and the one setting that
//! needs a call of its own once the table exists (point-in-time recovery).

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::create_table::builders::CreateTableInputBuilder;
use aws_sdk_dynamodb::operation::update_continuous_backups::UpdateContinuousBackupsInput;
use aws_sdk_dynamodb::types::builders::GlobalSecondaryIndexBuilder;
use aws_sdk_dynamodb::types::{
    BillingMode, OnDemandThroughput, PointInTimeRecoverySpecification, ProvisionedThroughput,
    SseSpecification, SseType, Tag, WarmThroughput as SdkWarm,
};
use aws_sdk_dynamodb::Client;

use super::settings::{Billing, Encryption};
use super::{build_err, TableOptions};
use crate::error::{Error, RefusedReason};
use crate::send::{send_or_none, To};

/// Capacity units as the API's `i64`; the checked options never exceed it
/// by much, but a value past `i64::MAX` is refused, not wrapped.
fn units(v: u64, what: &str) -> Result<i64, Error> {
    i64::try_from(v).map_err(|_| {
        Error::refused(
            RefusedReason::TableDefinition,
            format!("table option {what} = {v}: too large"),
        )
    })
}

fn provisioned(read: u64, write: u64) -> Result<ProvisionedThroughput, Error> {
    ProvisionedThroughput::builder()
        .read_capacity_units(units(read, "read capacity")?)
        .write_capacity_units(units(write, "write capacity")?)
        .build()
        .map_err(build_err)
}

fn on_demand(
    max_read: Option<u64>,
    max_write: Option<u64>,
) -> Result<Option<OnDemandThroughput>, Error> {
    if max_read.is_none() && max_write.is_none() {
        return Ok(None);
    }
    let r = max_read.map(|v| units(v, "max read")).transpose()?;
    let w = max_write.map(|v| units(v, "max write")).transpose()?;
    Ok(Some(
        OnDemandThroughput::builder()
            .set_max_read_request_units(r)
            .set_max_write_request_units(w)
            .build(),
    ))
}

/// The table-level settings of `options` on `req`.
pub(super) fn create_request(
    options: &TableOptions,
    mut req: CreateTableInputBuilder,
) -> Result<CreateTableInputBuilder, Error> {
    options.validate()?;
    req = match options.billing {
        Billing::OnDemand {
            max_read,
            max_write,
        } => req
            .billing_mode(BillingMode::PayPerRequest)
            .set_on_demand_throughput(on_demand(max_read, max_write)?),
        Billing::Provisioned { read, write } => req
            .billing_mode(BillingMode::Provisioned)
            .provisioned_throughput(provisioned(read, write)?),
    };
    if let Some(w) = options.warm_throughput {
        req = req.warm_throughput(
            SdkWarm::builder()
                .read_units_per_second(units(w.read_units_per_second, "warm read")?)
                .write_units_per_second(units(w.write_units_per_second, "warm write")?)
                .build(),
        );
    }
    if options.deletion_protection {
        req = req.deletion_protection_enabled(true);
    }
    if let Some(c) = options.table_class {
        req = req.table_class(c.as_str().into());
    }
    match &options.encryption {
        None | Some(Encryption::AwsOwned) => {}
        Some(Encryption::Kms { key }) => {
            req = req.sse_specification(
                SseSpecification::builder()
                    .enabled(true)
                    .sse_type(SseType::Kms)
                    .set_kms_master_key_id(key.clone())
                    .build(),
            );
        }
    }
    for (k, v) in &options.tags {
        req = req.tags(Tag::builder().key(k).value(v).build().map_err(build_err)?);
    }
    if let Some(p) = &options.resource_policy {
        req = req.resource_policy(p);
    }
    Ok(req)
}

/// A global index's throughput under `options`' billing.
pub(super) fn global_index(
    options: &TableOptions,
    gsi: GlobalSecondaryIndexBuilder,
) -> Result<GlobalSecondaryIndexBuilder, Error> {
    Ok(match options.billing {
        Billing::OnDemand {
            max_read,
            max_write,
        } => gsi.set_on_demand_throughput(on_demand(max_read, max_write)?),
        Billing::Provisioned { read, write } => {
            gsi.provisioned_throughput(provisioned(read, write)?)
        }
    })
}

/// Turns point-in-time recovery on when the options ask for it. A backend
/// without the operation (dynoxide has no backups) leaves it off: the test
/// table still gets every other setting, and `verify_table` reports the
/// recovery setting as not checked there.
pub(super) async fn after_create(
    options: &TableOptions,
    client: &Client,
    name: &str,
) -> Result<(), Error> {
    let Some(pitr) = options.point_in_time_recovery else {
        return Ok(());
    };
    let spec = PointInTimeRecoverySpecification::builder()
        .point_in_time_recovery_enabled(true)
        .set_recovery_period_in_days(pitr.recovery_period_days.map(|d| d as i32))
        .build()
        .map_err(build_err)?;
    let req = UpdateContinuousBackupsInput::builder()
        .table_name(name)
        .point_in_time_recovery_specification(spec);
    let to = To::table(client, name);
    send_or_none(&to, req, |e| unsupported(e.code()))
        .await
        .map(drop)
}

/// Whether an error code says the backend lacks the operation.
pub(crate) fn unsupported(code: Option<&str>) -> bool {
    matches!(
        code,
        Some("UnknownOperationException" | "NotImplemented" | "UnsupportedOperation")
    )
}
