//! The table admin operations: they read or write no items, so they ask
//! for no capacity and report none; each still gets its span. Each is one
//! line of `admin!`: its name, and the SDK module holding its input
//! builder, output and error.

use std::future::Future;

use aws_sdk_dynamodb::operation;
use aws_sdk_dynamodb::Client;

use super::{Operation, Sent};

/// `impl Operation` for each admin operation: `"Name": module::Builder,
/// Output, Error;` (every provided method of [`Operation`] fits them).
macro_rules! admin {
    ($($name:literal: $module:ident::$builder:ident, $output:ident, $error:ident;)*) => {$(
        impl Operation for operation::$module::builders::$builder {
            const NAME: &'static str = $name;
            type Client = Client;
            type Output = operation::$module::$output;
            type Error = operation::$module::$error;
            fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
                self.send_with(client)
            }
        }
    )*};
}

admin! {
    "CreateTable": create_table::CreateTableInputBuilder, CreateTableOutput, CreateTableError;
    "DescribeTable": describe_table::DescribeTableInputBuilder,
        DescribeTableOutput, DescribeTableError;
    "UpdateTable": update_table::UpdateTableInputBuilder, UpdateTableOutput, UpdateTableError;
    "DeleteTable": delete_table::DeleteTableInputBuilder, DeleteTableOutput, DeleteTableError;
    "UpdateTimeToLive": update_time_to_live::UpdateTimeToLiveInputBuilder,
        UpdateTimeToLiveOutput, UpdateTimeToLiveError;
    "DescribeTimeToLive": describe_time_to_live::DescribeTimeToLiveInputBuilder,
        DescribeTimeToLiveOutput, DescribeTimeToLiveError;
    "UpdateContinuousBackups": update_continuous_backups::UpdateContinuousBackupsInputBuilder,
        UpdateContinuousBackupsOutput, UpdateContinuousBackupsError;
    "DescribeContinuousBackups": describe_continuous_backups::DescribeContinuousBackupsInputBuilder,
        DescribeContinuousBackupsOutput, DescribeContinuousBackupsError;
    "TagResource": tag_resource::TagResourceInputBuilder, TagResourceOutput, TagResourceError;
    "UntagResource": untag_resource::UntagResourceInputBuilder,
        UntagResourceOutput, UntagResourceError;
    "ListTagsOfResource": list_tags_of_resource::ListTagsOfResourceInputBuilder,
        ListTagsOfResourceOutput, ListTagsOfResourceError;
    "PutResourcePolicy": put_resource_policy::PutResourcePolicyInputBuilder,
        PutResourcePolicyOutput, PutResourcePolicyError;
    "GetResourcePolicy": get_resource_policy::GetResourcePolicyInputBuilder,
        GetResourcePolicyOutput, GetResourcePolicyError;
}
