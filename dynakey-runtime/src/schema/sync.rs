//! `db.sync_table(..)`: adds to an existing table the global indexes its
//! entities declare and it lacks, one `UpdateTable` at a time as DynamoDB
//! requires, each waited for until ACTIVE. The items already stored get
//! their keys in a new index from a backfill migration.

use aws_sdk_dynamodb::types::{CreateGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate};

use crate::db::Db;
use crate::entity::{EntityMeta, IndexKind};
use crate::error::Error;
use crate::table::{attribute_definition, build_err, create_table, invalid, wait_active, Plan};

#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
impl Db {
    /// Creates the table for `entities` when it is missing, or adds the
    /// global indexes they declare that it lacks (a local index cannot be
    /// added to an existing table: that is refused). Returns the names of
    /// the indexes added.
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
        let plan = Plan::from_metas(entities)?;
        let described = self
            .client()
            .describe_table()
            .table_name(self.table_name())
            .send()
            .await;
        let table = match described {
            Ok(out) => out
                .table
                .unwrap_or_else(|| aws_sdk_dynamodb::types::TableDescription::builder().build()),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|s| s.is_resource_not_found_exception()) =>
            {
                create_table(self.client(), self.table_name(), entities).await?;
                return Ok(Vec::new());
            }
            Err(e) => return Err(Error::from_sdk(e, 1)),
        };
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
            let mut req = self.client().update_table().table_name(self.table_name());
            for (a, ty) in def.attrs() {
                req = req.attribute_definitions(attribute_definition(a, ty)?);
            }
            let create = CreateGlobalSecondaryIndexAction::builder()
                .index_name(*name)
                .set_key_schema(Some(def.key_schema(pk)?))
                .projection(plan.projection(name))
                .build()
                .map_err(build_err)?;
            req.global_secondary_index_updates(
                GlobalSecondaryIndexUpdate::builder().create(create).build(),
            )
            .send()
            .await
            .map_err(|e| Error::from_sdk(e, 1))?;
            wait_active(self.client(), self.table_name()).await?;
            added.push(*name);
        }
        Ok(added)
    }
}
