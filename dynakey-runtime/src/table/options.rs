//! Settings of `create_table` beyond what the entities say: the stream.

use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};
use aws_sdk_dynamodb::Client;

use crate::changes::StreamView;
use crate::db::Db;
use crate::entity::EntityMeta;
use crate::error::Error;

/// Table settings for [`create_table_with`] and [`Db::create_table_with`]:
/// whether the table has a stream, and which images it carries.
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
pub struct TableOptions {
    /// The stream to enable, by view type; `None` leaves streams alone.
    /// Typed changes need [`StreamView::NewAndOldImages`] to say
    /// everything; the others give partial changes (see
    /// [`ChangeDecoder::allow_partial`](crate::changes::ChangeDecoder::allow_partial)).
    pub stream: Option<StreamView>,
}

impl TableOptions {
    /// With a stream of `view` (see the example on [`TableOptions`]).
    pub fn stream(mut self, view: StreamView) -> Self {
        self.stream = Some(view);
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
            .map_err(|e| Error::refused(format!("the stream setting could not be built: {e}")))
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
        let out = client
            .describe_table()
            .table_name(name)
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, 1))?;
        let current = out
            .table()
            .and_then(|t| t.stream_specification())
            .filter(|s| s.stream_enabled());
        match current {
            Some(s) if s.stream_view_type().map(|v| v.as_str()) == Some(view.as_str()) => Ok(()),
            Some(s) => Err(Error::refused(format!(
                "table {name} already has a {} stream; turn it off first to get a {view} one",
                s.stream_view_type().map_or("(unknown)", |v| v.as_str())
            ))),
            None => {
                client
                    .update_table()
                    .table_name(name)
                    .stream_specification(spec)
                    .send()
                    .await
                    .map_err(|e| Error::from_sdk(e, 1))?;
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
