//! A request shown without sending it: [`Explain`] is the readable form of
//! any SDK input the runtime builds (operation, table, index, expressions
//! with their `#n` names and `:v` values, keys), and, for a write, its
//! estimated [`WriteCost`]. Every builder has `.explain()` and
//! `.to_input()` (the SDK's own input); the request recorder
//! (`spy`, feature `testing`) keeps the same form of what was sent.
//!
//! ```
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
//! # #[pk("USER#<user>")]
//! # #[sk("NOTE#<id:d6>")]
//! # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
//! # struct Note { user: String, id: u32, tag: Option<String>, text: String }
//! use dynakey_runtime::{Condition, Entity};
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let db = backend.db("notes");
//! let q = db.query(Note::pk("ann").unwrap()).filter(Condition::attr("text").eq("hi"));
//! let x = q.explain().unwrap();
//! assert_eq!(x.operation, "Query");
//! assert_eq!(x.key_condition.as_deref(), Some("#n0 = :v0"));
//! assert_eq!(x.names["#n0"], "pk");
//! println!("{x}");
//! ```

mod cost;
mod display;
mod sdk;

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;

pub use cost::{IndexChange, IndexWrite, VectorWrite, WriteCost};

/// The readable form of one request, or of one action of a transaction or
/// batch. `Display` prints it as text.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// let n = Note { user: "ann".into(), id: 1, tag: None, text: "hi".into() };
/// let x = db.transact_write().put(&n).delete(Note::key("ann", 2).unwrap()).explain().unwrap();
/// assert_eq!(x.operation, "TransactWriteItems");
/// assert_eq!(x.actions[1].operation, "Delete");
/// assert!(x.to_string().contains("Delete notes"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Explain {
    /// The operation: `PutItem`, `Query`, `TransactWriteItems`, or, for an
    /// action, `Put`, `Update`, `Delete`, `ConditionCheck`, `Get`.
    pub operation: String,
    /// The table (empty for a transaction, whose actions name theirs).
    pub table: String,
    /// The index a query or scan reads.
    pub index: Option<String>,
    /// The key of a get, update, delete or check.
    pub key: BTreeMap<String, AttributeValue>,
    /// The item of a put.
    pub item: BTreeMap<String, AttributeValue>,
    /// `KeyConditionExpression`.
    pub key_condition: Option<String>,
    /// `UpdateExpression`.
    pub update: Option<String>,
    /// `ConditionExpression`.
    pub condition: Option<String>,
    /// `FilterExpression`.
    pub filter: Option<String>,
    /// `ProjectionExpression`.
    pub projection: Option<String>,
    /// `ExpressionAttributeNames`: `#n0` → `pk`.
    pub names: BTreeMap<String, String>,
    /// `ExpressionAttributeValues`: `:v0` → the value.
    pub values: BTreeMap<String, AttributeValue>,
    /// Other settings that change what is read or returned, as
    /// `(name, value)`: `ScanIndexForward=false`, `Limit=20`, …
    pub options: Vec<(String, String)>,
    /// The actions of a transaction, or the requests of a batch.
    pub actions: Vec<Explain>,
    /// A write's estimated cost, when the builder knows the entity.
    pub cost: Option<WriteCost>,
}

impl Explain {
    pub(crate) fn new(operation: &str, table: &str) -> Self {
        Self {
            operation: operation.to_owned(),
            table: table.to_owned(),
            ..Self::default()
        }
    }

    /// This request's own expressions (not its actions').
    fn own(&self) -> impl Iterator<Item = &String> {
        [
            &self.key_condition,
            &self.update,
            &self.condition,
            &self.filter,
            &self.projection,
        ]
        .into_iter()
        .flatten()
    }

    pub(crate) fn with_cost(mut self, cost: WriteCost) -> Self {
        self.cost = Some(cost);
        self
    }

    /// Every expression of this request and its actions, joined by `"; "`:
    /// handy to assert on (`contains("attribute_not_exists")`).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let n = Note { user: "ann".into(), id: 1, text: "hi".into() };
    /// let x = db.put(&n).if_not_exists().explain().unwrap();
    /// assert_eq!(x.expressions(), "attribute_not_exists(#n0)");
    /// ```
    pub fn expressions(&self) -> String {
        let mut parts: Vec<String> = self.own().cloned().collect();
        parts.extend(
            self.actions
                .iter()
                .map(Explain::expressions)
                .filter(|s| !s.is_empty()),
        );
        parts.join("; ")
    }

    /// The expressions with every `#n` and `:v` placeholder replaced by
    /// the name or value it stands for (values in DynamoDB JSON-like text).
    /// For reading only: the request itself always sends placeholders.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let x = db.query(Note::pk("ann").unwrap()).explain().unwrap();
    /// assert!(x.resolved().starts_with("pk = \"USER#ann\""));
    /// ```
    pub fn resolved(&self) -> String {
        let mut parts: Vec<String> = self
            .own()
            .map(|e| display::resolve(e, &self.names, &self.values))
            .collect();
        parts.extend(
            self.actions
                .iter()
                .map(Explain::resolved)
                .filter(|s| !s.is_empty()),
        );
        parts.join("; ")
    }
}
