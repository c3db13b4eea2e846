//! What an injected throttle says: the exception and its
//! `ThrottlingReasons`, in the body DynamoDB sends, so the SDK parses it
//! as it parses a real one and dynakey's typed error comes from the same
//! path as in production.

use serde_json::{json, Value};

use crate::error::{ThrottleLimit, ThrottleReason};

/// The exception a throttle comes as (DynamoDB uses all three; the SDK
/// retries each alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThrottleException {
    /// `ProvisionedThroughputExceededException`.
    ProvisionedThroughputExceeded,
    /// `ThrottlingException`.
    Throttling,
    /// `RequestLimitExceeded`.
    RequestLimitExceeded,
}

impl ThrottleException {
    /// Every one.
    pub const ALL: [ThrottleException; 3] = [
        ThrottleException::ProvisionedThroughputExceeded,
        ThrottleException::Throttling,
        ThrottleException::RequestLimitExceeded,
    ];

    /// The error code (`__type`'s tail).
    pub fn code(self) -> &'static str {
        match self {
            Self::ProvisionedThroughputExceeded => "ProvisionedThroughputExceededException",
            Self::Throttling => "ThrottlingException",
            Self::RequestLimitExceeded => "RequestLimitExceeded",
        }
    }

    /// The name of the reasons' field in the body. The service model
    /// spells it `throttlingReasons` on `ThrottlingException` and
    /// `ThrottlingReasons` on the other two; the SDK's deserializer reads
    /// only that spelling, so a body with the other one loses its reasons.
    fn reasons_field(self) -> &'static str {
        match self {
            Self::Throttling => "throttlingReasons",
            _ => "ThrottlingReasons",
        }
    }

    /// DynamoDB's message for it.
    fn message(self) -> &'static str {
        match self {
            Self::ProvisionedThroughputExceeded => "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
            Self::Throttling => "Throughput exceeds the current throughput limit for your table or index.",
            Self::RequestLimitExceeded => "Throughput exceeds the current throughput limit for your account.",
        }
    }
}

/// An injected throttle: which exception, which reasons on which
/// resources, and which operations it hits. Give it to
/// [`FaultInjector::throttle_with`](super::FaultInjector::throttle_with);
/// [`FaultConfig::throttle_rate`](super::FaultConfig::throttle_rate) says
/// how often.
///
/// ```
/// use dynakey_runtime::fault::{resource_arn, ThrottleException, ThrottleFault};
/// use dynakey_runtime::ThrottleReason;
/// let hot = ThrottleReason::parse("TableWriteKeyRangeThroughputExceeded");
/// let f = ThrottleFault::new(hot, resource_arn("shop", None)).on(&["PutItem"]);
/// assert_eq!(f.exception(), ThrottleException::ProvisionedThroughputExceeded);
/// assert!(f.body().contains(r#""reason":"TableWriteKeyRangeThroughputExceeded""#));
/// assert!(f.body().contains(r#""resource":"arn:aws:dynamodb:us-east-1:000000000000:table/shop""#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct ThrottleFault {
    exception: ThrottleException,
    reasons: Vec<(String, Option<String>)>,
    operations: Option<Vec<String>>,
}

impl Default for ThrottleFault {
    /// A `ProvisionedThroughputExceededException` with no reasons, on every
    /// data operation (what the injector sends without a fault set).
    fn default() -> Self {
        Self {
            exception: ThrottleException::ProvisionedThroughputExceeded,
            reasons: Vec::new(),
            operations: None,
        }
    }
}

impl ThrottleFault {
    /// A throttle for `reason` on `resource` (a table or index ARN, see
    /// [`resource_arn`]), as the exception DynamoDB's limits of that kind
    /// come with: provisioned capacity and hot keys as
    /// `ProvisionedThroughputExceededException`, on-demand maximums and
    /// account quotas as `ThrottlingException` (change it with
    /// [`ThrottleFault::exception_as`]).
    pub fn new(reason: ThrottleReason, resource: impl Into<String>) -> Self {
        let exception = match reason.limit() {
            Some(ThrottleLimit::MaxOnDemandThroughputExceeded)
            | Some(ThrottleLimit::AccountLimitExceeded) => ThrottleException::Throttling,
            _ => ThrottleException::ProvisionedThroughputExceeded,
        };
        Self {
            exception,
            ..Self::default()
        }
        .and(reason, resource)
    }

    /// One more reason (DynamoDB lists one per resource throttled, e.g.
    /// the table and an index of one write).
    pub fn and(mut self, reason: ThrottleReason, resource: impl Into<String>) -> Self {
        self.reasons
            .push((reason.to_string(), Some(resource.into())));
        self
    }

    /// Sent as `exception` instead.
    pub fn exception_as(mut self, exception: ThrottleException) -> Self {
        self.exception = exception;
        self
    }

    /// Only on these operations (`"GetItem"`, `"Query"`, `"DescribeTable"`:
    /// any operation, control-plane ones included); by default every data
    /// operation.
    pub fn on(mut self, operations: &[&str]) -> Self {
        self.operations = Some(operations.iter().map(|s| (*s).to_owned()).collect());
        self
    }

    /// The exception it is sent as.
    pub fn exception(&self) -> ThrottleException {
        self.exception
    }

    /// Whether it hits `op` (`data` says whether `op` is a data operation).
    pub(super) fn hits(&self, op: &str, data: bool) -> bool {
        match &self.operations {
            Some(ops) => ops.iter().any(|o| o == op),
            None => data,
        }
    }

    /// The response body, as DynamoDB sends it.
    pub fn body(&self) -> String {
        let mut body = json!({
            "__type": format!("com.amazonaws.dynamodb.v20120810#{}", self.exception.code()),
            "message": self.exception.message(),
        });
        if !self.reasons.is_empty() {
            let list: Vec<Value> = self
                .reasons
                .iter()
                .map(|(reason, resource)| match resource {
                    Some(r) => json!({ "reason": reason, "resource": r }),
                    None => json!({ "reason": reason }),
                })
                .collect();
            body[self.exception.reasons_field()] = Value::Array(list);
        }
        body.to_string()
    }
}

/// The ARN of table `table` (or of its index `index`), in region
/// `us-east-1` of account `000000000000`, where the emulators put them.
///
/// ```
/// use dynakey_runtime::fault::resource_arn;
/// assert_eq!(resource_arn("shop", Some("GSI1")), "arn:aws:dynamodb:us-east-1:000000000000:table/shop/index/GSI1");
/// ```
pub fn resource_arn(table: &str, index: Option<&str>) -> String {
    let mut arn = format!("arn:aws:dynamodb:us-east-1:000000000000:table/{table}");
    if let Some(i) = index {
        arn.push_str("/index/");
        arn.push_str(i);
    }
    arn
}
