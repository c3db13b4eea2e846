//! A table export written into a table: a production table's export loaded
//! into the embedded engine (`local::file`) to look at on a laptop, with
//! the design view's live view, or an incremental export applied on top.

use std::collections::HashSet;
use std::io::BufRead;

use aws_sdk_dynamodb::types::{DeleteRequest, PutRequest, WriteRequest};

use super::export::{ExportError, ExportReader};
use super::order::item_identity;
use super::record::Operation;
use crate::db::Db;
use crate::error::{Error, RefusedReason};

/// Requests sent per batch write (it splits them into calls of 25).
const BATCH: usize = 100;

/// What [`ExportReader::load_into`] did: the items it wrote and deleted,
/// and every line it could not read (nothing else is skipped).
///
/// ```
/// let load = dynakey_runtime::changes::ExportLoad::default();
/// assert!(load.is_complete() && load.puts == 0);
/// ```
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ExportLoad {
    /// Items written (a full export's items, an incremental export's new
    /// images).
    pub puts: usize,
    /// Items deleted (an incremental export's removals).
    pub deletes: usize,
    /// The lines that could not be read, each with its line number; an I/O
    /// error, if any, is the last and ended the read.
    pub errors: Vec<ExportError>,
}

impl ExportLoad {
    /// Whether every line was read and written (see the examples on
    /// [`ExportLoad`] and [`ExportReader::load_into`]).
    pub fn is_complete(&self) -> bool {
        self.errors.is_empty()
    }
}

impl<R: BufRead> ExportReader<R> {
    /// Writes the export into `db`'s table (which must exist, with the
    /// production table's key schema: `db.create_table(design.metas())` or
    /// `db.create_table(Table::ENTITIES)`): a full export's items are put,
    /// an incremental export's changes applied (its new image put, a
    /// removal's key deleted). Lines that cannot be read are collected in
    /// [`ExportLoad::errors`] and the load goes on; a write DynamoDB
    /// refuses is the error. Items are written as they are, in batches of
    /// 100 (the reader is read synchronously between batches).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "BOOK", discriminator_attr = "entity")]
    /// # #[pk("BOOK#<id>")]
    /// # struct Book { id: u32, title: String }
    /// use dynakey_runtime::changes::ExportReader;
    /// use dynakey_runtime::Entity;
    /// let local = dynakey_runtime::local::memory().unwrap(); // or local::file("prod.db")
    /// let db = local.db("books");
    /// db.create_table(&[Book::META]).await.unwrap();
    /// let full = r#"{"Item":{"pk":{"S":"BOOK#1"},"entity":{"S":"BOOK"},"id":{"N":"1"},"title":{"S":"One"}}}
    /// {"Item":{"pk":{"S":"BOOK#2"},"entity":{"S":"BOOK"},"id":{"N":"2"},"title":{"S":"Two"}}}
    /// {"Item":"truncated"#;
    /// let load = ExportReader::new(full.as_bytes()).load_into(&db).await.unwrap();
    /// assert_eq!((load.puts, load.errors.len(), load.errors[0].line), (2, 1, 3));
    /// let book = db.get(Book::key(2).unwrap()).await.unwrap().unwrap();
    /// assert_eq!(book.title, "Two");
    /// # });
    /// ```
    pub async fn load_into(self, db: &Db) -> Result<ExportLoad, Error> {
        let mut out = ExportLoad::default();
        let mut pending: Vec<WriteRequest> = Vec::new();
        let mut keys: HashSet<String> = HashSet::new();
        let built = |e: aws_sdk_dynamodb::error::BuildError| {
            Error::refused(
                RefusedReason::Unbuildable,
                format!("an export's item could not be sent: {e}"),
            )
        };
        for line in self.records_numbered() {
            let (line, record) = match line {
                Ok(x) => x,
                Err(e) => {
                    out.errors.push(e);
                    continue;
                }
            };
            let request = match (record.op, record.new) {
                (Operation::Insert | Operation::Modify, Some(item)) => {
                    let put = PutRequest::builder().set_item(Some(item)).build();
                    WriteRequest::builder().put_request(put.map_err(built)?)
                }
                (Operation::Remove | Operation::Expire, _) => {
                    let delete = DeleteRequest::builder()
                        .set_key(Some(record.keys.clone()))
                        .build();
                    WriteRequest::builder().delete_request(delete.map_err(built)?)
                }
                // The reader gives every insert and modify its new image;
                // should one come without, it is reported, not guessed at.
                (_, None) => {
                    out.errors.push(ExportError::unapplied(line));
                    continue;
                }
            };
            // One call may not hold one key twice: send what is pending
            // before the key comes again.
            let id = item_identity(None, &record.keys);
            if pending.len() == BATCH || keys.contains(&id) {
                flush(db, &mut pending).await?;
                keys.clear();
            }
            keys.insert(id);
            match record.op {
                Operation::Insert | Operation::Modify => out.puts += 1,
                Operation::Remove | Operation::Expire => out.deletes += 1,
            }
            pending.push(request.build());
        }
        flush(db, &mut pending).await?;
        Ok(out)
    }
}

async fn flush(db: &Db, pending: &mut Vec<WriteRequest>) -> Result<(), Error> {
    if pending.is_empty() {
        return Ok(());
    }
    db.batch_write()
        .requests(std::mem::take(pending))
        .send()
        .await
        .map(|_| ())
}
