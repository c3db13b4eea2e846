//! The work item of the `native_keys` recipe, declared with the designs
//! that draw it.

use dynakey::DynamoEntity;
use uuid::Uuid;

use crate::seeds::WorkStatus;

/// The work item of the `native_keys` recipe: a native index in place of
/// GSI1, the same stored items (same discriminator, keys and fields) as
/// seed 000's [`crate::seeds::WorkItem`], read by their own attributes.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "WORK_ITEM")]
#[pk("ITEM#<id>")]
#[sk("DATA")]
#[gsi("ByOwner", pk(owner), sk(status, id))]
pub struct WorkItem {
    pub id: Uuid,
    pub owner: String,
    pub status: WorkStatus,
}
