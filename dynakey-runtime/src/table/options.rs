//! Settings of `create_table` beyond what the entities say: the stream,
//! and the production settings of [`settings`](super::settings).

use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::update_table::UpdateTableInput;
use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};
use aws_sdk_dynamodb::Client;

use super::settings::{Billing, Encryption, PointInTimeRecovery, TableClass, WarmThroughput};

use crate::db::Db;
use crate::entity::EntityMeta;
use crate::error::change::StreamView;
use crate::error::{Error, RefusedReason};
use crate::send::{send, To};

/// Table settings for [`create_table_with`] and [`Db::create_table_with`],
/// and for the exports ([`export`](super::export)): whether the table has a
/// stream and which images it carries, and what the entities cannot know
/// (billing and capacity, warm throughput, point-in-time recovery,
/// deletion protection, table class, encryption, tags, a resource policy).
/// One value describes the test table and the production one.
///
/// ```
/// use dynakey_runtime::changes::StreamView;
/// use dynakey_runtime::table::TableOptions;
/// let o = TableOptions::default().stream(StreamView::NewAndOldImages);
/// assert_eq!(o.stream, Some(StreamView::NewAndOldImages));
/// assert_eq!(TableOptions::default().stream, None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
#[must_use]
pub struct TableOptions {
    /// The stream to enable, by view type; `None` leaves streams alone.
    /// Typed changes need [`StreamView::NewAndOldImages`] to say
    /// everything; the others give partial changes (see
    /// [`ChangeDecoder::allow_partial`](crate::changes::ChangeDecoder::allow_partial)).
    pub stream: Option<StreamView>,
    /// On-demand (the default) or provisioned, with its units.
    pub billing: Billing,
    /// Pre-warmed throughput of the table.
    pub warm_throughput: Option<WarmThroughput>,
    /// Point-in-time recovery (continuous backups); `None`: off.
    pub point_in_time_recovery: Option<PointInTimeRecovery>,
    /// Whether the table refuses `DeleteTable`.
    pub deletion_protection: bool,
    /// The table class; `None`: DynamoDB's default (`STANDARD`).
    pub table_class: Option<TableClass>,
    /// Encryption at rest; `None`: DynamoDB's default (a key AWS owns).
    pub encryption: Option<Encryption>,
    /// Tags, in order (keys unique).
    pub tags: Vec<(String, String)>,
    /// A resource-based policy: a JSON policy document.
    pub resource_policy: Option<String>,
}

impl TableOptions {
    /// With a stream of `view` (see the example on [`TableOptions`]).
    pub fn stream(mut self, view: StreamView) -> Self {
        self.stream = Some(view);
        self
    }

    /// With `billing` (see [`Billing`]).
    pub fn billing(mut self, billing: Billing) -> Self {
        self.billing = billing;
        self
    }

    /// With pre-warmed throughput (see [`WarmThroughput`]).
    pub fn warm_throughput(mut self, warm: WarmThroughput) -> Self {
        self.warm_throughput = Some(warm);
        self
    }

    /// With point-in-time recovery (see [`PointInTimeRecovery`]).
    pub fn point_in_time_recovery(mut self, pitr: PointInTimeRecovery) -> Self {
        self.point_in_time_recovery = Some(pitr);
        self
    }

    /// With deletion protection on.
    ///
    /// ```
    /// let o = dynakey_runtime::table::TableOptions::default().deletion_protection();
    /// assert!(o.deletion_protection);
    /// ```
    pub fn deletion_protection(mut self) -> Self {
        self.deletion_protection = true;
        self
    }

    /// With table class `class` (see [`TableClass`]).
    pub fn table_class(mut self, class: TableClass) -> Self {
        self.table_class = Some(class);
        self
    }

    /// With encryption at rest `sse` (see [`Encryption`]).
    pub fn encryption(mut self, sse: Encryption) -> Self {
        self.encryption = Some(sse);
        self
    }

    /// With tag `key` = `value` (checked by [`TableOptions::validate`]).
    ///
    /// ```
    /// let o = dynakey_runtime::table::TableOptions::default().tag("team", "orders").tag("team", "x");
    /// assert!(o.validate().unwrap_err().to_string().contains("given twice"));
    /// ```
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.tags.push((key.into(), value.into()));
        self
    }

    /// With a resource-based policy, a JSON policy document.
    ///
    /// ```
    /// let o = dynakey_runtime::table::TableOptions::default().resource_policy("not json");
    /// assert!(o.validate().unwrap_err().to_string().contains("resource_policy"));
    /// ```
    pub fn resource_policy(mut self, policy: impl Into<String>) -> Self {
        self.resource_policy = Some(policy.into());
        self
    }

    pub(super) fn stream_specification(&self) -> Result<Option<StreamSpecification>, Error> {
        let Some(view) = self.stream else {
            return Ok(None);
        };
        StreamSpecification::builder()
            .stream_enabled(true)
            .stream_view_type(StreamViewType::from(view.as_str()))
            .build()
            .map(Some)
            .map_err(|e| {
                Error::refused(
                    RefusedReason::Unbuildable,
                    format!("the stream setting could not be built: {e}"),
                )
            })
    }

    /// On a table that already existed: enables the stream if it is off;
    /// refuses if it is on with another view type (DynamoDB changes a view
    /// type only by turning the stream off, which ends the old stream).
    pub(super) async fn ensure_stream(&self, client: &Client, name: &str) -> Result<(), Error> {
        let Some(spec) = self.stream_specification()? else {
            return Ok(());
        };
        let Some(view) = self.stream else {
            return Ok(());
        };
        let to = To::table(client, name);
        let out = send(&to, DescribeTableInput::builder().table_name(name)).await?;
        let current = out
            .table()
            .and_then(|t| t.stream_specification())
            .filter(|s| s.stream_enabled());
        match current {
            Some(s) if s.stream_view_type().map(|v| v.as_str()) == Some(view.as_str()) => Ok(()),
            Some(s) => Err(Error::refused(
                RefusedReason::TableDefinition,
                format!(
                    "table {name} already has a {} stream; turn it off first to get a {view} one",
                    s.stream_view_type().map_or("(unknown)", |v| v.as_str())
                ),
            )),
            None => {
                let req = UpdateTableInput::builder()
                    .table_name(name)
                    .stream_specification(spec);
                send(&to, req).await?;
                super::wait_active(client, name).await
            }
        }
    }
}

/// [`create_table`](super::create_table) with [`TableOptions`]: the same
/// table, plus a stream when the options ask for one (enabled on a table
/// that already existed without one).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # struct Note { user: String }
/// use dynakey_runtime::changes::StreamView;
/// use dynakey_runtime::table::{create_table, create_table_with, TableOptions};
/// use dynakey_runtime::Entity;
/// let local = dynakey_runtime::local::memory().unwrap();
/// create_table(local.client(), "notes", &[Note::META]).await.unwrap();  // no stream
/// let with = TableOptions::default().stream(StreamView::NewAndOldImages);
/// create_table_with(local.client(), "notes", &[Note::META], &with).await.unwrap(); // now one
/// let t = local.client().describe_table().table_name("notes").send().await.unwrap();
/// assert!(t.table().unwrap().latest_stream_arn().is_some());
/// let other = TableOptions::default().stream(StreamView::KeysOnly);
/// assert!(create_table_with(local.client(), "notes", &[Note::META], &other).await.is_err());
/// # });
/// ```
pub async fn create_table_with(
    client: &Client,
    name: &str,
    metas: &[&EntityMeta],
    options: &TableOptions,
) -> Result<(), Error> {
    super::create(client, name, metas, options).await
}

impl Db {
    /// Creates the table for these entities; see [`create_table`](super::create_table).
    pub async fn create_table(&self, metas: &[&EntityMeta]) -> Result<(), Error> {
        super::create_table(&self.client, &self.table, metas).await
    }

    /// Creates the table for these entities with `options`; see
    /// [`create_table_with`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::StreamView;
    /// use dynakey_runtime::table::TableOptions;
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// db.create_table_with(&[Note::META], TableOptions::default().stream(StreamView::NewImage))
    ///     .await
    ///     .unwrap();
    /// # });
    /// ```
    pub async fn create_table_with(
        &self,
        metas: &[&EntityMeta],
        options: TableOptions,
    ) -> Result<(), Error> {
        create_table_with(&self.client, &self.table, metas, &options).await
    }
}
