//! The table as infrastructure: a CloudFormation `AWS::DynamoDB::Table`
//! (JSON or YAML) and a Terraform `aws_dynamodb_table` (`.tf.json`) drawn
//! from the entities, with what they cannot know from [`TableOptions`].
//!
//! Both hold what `create_table_with` creates from the same arguments: the
//! key schema and every key attribute with its type, every global index
//! (template keys and native multi-attribute keys, in key-schema order)
//! and local index with its projection, the TTL attribute, the stream when
//! the options ask for one, and billing, warm throughput, point-in-time
//! recovery, deletion protection, table class, encryption, tags and the
//! resource policy. CloudFormation holds the vector indexes too
//! (`VectorIndexes`); Terraform refuses a table with one, as long as the
//! AWS provider's `aws_dynamodb_table` has no documented argument for them.
//!
//! What a stack varies (the table name, billing numbers, deletion
//! protection, point-in-time recovery) is a CloudFormation parameter or a
//! Terraform variable whose default is the code's value. A declared use
//! of the table ([`iam::Access`](super::iam::Access)) adds its
//! least-privilege policy beside the table (`with_access`).
//!
//! ```
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
//! # #[pk("USER#<user>")] #[sk("NOTE#<id:d6>")]
//! # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>")]
//! # struct Note { user: String, id: u32, tag: String }
//! use dynakey_runtime::table::{export, TableOptions};
//! use dynakey_runtime::Entity;
//! let options = TableOptions::default().deletion_protection().tag("team", "notes");
//! let cfn = export::cloudformation("notes", &[Note::META], &options).unwrap();
//! assert_eq!(cfn.logical_id(), "NotesTable");
//! // A stack's settings are parameters whose defaults are the code's values.
//! let t = cfn.template();
//! assert_eq!(t["Resources"]["NotesTable"]["Properties"]["DeletionProtectionEnabled"]["Ref"], "DeletionProtection");
//! assert_eq!(t["Parameters"]["DeletionProtection"]["Default"], "true");
//! assert!(cfn.yaml().contains("IndexName: \"GSI1\""));
//! let tf = export::terraform("notes", &[Note::META], &options).unwrap();
//! assert!(tf.json().contains("\"aws_dynamodb_table\""));
//! ```

mod access;
mod cloudformation;
mod params;
mod terraform;
mod yaml;

pub use super::golden::check_file;
pub use cloudformation::{cloudformation, CloudFormation};
pub use terraform::{terraform, Terraform};

use serde_json::Value;

use super::{invalid, IndexDef, Plan, TableOptions};
use crate::entity::{EntityMeta, IndexKind, KeyAttrType};
use crate::error::Error;

/// What both exports write, in the order they write it.
pub(super) struct Model<'a> {
    pub(super) name: &'a str,
    pub(super) pk: &'static str,
    pub(super) sk: Option<&'static str>,
    pub(super) attrs: Vec<(&'static str, KeyAttrType)>,
    /// Global then local indexes, each by name.
    pub(super) globals: Vec<Index>,
    pub(super) locals: Vec<Index>,
    pub(super) ttl: Option<&'static str>,
    /// The vector indexes, by name.
    pub(super) vectors: Vec<crate::table::vector::VectorDef>,
    pub(super) options: &'a TableOptions,
}

/// One index: its name, key schema (`(attribute, "HASH" | "RANGE")`) and
/// projection (`None`: ALL; else the non-key attributes of INCLUDE).
pub(super) struct Index {
    pub(super) name: &'static str,
    pub(super) keys: Vec<(&'static str, &'static str)>,
    pub(super) include: Option<Vec<&'static str>>,
}

impl Index {
    fn of(name: &'static str, def: &IndexDef, pk: &'static str, plan: &Plan) -> Self {
        let hash: Vec<&'static str> = match def.kind {
            IndexKind::Global => def.hash.iter().map(|(a, _)| *a).collect(),
            IndexKind::Local => vec![pk],
        };
        let keys = hash
            .into_iter()
            .map(|a| (a, "HASH"))
            .chain(def.range.iter().map(|(a, _)| (*a, "RANGE")))
            .collect();
        Index {
            name,
            keys,
            include: plan.projections.get(name).cloned().flatten(),
        }
    }

    /// `ALL` or `INCLUDE` (create_table writes a keys-only index as
    /// INCLUDE of the discriminator, so reads can tell the entity).
    pub(super) fn projection_type(&self) -> &'static str {
        if self.include.is_some() {
            "INCLUDE"
        } else {
            "ALL"
        }
    }
}

/// A table name DynamoDB accepts: 3 to 255 of `[A-Za-z0-9_.-]`.
fn check_name(name: &str) -> Result<(), Error> {
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if !(3..=255).contains(&name.len()) || !ok_chars {
        return Err(invalid(format!(
            "table name {name:?}: DynamoDB takes 3 to 255 letters, digits, `_`, `.` and `-`"
        )));
    }
    Ok(())
}

impl<'a> Model<'a> {
    pub(super) fn new(
        name: &'a str,
        metas: &[&EntityMeta],
        options: &'a TableOptions,
    ) -> Result<Self, Error> {
        check_name(name)?;
        options.validate()?;
        let plan = Plan::from_metas(metas)?;
        crate::table::vector::check_billing(&plan.vectors, &options.billing)?;
        let pk = plan.pk.unwrap_or("pk");
        let mut globals = Vec::new();
        let mut locals = Vec::new();
        for (ix, def) in &plan.indexes {
            let index = Index::of(ix, def, pk, &plan);
            match def.kind {
                IndexKind::Global => globals.push(index),
                IndexKind::Local if def.range.is_empty() => {
                    return Err(invalid(format!("local index {ix} has no sort key")))
                }
                IndexKind::Local => locals.push(index),
            }
        }
        Ok(Model {
            name,
            pk,
            sk: plan.sk.flatten(),
            attrs: plan.attrs.clone(),
            globals,
            locals,
            ttl: plan.ttl,
            vectors: plan.vectors.values().cloned().collect(),
            options,
        })
    }

    /// The name as an identifier: letters and digits in CamelCase for
    /// CloudFormation (`order-events.v2` → `OrderEventsV2`).
    pub(super) fn camel(&self) -> String {
        let mut out = String::new();
        for part in self.name.split(|c: char| !c.is_ascii_alphanumeric()) {
            let mut cs = part.chars();
            if let Some(c) = cs.next() {
                out.push(c.to_ascii_uppercase());
                out.extend(cs);
            }
        }
        if out.starts_with(|c: char| c.is_ascii_digit()) {
            out.insert(0, 'T');
        }
        out
    }

    /// The name as a Terraform resource name (`[A-Za-z_][A-Za-z0-9_-]*`).
    pub(super) fn snake(&self) -> String {
        let mut out: String = self
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.insert(0, '_');
        }
        out
    }
}

/// A JSON document as text, two-space indented, with a final newline.
pub(super) fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("a JSON value always serializes");
    s.push('\n');
    s
}
