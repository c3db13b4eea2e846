//! The Streams API's operations (the change feed): through the Streams
//! client, with no capacity to ask for; each gets its span, and its
//! `LimitExceededException` is a throttle (`Error::from_streams_sdk`).

use std::future::Future;

use aws_sdk_dynamodbstreams::operation::describe_stream::builders::DescribeStreamInputBuilder;
use aws_sdk_dynamodbstreams::operation::describe_stream::{
    DescribeStreamError, DescribeStreamOutput,
};
use aws_sdk_dynamodbstreams::operation::get_records::builders::GetRecordsInputBuilder;
use aws_sdk_dynamodbstreams::operation::get_records::{GetRecordsError, GetRecordsOutput};
use aws_sdk_dynamodbstreams::operation::get_shard_iterator::builders::GetShardIteratorInputBuilder;
use aws_sdk_dynamodbstreams::operation::get_shard_iterator::{
    GetShardIteratorError, GetShardIteratorOutput,
};
use aws_sdk_dynamodbstreams::Client as StreamsClient;

use aws_sdk_dynamodbstreams::error::SdkError;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;

use super::{Operation, Sent, To};
use crate::error::Error;

impl<'a> To<'a, StreamsClient> {
    /// A request of the stream of table `table` through `client`.
    pub(crate) fn stream(client: &'a StreamsClient, table: &'a str) -> Self {
        Self::asking_nothing(client, table, client.config().retry_config())
    }
}

impl Operation for DescribeStreamInputBuilder {
    const NAME: &'static str = "DescribeStream";
    type Client = StreamsClient;
    type Output = DescribeStreamOutput;
    type Error = DescribeStreamError;
    fn call(self, client: &StreamsClient) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn error(e: SdkError<Self::Error, HttpResponse>, attempts: u32) -> Error {
        Error::from_streams_sdk(e, attempts)
    }
}

impl Operation for GetShardIteratorInputBuilder {
    const NAME: &'static str = "GetShardIterator";
    type Client = StreamsClient;
    type Output = GetShardIteratorOutput;
    type Error = GetShardIteratorError;
    fn call(self, client: &StreamsClient) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn error(e: SdkError<Self::Error, HttpResponse>, attempts: u32) -> Error {
        Error::from_streams_sdk(e, attempts)
    }
}

impl Operation for GetRecordsInputBuilder {
    const NAME: &'static str = "GetRecords";
    type Client = StreamsClient;
    type Output = GetRecordsOutput;
    type Error = GetRecordsError;
    fn call(self, client: &StreamsClient) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn error(e: SdkError<Self::Error, HttpResponse>, attempts: u32) -> Error {
        Error::from_streams_sdk(e, attempts)
    }
}
