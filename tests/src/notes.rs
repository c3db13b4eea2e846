//! The small entities the backend tests and benches use: notes and a
//! profile sharing a user's partition, and a sparse index by tag.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::{DynamoEntity, DynamoUnion, Item};

/// A note: `USER#<user>` / `NOTE#<id:d6>`, and a sparse `GSI1` by tag
/// (`TAG#<tag>` / `NOTE#<id:d6>`).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "NOTE", discriminator_attr = "entity")]
#[pk("USER#<user>")]
#[sk("NOTE#<id:d6>")]
#[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
pub struct Note {
    /// Owner.
    pub user: String,
    /// Number, zero-padded to 6 digits in keys.
    pub id: u32,
    /// Optional tag (the index input).
    pub tag: Option<String>,
    /// Body.
    pub text: String,
}

/// A profile: `USER#<user>` / `PROFILE`, in the notes' partition.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PROFILE", discriminator_attr = "entity")]
#[pk("USER#<user>")]
#[sk("PROFILE")]
pub struct Profile {
    /// Owner.
    pub user: String,
    /// Display name.
    pub name: String,
}

/// What a user's partition holds.
#[derive(DynamoUnion, Debug, Clone, PartialEq)]
pub enum UserItem {
    /// A note.
    Note(Note),
    /// The profile.
    Profile(Profile),
}

/// An item of no known entity, for tests of unknown discriminators.
pub fn stray_item(user: &str, sk: &str) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), AttributeValue::S(format!("USER#{user}")));
    item.insert("sk".into(), AttributeValue::S(sk.into()));
    item.insert("entity".into(), AttributeValue::S("STRAY".into()));
    item
}
