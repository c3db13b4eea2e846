//! Pages, and where each lane of a read resumes (what a page's cursor
//! holds, `query/cursor.rs`).

use crate::codec::Item;

/// One page of results and the cursor of the next (`None` on the last).
///
/// A page holds `page_size` items unless the read ends (or reaches its
/// `limit`) first, and its cursor resumes right after its last item. The
/// last page may be empty when the one before it was exactly full: only a
/// read tells that nothing follows.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32 }
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 1..=5 {
///     db.put(&Note { user: "ann".into(), id }).await.unwrap();
/// }
/// let q = db.query(Note::pk("ann").unwrap()).page_size(2);
/// let first = q.page(None).await.unwrap();
/// assert_eq!(first.items.len(), 2);
/// assert!(!first.is_last());
/// let second = q.page(first.cursor.as_deref()).await.unwrap();
/// assert_eq!(second.items[0].id, 3);
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Page<T> {
    /// The items.
    pub items: Vec<T>,
    /// An opaque cursor for the next `page(..)` of the same read; `None`
    /// when nothing follows.
    pub cursor: Option<String>,
}

impl<T> Page<T> {
    /// Whether this is the last page.
    pub fn is_last(&self) -> bool {
        self.cursor.is_none()
    }
}

/// Where one partition or segment of a read resumes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Position {
    /// After this key (`ExclusiveStartKey`); `None` at the start.
    At(Option<Item>),
    /// Nothing is left.
    Done,
}
