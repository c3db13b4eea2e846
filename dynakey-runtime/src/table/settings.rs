//! The table settings the entities cannot know (billing, capacity,
//! recovery, protection, class, encryption, tags, resource policy): one
//! typed description that `create_table_with` applies and the
//! CloudFormation and Terraform exports write, so a test table and the
//! production table come from the same value.

use crate::error::{Error, RefusedReason};

/// How the table is billed (`BillingMode`).
///
/// ```
/// use dynakey_runtime::table::Billing;
/// assert_eq!(Billing::default(), Billing::OnDemand { max_read: None, max_write: None });
/// assert_eq!(Billing::Provisioned { read: 5, write: 5 }.mode(), "PROVISIONED");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Billing {
    /// `PAY_PER_REQUEST`, with an optional ceiling of request units per
    /// second (`OnDemandThroughput`), applied to the table and every
    /// global index.
    OnDemand {
        /// `MaxReadRequestUnits`.
        max_read: Option<u64>,
        /// `MaxWriteRequestUnits`.
        max_write: Option<u64>,
    },
    /// `PROVISIONED` capacity units, for the table and every global index.
    Provisioned {
        /// `ReadCapacityUnits`.
        read: u64,
        /// `WriteCapacityUnits`.
        write: u64,
    },
}

impl Default for Billing {
    fn default() -> Self {
        Billing::OnDemand {
            max_read: None,
            max_write: None,
        }
    }
}

impl Billing {
    /// The API's name of the mode (see the example on [`Billing`]).
    pub fn mode(&self) -> &'static str {
        match self {
            Billing::OnDemand { .. } => "PAY_PER_REQUEST",
            Billing::Provisioned { .. } => "PROVISIONED",
        }
    }
}

/// Pre-warmed throughput (`WarmThroughput`), in units per second.
///
/// ```
/// use dynakey_runtime::table::{TableOptions, WarmThroughput};
/// let o = TableOptions::default().warm_throughput(WarmThroughput { read_units_per_second: 12_000, write_units_per_second: 4_000 });
/// assert!(o.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarmThroughput {
    /// `ReadUnitsPerSecond`.
    pub read_units_per_second: u64,
    /// `WriteUnitsPerSecond`.
    pub write_units_per_second: u64,
}

/// Point-in-time recovery, with the days it keeps (`RecoveryPeriodInDays`,
/// 1 to 35; `None` is DynamoDB's default of 35).
///
/// ```
/// use dynakey_runtime::table::{PointInTimeRecovery, TableOptions};
/// let o = TableOptions::default().point_in_time_recovery(PointInTimeRecovery { recovery_period_days: Some(7) });
/// assert!(o.validate().is_ok());
/// let bad = TableOptions::default().point_in_time_recovery(PointInTimeRecovery { recovery_period_days: Some(36) });
/// assert!(bad.validate().unwrap_err().to_string().contains("36"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PointInTimeRecovery {
    /// Days of recovery points kept (1 to 35).
    pub recovery_period_days: Option<u32>,
}

/// The table class (`TableClass`).
///
/// ```
/// use dynakey_runtime::table::TableClass;
/// assert_eq!(TableClass::StandardInfrequentAccess.as_str(), "STANDARD_INFREQUENT_ACCESS");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableClass {
    /// `STANDARD`.
    Standard,
    /// `STANDARD_INFREQUENT_ACCESS`.
    StandardInfrequentAccess,
}

impl TableClass {
    /// The API's name (see the example on [`TableClass`]).
    pub fn as_str(self) -> &'static str {
        match self {
            TableClass::Standard => "STANDARD",
            TableClass::StandardInfrequentAccess => "STANDARD_INFREQUENT_ACCESS",
        }
    }
}

/// Encryption at rest (`SSESpecification`).
///
/// ```
/// use dynakey_runtime::table::{Encryption, TableOptions};
/// let o = TableOptions::default().encryption(Encryption::Kms { key: Some("alias/orders".into()) });
/// assert!(o.validate().is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Encryption {
    /// A key AWS owns (DynamoDB's default, `SSEEnabled: false`).
    AwsOwned,
    /// AWS KMS: the AWS-managed key `alias/aws/dynamodb` (`key: None`), or
    /// a customer-managed key by id, ARN or alias.
    Kms {
        /// `KMSMasterKeyId`.
        key: Option<String>,
    },
}

/// Bad settings are refused with the setting, the value and the rule.
fn refuse(setting: &str, value: impl std::fmt::Display, why: &str) -> Error {
    Error::refused(
        RefusedReason::TableDefinition,
        format!("table option {setting} = {value}: {why}"),
    )
}

impl super::TableOptions {
    /// Checks every setting against DynamoDB's rules before anything is
    /// sent or written (see the examples on [`PointInTimeRecovery`]).
    pub fn validate(&self) -> Result<(), Error> {
        match self.billing {
            Billing::Provisioned { read, write } => {
                for (n, v) in [("read", read), ("write", write)] {
                    if v == 0 {
                        return Err(refuse(
                            &format!("Billing::Provisioned {n}"),
                            v,
                            "capacity units are at least 1",
                        ));
                    }
                }
            }
            Billing::OnDemand {
                max_read,
                max_write,
            } => {
                for (n, v) in [("max_read", max_read), ("max_write", max_write)] {
                    if v == Some(0) {
                        return Err(refuse(
                            &format!("Billing::OnDemand {n}"),
                            0,
                            "a maximum of request units is at least 1 (None for no maximum)",
                        ));
                    }
                }
            }
        }
        if let Some(w) = self.warm_throughput {
            if w.read_units_per_second == 0 || w.write_units_per_second == 0 {
                return Err(refuse(
                    "warm_throughput",
                    format!("{w:?}"),
                    "units per second are at least 1",
                ));
            }
        }
        if let Some(PointInTimeRecovery {
            recovery_period_days: Some(d),
        }) = self.point_in_time_recovery
        {
            if !(1..=35).contains(&d) {
                return Err(refuse(
                    "point_in_time_recovery.recovery_period_days",
                    d,
                    "DynamoDB keeps 1 to 35 days",
                ));
            }
        }
        if let Some(Encryption::Kms { key: Some(k) }) = &self.encryption {
            if k.trim().is_empty() {
                return Err(refuse(
                    "encryption key",
                    format!("{k:?}"),
                    "name a KMS key (id, ARN or alias), or None for alias/aws/dynamodb",
                ));
            }
        }
        for (i, (k, v)) in self.tags.iter().enumerate() {
            if k.is_empty() || k.chars().count() > 128 {
                return Err(refuse("tag key", format!("{k:?}"), "1 to 128 characters"));
            }
            if k.starts_with("aws:") {
                return Err(refuse(
                    "tag key",
                    format!("{k:?}"),
                    "the aws: prefix is AWS's own",
                ));
            }
            if v.chars().count() > 256 {
                return Err(refuse(
                    "tag value",
                    format!("{k:?}"),
                    "a value holds at most 256 characters",
                ));
            }
            if self.tags[..i].iter().any(|(o, _)| o == k) {
                return Err(refuse("tag key", format!("{k:?}"), "given twice"));
            }
        }
        if self.tags.len() > 50 {
            return Err(refuse(
                "tags",
                self.tags.len(),
                "a table has at most 50 tags",
            ));
        }
        if let Some(p) = &self.resource_policy {
            match serde_json::from_str::<serde_json::Value>(p) {
                Ok(serde_json::Value::Object(_)) => {}
                Ok(_) => {
                    return Err(refuse(
                        "resource_policy",
                        "(not an object)",
                        "a policy document is a JSON object",
                    ))
                }
                Err(e) => return Err(refuse("resource_policy", "(not JSON)", &e.to_string())),
            }
        }
        Ok(())
    }

    /// The resource policy as a JSON value (checked by [`Self::validate`]).
    #[cfg(feature = "export")]
    pub(crate) fn policy_document(&self) -> Option<serde_json::Value> {
        self.resource_policy
            .as_deref()
            .and_then(|p| serde_json::from_str(p).ok())
    }
}
