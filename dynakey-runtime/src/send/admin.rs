//! The table admin operations: they read or write no items, so they ask
//! for no capacity and report none; each still gets its span.

use std::future::Future;

use aws_sdk_dynamodb::operation::create_table::builders::CreateTableInputBuilder;
use aws_sdk_dynamodb::operation::create_table::{CreateTableError, CreateTableOutput};
use aws_sdk_dynamodb::operation::delete_table::builders::DeleteTableInputBuilder;
use aws_sdk_dynamodb::operation::delete_table::{DeleteTableError, DeleteTableOutput};
use aws_sdk_dynamodb::operation::describe_continuous_backups::builders::DescribeContinuousBackupsInputBuilder;
use aws_sdk_dynamodb::operation::describe_continuous_backups::{
    DescribeContinuousBackupsError, DescribeContinuousBackupsOutput,
};
use aws_sdk_dynamodb::operation::describe_table::builders::DescribeTableInputBuilder;
use aws_sdk_dynamodb::operation::describe_table::{DescribeTableError, DescribeTableOutput};
use aws_sdk_dynamodb::operation::describe_time_to_live::builders::DescribeTimeToLiveInputBuilder;
use aws_sdk_dynamodb::operation::describe_time_to_live::{
    DescribeTimeToLiveError, DescribeTimeToLiveOutput,
};
use aws_sdk_dynamodb::operation::update_continuous_backups::builders::UpdateContinuousBackupsInputBuilder;
use aws_sdk_dynamodb::operation::update_continuous_backups::{
    UpdateContinuousBackupsError, UpdateContinuousBackupsOutput,
};
use aws_sdk_dynamodb::operation::update_table::builders::UpdateTableInputBuilder;
use aws_sdk_dynamodb::operation::update_table::{UpdateTableError, UpdateTableOutput};
use aws_sdk_dynamodb::operation::update_time_to_live::builders::UpdateTimeToLiveInputBuilder;
use aws_sdk_dynamodb::operation::update_time_to_live::{
    UpdateTimeToLiveError, UpdateTimeToLiveOutput,
};
use aws_sdk_dynamodb::Client;

use super::{Operation, Sent};

impl Operation for CreateTableInputBuilder {
    const NAME: &'static str = "CreateTable";
    type Client = Client;
    type Output = CreateTableOutput;
    type Error = CreateTableError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for DescribeTableInputBuilder {
    const NAME: &'static str = "DescribeTable";
    type Client = Client;
    type Output = DescribeTableOutput;
    type Error = DescribeTableError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for UpdateTableInputBuilder {
    const NAME: &'static str = "UpdateTable";
    type Client = Client;
    type Output = UpdateTableOutput;
    type Error = UpdateTableError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for DeleteTableInputBuilder {
    const NAME: &'static str = "DeleteTable";
    type Client = Client;
    type Output = DeleteTableOutput;
    type Error = DeleteTableError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for UpdateTimeToLiveInputBuilder {
    const NAME: &'static str = "UpdateTimeToLive";
    type Client = Client;
    type Output = UpdateTimeToLiveOutput;
    type Error = UpdateTimeToLiveError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for DescribeTimeToLiveInputBuilder {
    const NAME: &'static str = "DescribeTimeToLive";
    type Client = Client;
    type Output = DescribeTimeToLiveOutput;
    type Error = DescribeTimeToLiveError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for UpdateContinuousBackupsInputBuilder {
    const NAME: &'static str = "UpdateContinuousBackups";
    type Client = Client;
    type Output = UpdateContinuousBackupsOutput;
    type Error = UpdateContinuousBackupsError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}

impl Operation for DescribeContinuousBackupsInputBuilder {
    const NAME: &'static str = "DescribeContinuousBackups";
    type Client = Client;
    type Output = DescribeContinuousBackupsOutput;
    type Error = DescribeContinuousBackupsError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
}
