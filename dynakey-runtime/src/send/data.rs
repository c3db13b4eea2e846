//! The operations that read or write items: each asks for consumed
//! capacity and reports it; the single-item writes map a failed condition
//! to [`Error::ConditionFailed`] with the old item.

use std::future::Future;
use std::slice;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::batch_get_item::builders::BatchGetItemInputBuilder;
use aws_sdk_dynamodb::operation::batch_get_item::{BatchGetItemError, BatchGetItemOutput};
use aws_sdk_dynamodb::operation::batch_write_item::builders::BatchWriteItemInputBuilder;
use aws_sdk_dynamodb::operation::batch_write_item::{BatchWriteItemError, BatchWriteItemOutput};
use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemInputBuilder;
use aws_sdk_dynamodb::operation::delete_item::{DeleteItemError, DeleteItemOutput};
use aws_sdk_dynamodb::operation::get_item::builders::GetItemInputBuilder;
use aws_sdk_dynamodb::operation::get_item::{GetItemError, GetItemOutput};
use aws_sdk_dynamodb::operation::put_item::builders::PutItemInputBuilder;
use aws_sdk_dynamodb::operation::put_item::{PutItemError, PutItemOutput};
use aws_sdk_dynamodb::operation::query::builders::QueryInputBuilder;
use aws_sdk_dynamodb::operation::query::{QueryError, QueryOutput};
use aws_sdk_dynamodb::operation::scan::builders::ScanInputBuilder;
use aws_sdk_dynamodb::operation::scan::{ScanError, ScanOutput};
use aws_sdk_dynamodb::operation::search_vectors::builders::SearchVectorsInputBuilder;
use aws_sdk_dynamodb::operation::search_vectors::{SearchVectorsError, SearchVectorsOutput};
use aws_sdk_dynamodb::operation::transact_get_items::builders::TransactGetItemsInputBuilder;
use aws_sdk_dynamodb::operation::transact_get_items::{
    TransactGetItemsError, TransactGetItemsOutput,
};
use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsInputBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::{
    TransactWriteItemsError, TransactWriteItemsOutput,
};
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemInputBuilder;
use aws_sdk_dynamodb::operation::update_item::{UpdateItemError, UpdateItemOutput};
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;

use super::{Operation, Sent};
use crate::codec::Item;
use crate::error::Error;
use crate::write::non_empty;

/// The error of a put, update or delete: a failed condition (`failed`:
/// the old item, when it came back), else what [`Error::from_sdk`] makes
/// of it.
fn condition_failed<E>(
    failed: Option<Option<Item>>,
    e: SdkError<E, HttpResponse>,
    attempts: u32,
) -> Error
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    match failed {
        Some(item) => Error::ConditionFailed {
            item,
            source: Box::new(e),
        },
        None => Error::from_sdk(e, attempts),
    }
}

/// The capacity of an output that reports one figure.
fn one(c: Option<&ConsumedCapacity>) -> &[ConsumedCapacity] {
    c.map_or(&[], slice::from_ref)
}

impl Operation for SearchVectorsInputBuilder {
    const NAME: &'static str = "SearchVectors";
    type Client = Client;
    type Output = SearchVectorsOutput;
    type Error = SearchVectorsError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    // A search reports its capacity as vector bytes (`VectorCapacity`),
    // not as a `ConsumedCapacity`: asked for, and recorded as the span's
    // vector bytes, apart from read and write units.
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn vector_bytes(out: &SearchVectorsOutput) -> Option<f64> {
        out.consumed_capacity().map(crate::obs::vector_bytes)
    }
    fn index(&self) -> Option<&str> {
        self.get_index_name().as_deref()
    }
}

impl Operation for PutItemInputBuilder {
    const NAME: &'static str = "PutItem";
    type Client = Client;
    type Output = PutItemOutput;
    type Error = PutItemError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &PutItemOutput) -> &[ConsumedCapacity] {
        one(out.consumed_capacity())
    }
    fn error(e: SdkError<PutItemError, HttpResponse>, attempts: u32) -> Error {
        let failed = match e.as_service_error() {
            Some(PutItemError::ConditionalCheckFailedException(c)) => Some(c.item()),
            _ => None,
        };
        condition_failed(failed.map(|item| non_empty(item).cloned()), e, attempts)
    }
}

impl Operation for UpdateItemInputBuilder {
    const NAME: &'static str = "UpdateItem";
    type Client = Client;
    type Output = UpdateItemOutput;
    type Error = UpdateItemError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &UpdateItemOutput) -> &[ConsumedCapacity] {
        one(out.consumed_capacity())
    }
    fn error(e: SdkError<UpdateItemError, HttpResponse>, attempts: u32) -> Error {
        let failed = match e.as_service_error() {
            Some(UpdateItemError::ConditionalCheckFailedException(c)) => Some(c.item()),
            _ => None,
        };
        condition_failed(failed.map(|item| non_empty(item).cloned()), e, attempts)
    }
}

impl Operation for DeleteItemInputBuilder {
    const NAME: &'static str = "DeleteItem";
    type Client = Client;
    type Output = DeleteItemOutput;
    type Error = DeleteItemError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &DeleteItemOutput) -> &[ConsumedCapacity] {
        one(out.consumed_capacity())
    }
    fn error(e: SdkError<DeleteItemError, HttpResponse>, attempts: u32) -> Error {
        let failed = match e.as_service_error() {
            Some(DeleteItemError::ConditionalCheckFailedException(c)) => Some(c.item()),
            _ => None,
        };
        condition_failed(failed.map(|item| non_empty(item).cloned()), e, attempts)
    }
}

impl Operation for GetItemInputBuilder {
    const NAME: &'static str = "GetItem";
    type Client = Client;
    type Output = GetItemOutput;
    type Error = GetItemError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &GetItemOutput) -> &[ConsumedCapacity] {
        one(out.consumed_capacity())
    }
    fn counts(out: &GetItemOutput) -> Option<(i32, i32)> {
        Some((i32::from(out.item().is_some()), 1))
    }
}

impl Operation for QueryInputBuilder {
    const NAME: &'static str = "Query";
    type Client = Client;
    type Output = QueryOutput;
    type Error = QueryError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &QueryOutput) -> &[ConsumedCapacity] {
        one(out.consumed_capacity())
    }
    fn counts(out: &QueryOutput) -> Option<(i32, i32)> {
        Some((out.count, out.scanned_count))
    }
    fn index(&self) -> Option<&str> {
        self.get_index_name().as_deref()
    }
}

impl Operation for ScanInputBuilder {
    const NAME: &'static str = "Scan";
    type Client = Client;
    type Output = ScanOutput;
    type Error = ScanError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &ScanOutput) -> &[ConsumedCapacity] {
        one(out.consumed_capacity())
    }
    fn counts(out: &ScanOutput) -> Option<(i32, i32)> {
        Some((out.count, out.scanned_count))
    }
    fn index(&self) -> Option<&str> {
        self.get_index_name().as_deref()
    }
}

impl Operation for BatchGetItemInputBuilder {
    const NAME: &'static str = "BatchGetItem";
    type Client = Client;
    type Output = BatchGetItemOutput;
    type Error = BatchGetItemError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &BatchGetItemOutput) -> &[ConsumedCapacity] {
        out.consumed_capacity()
    }
    fn actions(&self) -> Option<usize> {
        let tables = self.get_request_items().as_ref()?;
        Some(tables.values().map(|ka| ka.keys().len()).sum())
    }
}

impl Operation for BatchWriteItemInputBuilder {
    const NAME: &'static str = "BatchWriteItem";
    type Client = Client;
    type Output = BatchWriteItemOutput;
    type Error = BatchWriteItemError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &BatchWriteItemOutput) -> &[ConsumedCapacity] {
        out.consumed_capacity()
    }
    fn actions(&self) -> Option<usize> {
        let tables = self.get_request_items().as_ref()?;
        Some(tables.values().map(Vec::len).sum())
    }
}

impl Operation for TransactGetItemsInputBuilder {
    const NAME: &'static str = "TransactGetItems";
    type Client = Client;
    type Output = TransactGetItemsOutput;
    type Error = TransactGetItemsError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &TransactGetItemsOutput) -> &[ConsumedCapacity] {
        out.consumed_capacity()
    }
    fn actions(&self) -> Option<usize> {
        self.get_transact_items().as_ref().map(Vec::len)
    }
}

impl Operation for TransactWriteItemsInputBuilder {
    const NAME: &'static str = "TransactWriteItems";
    type Client = Client;
    type Output = TransactWriteItemsOutput;
    type Error = TransactWriteItemsError;
    fn call(self, client: &Client) -> impl Future<Output = Sent<Self>> + Send {
        self.send_with(client)
    }
    fn ask_capacity(self, c: ReturnConsumedCapacity) -> Self {
        self.return_consumed_capacity(c)
    }
    fn consumed(out: &TransactWriteItemsOutput) -> &[ConsumedCapacity] {
        out.consumed_capacity()
    }
    fn actions(&self) -> Option<usize> {
        self.get_transact_items().as_ref().map(Vec::len)
    }
}
