//! The calls behind the settings `verify_table` reads beyond
//! DescribeTable (tags, the resource policy), and the step that runs every
//! comparison of [`live`](super::live) on what they answer.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::get_resource_policy::builders::GetResourcePolicyInputBuilder;
use aws_sdk_dynamodb::operation::get_resource_policy::GetResourcePolicyInput;
use aws_sdk_dynamodb::operation::list_tags_of_resource::ListTagsOfResourceInput;
use aws_sdk_dynamodb::types::TableDescription;

use super::live::{
    encryption_difference, live_encryption, policy_difference, tag_differences,
    throughput_differences, warm_difference,
};
use super::TableReport;
use crate::db::Db;
use crate::error::Error;
use crate::send::{send_or_none, send_then, Operation, To};
use crate::table::apply::unsupported;
use crate::table::TableOptions;

impl Db {
    /// Every setting of this module that the options name: from
    /// DescribeTable's answer `t`, then tags and the resource policy (what
    /// the backend cannot answer is noted in `report.unchecked`).
    pub(super) async fn verify_live_settings(
        &self,
        t: &TableDescription,
        options: &TableOptions,
        report: &mut TableReport,
    ) -> Result<(), Error> {
        let (sse, note) = encryption_difference(options.encryption.as_ref(), live_encryption(t));
        report.differences.extend(sse);
        report.unchecked.extend(note);
        if options.warm_throughput.is_some() && t.warm_throughput().is_none() {
            report
                .unchecked
                .push("warm throughput: DescribeTable reports none on this backend".into());
        } else {
            report.differences.extend(warm_difference(
                options.warm_throughput,
                t.warm_throughput(),
            ));
        }
        let (capacity, unknown) = throughput_differences(t, options.billing);
        report.differences.extend(capacity);
        report.unchecked.extend(unknown);
        let Some(arn) = t.table_arn() else {
            if !options.tags.is_empty() || options.resource_policy.is_some() {
                report
                    .unchecked
                    .push("tags and resource policy: DescribeTable gave no table ARN".into());
            }
            return Ok(());
        };
        if !options.tags.is_empty() {
            match self.live_tags(arn).await {
                Ok(found) => report
                    .differences
                    .extend(tag_differences(&options.tags, &found)),
                Err(Some(e)) => return Err(e),
                Err(None) => report
                    .unchecked
                    .push("tags: the backend has no ListTagsOfResource".into()),
            }
        }
        if let Some(want) = &options.resource_policy {
            match self.live_policy(arn).await {
                Ok(found) => report
                    .differences
                    .extend(policy_difference(Some(want), found.as_deref())),
                Err(Some(e)) => return Err(e),
                Err(None) => report
                    .unchecked
                    .push("resource policy: the backend has no GetResourcePolicy".into()),
            }
        }
        Ok(())
    }

    /// Every tag of resource `arn` (`Err(None)`: the backend lacks the call).
    pub(crate) async fn live_tags(
        &self,
        arn: &str,
    ) -> Result<Vec<(String, String)>, Option<Error>> {
        let to = To::table(self.client(), self.table_name());
        let mut out = Vec::new();
        let mut token = None;
        loop {
            let req = ListTagsOfResourceInput::builder()
                .resource_arn(arn)
                .set_next_token(token);
            let page = send_or_none(&to, req, |e| unsupported(e.code()))
                .await
                .map_err(Some)?
                .ok_or(None)?;
            out.extend(
                page.tags()
                    .iter()
                    .map(|t| (t.key().to_owned(), t.value().to_owned())),
            );
            token = page.next_token().map(str::to_owned);
            if token.is_none() {
                return Ok(out);
            }
        }
    }

    /// The resource policy of `arn`, `None` when it has none (`Err(None)`:
    /// the backend lacks the call).
    pub(crate) async fn live_policy(&self, arn: &str) -> Result<Option<String>, Option<Error>> {
        let to = To::table(self.client(), self.table_name());
        let req = GetResourcePolicyInput::builder().resource_arn(arn);
        // `Some(policy)`: the backend answered (`None`: no policy).
        let answered = send_then(&to, req, |sent, attempts| match sent {
            Ok(out) => Ok(Some(out.policy)),
            Err(e) if e.code() == Some("PolicyNotFoundException") => Ok(Some(None)),
            Err(e) if unsupported(e.code()) => Ok(None),
            Err(e) => Err(GetResourcePolicyInputBuilder::error(e, attempts)),
        })
        .await
        .map_err(Some)?;
        answered.ok_or(None)
    }
}
