//! `db.sync_table(..)`: adds to an existing table the global indexes its
//! entities declare and it lacks, one `UpdateTable` at a time as DynamoDB
//! requires, each waited for until ACTIVE. The items already stored get
//! their keys in a new index from a backfill migration. Vector indexes
//! are added and removed to match the entities (`sync_vector`).

#[cfg(feature = "export")]
use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::update_table::UpdateTableInput;
use aws_sdk_dynamodb::types::{CreateGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate};

use crate::db::Db;
use crate::entity::{EntityMeta, IndexKind};
use crate::error::Error;
use crate::send::{send, To};
#[cfg(feature = "export")]
use crate::table::verify::{Difference, Remedy, SyncReport};
use crate::table::{
    attribute_definition, build_err, create_table, describe, invalid, wait_active, Plan,
};
#[cfg(feature = "export")]
use crate::table::{create_table_with, TableOptions};

#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
impl Db {
    /// Creates the table for `entities` when it is missing, or adds the
    /// global indexes they declare that it lacks (a local index cannot be
    /// added to an existing table: that is refused). Returns the names of
    /// the indexes added (global, then vector); [`Db::sync_table_with`]
    /// also names the vector indexes removed.
    ///
    /// Vector indexes follow the entities both ways: a missing one is
    /// added and one that no entity declares is removed, one at a time,
    /// each waited for until DynamoDB answers searches of it (an index
    /// reports `ACTIVE` before it does) or no longer lists it. On DynamoDB
    /// that takes minutes.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
    /// # #[pk("T#<id>")] #[sk("TASK")]
    /// # struct TaskV1 { id: String, owner: String }
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
    /// # #[pk("T#<id>")] #[sk("TASK")]
    /// # #[gsi("GSI1", pk = "OWNER#<owner>", sk = "T#<id>")]
    /// # struct Task { id: String, owner: String }
    /// use dynakey_runtime::Entity;
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("tasks");
    /// db.create_table(&[TaskV1::META]).await.unwrap();
    /// assert_eq!(db.sync_table(&[Task::META]).await.unwrap(), ["GSI1"]);
    /// assert!(db.sync_table(&[Task::META]).await.unwrap().is_empty());
    /// # });
    /// ```
    pub async fn sync_table(&self, entities: &[&EntityMeta]) -> Result<Vec<&'static str>, Error> {
        Ok(self.sync_indexes(entities).await?.0)
    }

    /// [`Db::sync_table`]'s work: the indexes added, and the vector
    /// indexes removed.
    async fn sync_indexes(
        &self,
        entities: &[&EntityMeta],
    ) -> Result<(Vec<&'static str>, Vec<String>), Error> {
        let plan = Plan::from_metas(entities)?;
        let Some(table) = describe(self.client(), self.table_name()).await? else {
            create_table(self.client(), self.table_name(), entities).await?;
            return Ok((Vec::new(), Vec::new()));
        };
        let to = To::table(self.client(), self.table_name());
        let has = |name: &str| {
            table
                .global_secondary_indexes()
                .iter()
                .any(|g| g.index_name() == Some(name))
                || table
                    .local_secondary_indexes()
                    .iter()
                    .any(|l| l.index_name() == Some(name))
        };
        let mut added = Vec::new();
        let pk = plan.pk.unwrap_or("pk");
        for (name, def) in &plan.indexes {
            if has(name) {
                continue;
            }
            if def.kind == IndexKind::Local {
                return Err(invalid(format!(
                    "local index {name} is missing from table {}: a local index can only be created with the table",
                    self.table_name()
                )));
            }
            let mut req = UpdateTableInput::builder().table_name(self.table_name());
            for (a, ty) in def.attrs() {
                req = req.attribute_definitions(attribute_definition(a, ty)?);
            }
            let create = CreateGlobalSecondaryIndexAction::builder()
                .index_name(*name)
                .set_key_schema(Some(def.key_schema(pk)?))
                .projection(plan.projection(name))
                .build()
                .map_err(build_err)?;
            let req = req.global_secondary_index_updates(
                GlobalSecondaryIndexUpdate::builder().create(create).build(),
            );
            send(&to, req).await?;
            wait_active(self.client(), self.table_name()).await?;
            added.push(*name);
        }
        let (vectors, removed) =
            super::sync_vector::sync_vectors(self, &plan, table.vector_indexes()).await?;
        added.extend(vectors);
        Ok((added, removed))
    }

    /// [`Db::sync_table`], then every setting of `options` DynamoDB
    /// changes on a live table: billing mode and capacity (table and each
    /// global index), table class, encryption, warm throughput, deletion
    /// protection (UpdateTable), tags (TagResource, UntagResource), the
    /// resource policy (PutResourcePolicy), and the stream, TTL and
    /// point-in-time recovery `create_table_with` turns on. It reads the
    /// table with [`Db::verify_table_with`] before and after: a change that
    /// did not take (a backend that accepts and ignores it) is reported in
    /// [`SyncReport::not_applied`], as is every difference only a new index
    /// or a new table fixes, and each change DynamoDB refuses, with its
    /// message. A missing table is created with the options.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::table::{verify::Difference, TableOptions};
    /// use dynakey_runtime::Entity;
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("notes");
    /// db.create_table(&[Note::META]).await.unwrap();
    /// let wanted = TableOptions::default().tag("team", "notes").deletion_protection();
    /// let before = db.verify_table_with(&[Note::META], &wanted).await.unwrap();
    /// assert_eq!(before.differences.len(), 2, "{before}"); // the tag, deletion protection
    /// let done = db.sync_table_with(&[Note::META], &wanted).await.unwrap();
    /// assert_eq!(done.applied.len(), 2);
    /// assert!(db.verify_table_with(&[Note::META], &wanted).await.unwrap().matches());
    /// # });
    /// ```
    #[cfg(feature = "export")]
    #[cfg_attr(docsrs, doc(cfg(all(feature = "migrate", feature = "export"))))]
    pub async fn sync_table_with(
        &self,
        entities: &[&EntityMeta],
        options: &TableOptions,
    ) -> Result<SyncReport, Error> {
        options.validate()?;
        let mut out = SyncReport::default();
        let before = self.verify_table_with(entities, options).await?;
        if before.differences.contains(&Difference::MissingTable) {
            create_table_with(self.client(), self.table_name(), entities, options).await?;
            out.applied = before.differences;
            return Ok(out);
        }
        (out.indexes_added, out.indexes_removed) = self.sync_indexes(entities).await?;
        let creatable = |d: &Difference| d.remedy() == Remedy::CreateTableWith;
        if before.differences.iter().any(creatable) {
            create_table_with(self.client(), self.table_name(), entities, options).await?;
        }
        let req = DescribeTableInput::builder().table_name(self.table_name());
        let table = send(&To::table(self.client(), self.table_name()), req)
            .await?
            .table
            .unwrap_or_else(|| aws_sdk_dynamodb::types::TableDescription::builder().build());
        let (created, rest): (Vec<Difference>, Vec<Difference>) = before
            .differences
            .into_iter()
            .filter(|d| !d.fixed_by_sync_table())
            .partition(creatable);
        out.applied.extend(created);
        self.fix_settings(&table, options, rest, &mut out).await?;
        // What still differs was not applied, whatever the call said.
        let after = self.verify_table_with(entities, options).await?;
        let (applied, stayed): (Vec<Difference>, Vec<Difference>) =
            std::mem::take(&mut out.applied)
                .into_iter()
                .partition(|d| !after.differences.contains(d));
        out.applied = applied;
        out.not_applied.extend(stayed.into_iter().map(|d| {
            (
                d,
                "the change was sent, but the table still differs (a backend that does not hold the setting)".to_owned(),
            )
        }));
        Ok(out)
    }
}
