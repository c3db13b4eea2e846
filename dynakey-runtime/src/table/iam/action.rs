//! The IAM actions of DynamoDB that a table's use can need, and which one
//! authorizes each request.

use std::fmt;

/// An IAM action of DynamoDB (`dynamodb:<name>`).
///
/// ```
/// use dynakey_runtime::table::iam::Action;
/// assert_eq!(Action::Query.iam(), "dynamodb:Query");
/// assert_eq!(Action::of_request("Put"), Some(Action::PutItem)); // an action of TransactWriteItems
/// assert_eq!(Action::of_request("TransactWriteItems"), None);   // authorized by its actions
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Action {
    /// `BatchGetItem`.
    BatchGetItem,
    /// `BatchWriteItem`.
    BatchWriteItem,
    /// `ConditionCheckItem`: a `ConditionCheck` of a transaction.
    ConditionCheckItem,
    /// `DeleteItem`, and a `Delete` of a transaction.
    DeleteItem,
    /// `DescribeContinuousBackups`: `verify_table_with` reads point-in-time
    /// recovery ([`Action::VERIFY`]).
    DescribeContinuousBackups,
    /// `DescribeStream`.
    DescribeStream,
    /// `DescribeTable`: `verify_table` ([`Action::VERIFY`]), and the stream
    /// consumer's look-up of the stream ARN.
    DescribeTable,
    /// `DescribeTimeToLive`: `verify_table` reads TTL ([`Action::VERIFY`]).
    DescribeTimeToLive,
    /// `GetItem`, and every `Get` of `TransactGetItems`.
    GetItem,
    /// `GetRecords` of the stream.
    GetRecords,
    /// `GetResourcePolicy`: `verify_table_with` reads the table's resource
    /// policy ([`Action::VERIFY`]).
    GetResourcePolicy,
    /// `GetShardIterator` of the stream.
    GetShardIterator,
    /// `ListTagsOfResource`: `verify_table_with` reads the table's tags
    /// ([`Action::VERIFY`]).
    ListTagsOfResource,
    /// `PutItem`, and a `Put` of a transaction.
    PutItem,
    /// `Query` of the table or an index.
    Query,
    /// `Scan` of the table or an index.
    Scan,
    /// `SearchVectors` of a vector index.
    SearchVectors,
    /// `UpdateItem`, and an `Update` of a transaction.
    UpdateItem,
}

impl Action {
    /// What reading items needs: `GetItem`, `BatchGetItem`, `Query`.
    pub const READ: &'static [Action] = &[Action::BatchGetItem, Action::GetItem, Action::Query];
    /// What writing items needs: `PutItem`, `UpdateItem`, `DeleteItem`,
    /// `BatchWriteItem`, and `ConditionCheckItem` for transactions.
    pub const WRITE: &'static [Action] = &[
        Action::BatchWriteItem,
        Action::ConditionCheckItem,
        Action::DeleteItem,
        Action::PutItem,
        Action::UpdateItem,
    ];
    /// What reading the table's stream needs.
    pub const STREAM: &'static [Action] = &[
        Action::DescribeTable,
        Action::DescribeStream,
        Action::GetRecords,
        Action::GetShardIterator,
    ];

    /// What `verify_table` and `verify_table_with` read: the table's
    /// description, TTL, point-in-time recovery, tags and resource policy.
    pub const VERIFY: &'static [Action] = &[
        Action::DescribeContinuousBackups,
        Action::DescribeTable,
        Action::DescribeTimeToLive,
        Action::GetResourcePolicy,
        Action::ListTagsOfResource,
    ];

    /// The action in a policy: `dynamodb:GetItem`.
    pub fn iam(self) -> &'static str {
        match self {
            Action::BatchGetItem => "dynamodb:BatchGetItem",
            Action::BatchWriteItem => "dynamodb:BatchWriteItem",
            Action::ConditionCheckItem => "dynamodb:ConditionCheckItem",
            Action::DeleteItem => "dynamodb:DeleteItem",
            Action::DescribeContinuousBackups => "dynamodb:DescribeContinuousBackups",
            Action::DescribeStream => "dynamodb:DescribeStream",
            Action::DescribeTable => "dynamodb:DescribeTable",
            Action::DescribeTimeToLive => "dynamodb:DescribeTimeToLive",
            Action::GetItem => "dynamodb:GetItem",
            Action::GetRecords => "dynamodb:GetRecords",
            Action::GetResourcePolicy => "dynamodb:GetResourcePolicy",
            Action::GetShardIterator => "dynamodb:GetShardIterator",
            Action::ListTagsOfResource => "dynamodb:ListTagsOfResource",
            Action::PutItem => "dynamodb:PutItem",
            Action::Query => "dynamodb:Query",
            Action::Scan => "dynamodb:Scan",
            Action::SearchVectors => "dynamodb:SearchVectors",
            Action::UpdateItem => "dynamodb:UpdateItem",
        }
    }

    /// The action that authorizes a request of `operation` (`PutItem`,
    /// `Query`, …) or an action of a transaction (`Put`, `Update`,
    /// `Delete`, `ConditionCheck`, `Get`); `None` for a transaction as a
    /// whole (its actions are authorized one by one) and for operations
    /// outside this list (see the example on [`Action`]).
    pub fn of_request(operation: &str) -> Option<Action> {
        Some(match operation {
            "GetItem" | "Get" => Action::GetItem,
            "PutItem" | "Put" => Action::PutItem,
            "UpdateItem" | "Update" => Action::UpdateItem,
            "DeleteItem" | "Delete" => Action::DeleteItem,
            "ConditionCheck" | "ConditionCheckItem" => Action::ConditionCheckItem,
            "Query" => Action::Query,
            "Scan" => Action::Scan,
            "SearchVectors" => Action::SearchVectors,
            "BatchGetItem" => Action::BatchGetItem,
            "BatchWriteItem" => Action::BatchWriteItem,
            "DescribeTable" => Action::DescribeTable,
            "DescribeTimeToLive" => Action::DescribeTimeToLive,
            "DescribeContinuousBackups" => Action::DescribeContinuousBackups,
            "ListTagsOfResource" => Action::ListTagsOfResource,
            "GetResourcePolicy" => Action::GetResourcePolicy,
            "DescribeStream" => Action::DescribeStream,
            "GetRecords" => Action::GetRecords,
            "GetShardIterator" => Action::GetShardIterator,
            _ => return None,
        })
    }

    /// Acts on items of the table (and names their partition keys, but
    /// `Scan`).
    pub(super) fn on_items(self) -> bool {
        !self.on_table() && !self.on_policy() && !self.on_stream() && !self.on_vectors()
    }

    /// Acts on a vector index only.
    pub(super) fn on_vectors(self) -> bool {
        self == Action::SearchVectors
    }

    /// Acts on an index too.
    pub(super) fn on_indexes(self) -> bool {
        matches!(self, Action::Query | Action::Scan)
    }

    /// Acts on the table as a whole.
    pub(super) fn on_table(self) -> bool {
        Action::VERIFY.contains(&self) && !self.on_policy()
    }

    /// Reads a resource policy: IAM lists the table and the stream as
    /// its resources (both required, as IAM policy linters read AWS's
    /// reference), so it is granted on the table's ARN and the stream's.
    pub(super) fn on_policy(self) -> bool {
        self == Action::GetResourcePolicy
    }

    /// Acts on the stream.
    pub(crate) fn on_stream(self) -> bool {
        matches!(
            self,
            Action::DescribeStream | Action::GetRecords | Action::GetShardIterator
        )
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.iam())
    }
}
