//! Proof that the derives' output documents every public item it adds: this
//! module denies `missing_docs`, and its entities use every feature that
//! generates public items (table and index keys, a sort-key chain over text
//! and numbers, a sparse index, a version, TTL, a union, a table).
#![deny(missing_docs)]

use dynakey::{DynamoEntity, DynamoTable, DynamoUnion, DynamoValue};
use time::OffsetDateTime;

/// A task's state, stored by name and usable in keys.
#[derive(DynamoValue, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    /// Not started.
    Todo,
    /// Finished.
    Done,
}

/// A task of a project.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC_TASK")]
#[pk("PROJECT#<project>")]
#[sk("TASK#<state>#<due>#<n:d6>")]
#[gsi("GSI1", pk = "ASSIGNEE#<assignee>", sk = "<due>#<n:d6>", sparse)]
#[lsi("LSI1", sk = "TITLE#<title>")]
pub struct DocTask {
    /// The project.
    pub project: String,
    /// Its state.
    pub state: TaskState,
    /// When it is due.
    pub due: OffsetDateTime,
    /// Its number in the project.
    pub n: u32,
    /// Who works on it; `None` keeps it out of `GSI1`.
    pub assignee: Option<String>,
    /// Its title.
    pub title: String,
    /// Optimistic locking.
    #[dynamo(version)]
    pub version: u64,
    /// When TTL may remove it.
    #[dynamo(ttl)]
    pub expires_at: Option<OffsetDateTime>,
}

/// A project's profile.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "DOC_PROJECT")]
#[pk("PROJECT#<project>")]
#[sk("PROFILE")]
pub struct DocProject {
    /// The project.
    pub project: String,
    /// Its name.
    pub name: String,
}

/// What a project's partition holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum DocProjectItem {
    /// A task.
    Task(DocTask),
    /// The profile.
    Project(DocProject),
}

/// The table of both.
#[derive(DynamoTable)]
#[dynamo(entities(DocTask, DocProject))]
pub struct DocTable;
