//! Why DynamoDB throttled a request, typed: the `ThrottlingReasons` its
//! throttling errors carry (`ProvisionedThroughputExceededException`,
//! `ThrottlingException`, `RequestLimitExceeded`), each a reason and the
//! table or index it concerns, so a caller can tell a hot key from an
//! index at its on-demand maximum and react to each.
//!
//! # Retries, per reason
//!
//! The SDK's standard retry (3 attempts by default) retries every
//! throttling error alike, whatever its reason: the three exception codes
//! are in its list of throttling errors, and it backs off exponentially
//! with jitter. dynakey's batch loops retry throttled chunks again with
//! [`RetryPolicy`](crate::RetryPolicy). [`Error::Throttled`](super::Error::Throttled)
//! is what is left when every attempt was throttled; what to do then
//! depends on the reason's [`ThrottleLimit`] (see [`ThrottleLimit::advice`]):
//!
//! | limit | retrying later | what fixes it |
//! |---|---|---|
//! | `KeyRangeThroughputExceeded` | helps only once the key cools down | spread the writes over more partition keys (write sharding), cache hot reads; for an index, a key with more distinct values |
//! | `ProvisionedThroughputExceeded` | helps when the burst passes | raise the table's or index's provisioned units (or auto scaling), or go on-demand |
//! | `MaxOnDemandThroughputExceeded` | helps only below the maximum you set | raise the table's or index's `MaxRead/WriteRequestUnits` ([`Billing::OnDemand`](crate::table::Billing::OnDemand)) |
//! | `AccountLimitExceeded` | helps when the traffic drops | ask for a higher per-table account quota (Service Quotas) |

use std::fmt;

/// What was throttled: the table or one of its indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThrottledOn {
    /// `Table…`.
    Table,
    /// `Index…` (a global secondary index).
    Index,
}

/// Which kind of request was throttled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThrottledAccess {
    /// `…Read…`.
    Read,
    /// `…Write…`.
    Write,
}

/// Why the request was throttled: the limit it ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThrottleLimit {
    /// The provisioned read or write capacity units of a provisioned table
    /// or index.
    ProvisionedThroughputExceeded,
    /// The per-table account-level quota of an on-demand table or index.
    AccountLimitExceeded,
    /// One partition's own limit: a hot key (or key range), in either
    /// billing mode.
    KeyRangeThroughputExceeded,
    /// The maximum request units configured on an on-demand table or index
    /// (`OnDemandThroughput`).
    MaxOnDemandThroughputExceeded,
}

impl ThrottleLimit {
    /// Every documented limit.
    pub const ALL: [ThrottleLimit; 4] = [
        ThrottleLimit::ProvisionedThroughputExceeded,
        ThrottleLimit::AccountLimitExceeded,
        ThrottleLimit::KeyRangeThroughputExceeded,
        ThrottleLimit::MaxOnDemandThroughputExceeded,
    ];

    /// The API's name of the limit (the tail of a reason).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ProvisionedThroughputExceeded => "ProvisionedThroughputExceeded",
            Self::AccountLimitExceeded => "AccountLimitExceeded",
            Self::KeyRangeThroughputExceeded => "KeyRangeThroughputExceeded",
            Self::MaxOnDemandThroughputExceeded => "MaxOnDemandThroughputExceeded",
        }
    }

    /// What a caller should do once the retries are spent (the table in
    /// the module's documentation).
    ///
    /// ```
    /// use dynakey_runtime::ThrottleLimit;
    /// assert!(ThrottleLimit::KeyRangeThroughputExceeded.advice().contains("write sharding"));
    /// ```
    pub fn advice(self) -> &'static str {
        match self {
            Self::KeyRangeThroughputExceeded => {
                "a hot key: retrying the same key hits the same partition; spread writes over more partition keys (write sharding), cache hot reads, or give the index a key with more distinct values"
            }
            Self::ProvisionedThroughputExceeded => {
                "raise the provisioned capacity of the table or index (or its auto scaling), or switch it to on-demand; retry later with backoff"
            }
            Self::MaxOnDemandThroughputExceeded => {
                "raise the table's or index's on-demand maximum (MaxReadRequestUnits / MaxWriteRequestUnits); retrying helps only below it"
            }
            Self::AccountLimitExceeded => {
                "the per-table account quota: ask for a higher quota, retry later with backoff"
            }
        }
    }
}

/// One documented reason (`ResourceType` + `OperationType` + `LimitType`,
/// 16 in all), or a reason this release does not know, kept as sent.
///
/// ```
/// use dynakey_runtime::{ThrottleLimit, ThrottleReason, ThrottledAccess, ThrottledOn};
/// let r = ThrottleReason::parse("IndexWriteMaxOnDemandThroughputExceeded");
/// assert_eq!(r, ThrottleReason::Documented {
///     on: ThrottledOn::Index,
///     access: ThrottledAccess::Write,
///     limit: ThrottleLimit::MaxOnDemandThroughputExceeded,
/// });
/// assert_eq!(r.to_string(), "IndexWriteMaxOnDemandThroughputExceeded");
/// assert_eq!(ThrottleReason::parse("TableReadSomethingNew"), ThrottleReason::Unknown("TableReadSomethingNew".into()));
/// assert_eq!(ThrottleReason::all().count(), 16);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ThrottleReason {
    /// A reason DynamoDB documents.
    Documented {
        /// The table or an index.
        on: ThrottledOn,
        /// Reads or writes.
        access: ThrottledAccess,
        /// The limit.
        limit: ThrottleLimit,
    },
    /// Any other text (a reason added after this release).
    Unknown(String),
}

impl ThrottleReason {
    /// Reads a reason as DynamoDB spells it.
    pub fn parse(text: &str) -> Self {
        let documented = || {
            let (on, rest) = if let Some(r) = text.strip_prefix("Table") {
                (ThrottledOn::Table, r)
            } else {
                (ThrottledOn::Index, text.strip_prefix("Index")?)
            };
            let (access, rest) = if let Some(r) = rest.strip_prefix("Read") {
                (ThrottledAccess::Read, r)
            } else {
                (ThrottledAccess::Write, rest.strip_prefix("Write")?)
            };
            let limit = ThrottleLimit::ALL
                .into_iter()
                .find(|l| l.as_str() == rest)?;
            Some(Self::Documented { on, access, limit })
        };
        documented().unwrap_or_else(|| Self::Unknown(text.to_owned()))
    }

    /// Every documented reason (see the example on [`ThrottleReason`]).
    pub fn all() -> impl Iterator<Item = ThrottleReason> {
        [ThrottledOn::Table, ThrottledOn::Index]
            .into_iter()
            .flat_map(|on| {
                [ThrottledAccess::Read, ThrottledAccess::Write]
                    .into_iter()
                    .flat_map(move |access| {
                        ThrottleLimit::ALL
                            .into_iter()
                            .map(move |limit| Self::Documented { on, access, limit })
                    })
            })
    }

    /// The limit, for a documented reason.
    pub fn limit(&self) -> Option<ThrottleLimit> {
        match self {
            Self::Documented { limit, .. } => Some(*limit),
            Self::Unknown(_) => None,
        }
    }
}

impl fmt::Display for ThrottleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Documented { on, access, limit } => {
                let on = match on {
                    ThrottledOn::Table => "Table",
                    ThrottledOn::Index => "Index",
                };
                let access = match access {
                    ThrottledAccess::Read => "Read",
                    ThrottledAccess::Write => "Write",
                };
                write!(f, "{on}{access}{}", limit.as_str())
            }
            Self::Unknown(text) => f.write_str(text),
        }
    }
}

/// The table or index a reason names: its ARN as sent, and the table and
/// index names read from it (`None` when the text is not a DynamoDB table
/// ARN).
///
/// ```
/// use dynakey_runtime::ThrottledResource;
/// let r = ThrottledResource::parse("arn:aws:dynamodb:eu-west-1:123456789012:table/shop/index/GSI1");
/// assert_eq!((r.table.as_deref(), r.index.as_deref()), (Some("shop"), Some("GSI1")));
/// assert_eq!(r.to_string(), "index GSI1 of table shop");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ThrottledResource {
    /// The ARN, as DynamoDB sent it.
    pub arn: String,
    /// The table's name.
    pub table: Option<String>,
    /// The index's name, when an index was throttled.
    pub index: Option<String>,
}

impl ThrottledResource {
    /// Reads an ARN (`arn:…:table/<table>[/index/<index>]`).
    pub fn parse(arn: &str) -> Self {
        let path = arn.split_once(":table/").map(|(_, p)| p);
        let (table, index) = match path {
            Some(p) => match p.split_once("/index/") {
                Some((t, i)) => (Some(t.to_owned()), Some(i.to_owned())),
                None => (Some(p.to_owned()), None),
            },
            None => (None, None),
        };
        Self {
            arn: arn.to_owned(),
            table,
            index,
        }
    }
}

impl fmt::Display for ThrottledResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.table, &self.index) {
            (Some(t), Some(i)) => write!(f, "index {i} of table {t}"),
            (Some(t), None) => write!(f, "table {t}"),
            _ => f.write_str(&self.arn),
        }
    }
}

/// One entry of `ThrottlingReasons`: why, and which table or index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Throttle {
    /// The reason.
    pub reason: ThrottleReason,
    /// The table or index throttled (when DynamoDB named it).
    pub resource: Option<ThrottledResource>,
}

impl Throttle {
    /// A reason on a resource (what the SDK's `ThrottlingReason` holds).
    ///
    /// ```
    /// use dynakey_runtime::Throttle;
    /// let t = Throttle::new("TableWriteKeyRangeThroughputExceeded", Some("arn:aws:dynamodb:us-east-1:1:table/shop"));
    /// assert_eq!(t.to_string(), "TableWriteKeyRangeThroughputExceeded on table shop");
    /// ```
    pub fn new(reason: &str, resource: Option<&str>) -> Self {
        Self {
            reason: ThrottleReason::parse(reason),
            resource: resource.map(ThrottledResource::parse),
        }
    }
}

impl fmt::Display for Throttle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.reason)?;
        if let Some(r) = &self.resource {
            write!(f, " on {r}")?;
        }
        Ok(())
    }
}

/// The reasons an SDK service error carries: its inner exception (the
/// operation error's `source()`), when that is one of the three throttling
/// exceptions. Works for every operation's error type.
pub(crate) fn throttles_of(service_error: &(dyn std::error::Error + 'static)) -> Vec<Throttle> {
    use aws_sdk_dynamodb::types::error::{
        ProvisionedThroughputExceededException, RequestLimitExceeded, ThrottlingException,
    };
    let Some(inner) = service_error.source() else {
        return Vec::new();
    };
    let list = if let Some(e) = inner.downcast_ref::<ProvisionedThroughputExceededException>() {
        e.throttling_reasons()
    } else if let Some(e) = inner.downcast_ref::<ThrottlingException>() {
        e.throttling_reasons()
    } else if let Some(e) = inner.downcast_ref::<RequestLimitExceeded>() {
        e.throttling_reasons()
    } else {
        &[]
    };
    list.iter()
        .filter_map(|r| r.reason().map(|reason| Throttle::new(reason, r.resource())))
        .collect()
}

/// The reasons in a raw error response's body: for the operations whose
/// error type does not model the throttling exceptions (the control plane:
/// DescribeTable, UpdateTable, …), where the SDK keeps the exception as
/// unhandled. Both spellings of the field are read (`ThrottlingReasons`,
/// `throttlingReasons` on `ThrottlingException`).
pub(crate) fn throttles_in_body(raw: &(dyn std::any::Any + 'static)) -> Vec<Throttle> {
    use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
    let body = raw
        .downcast_ref::<HttpResponse>()
        .and_then(|r| r.body().bytes())
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok());
    let Some(body) = body else {
        return Vec::new();
    };
    let list = ["ThrottlingReasons", "throttlingReasons"]
        .iter()
        .find_map(|f| body.get(*f).and_then(serde_json::Value::as_array));
    list.into_iter()
        .flatten()
        .filter_map(|r| {
            let reason = r.get("reason")?.as_str()?;
            Some(Throttle::new(
                reason,
                r.get("resource").and_then(|v| v.as_str()),
            ))
        })
        .collect()
}

/// The operation an SDK operation error belongs to, from its type's name
/// (`…::get_item::GetItemError` → `GetItem`).
pub(crate) fn operation_of<E>() -> &'static str {
    let name = std::any::type_name::<E>();
    let last = name.rsplit("::").next().unwrap_or(name);
    last.strip_suffix("Error").unwrap_or(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_reason_reads_back_as_itself() {
        for r in ThrottleReason::all() {
            assert_eq!(ThrottleReason::parse(&r.to_string()), r);
        }
        for bad in [
            "",
            "Table",
            "TableRead",
            "ViewReadKeyRangeThroughputExceeded",
        ] {
            assert_eq!(
                ThrottleReason::parse(bad),
                ThrottleReason::Unknown(bad.into())
            );
        }
    }

    #[test]
    fn a_resource_that_is_no_table_arn_is_kept_as_text() {
        let r = ThrottledResource::parse("shop");
        assert_eq!(r.to_string(), "shop");
        assert_eq!((r.table, r.index), (None, None));
    }

    #[test]
    fn the_operation_comes_from_the_error_type() {
        use aws_sdk_dynamodb::operation::{get_item::GetItemError, query::QueryError};
        assert_eq!(operation_of::<GetItemError>(), "GetItem");
        assert_eq!(operation_of::<QueryError>(), "Query");
    }
}
