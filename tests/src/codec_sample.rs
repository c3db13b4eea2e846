//! The item of the codec benchmark (`cargo bench --bench codec`) and of
//! the allocation count (`tests/codec_allocs.rs`): ten fields of mixed
//! types under a table key, with serde derives for serde_dynamo.

use std::collections::HashMap;

use dynakey::DynamoEntity;
use serde::{Deserialize, Serialize};

/// A user profile.
#[derive(DynamoEntity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamo(entity = "PROFILE")]
#[pk("USER#<id>")]
#[sk("PROFILE")]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub email: String,
    pub age: u32,
    pub score: f64,
    pub active: bool,
    pub nickname: Option<String>,
    pub tags: Vec<String>,
    pub counts: HashMap<String, i64>,
    pub created: i64,
}

/// The benchmark's profile.
pub fn sample() -> Profile {
    Profile {
        id: "u-123456".into(),
        name: "Alice Example".into(),
        email: "alice@example.com".into(),
        age: 37,
        score: 98.25,
        active: true,
        nickname: Some("ally".into()),
        tags: vec!["admin".into(), "beta".into(), "eu".into()],
        counts: HashMap::from([("logins".into(), 1234), ("posts".into(), 56)]),
        created: 1_752_657_120,
    }
}

/// `Profile::from_item` as it read items before the reader listed their
/// entries: each field looked up in the map by its name. The reference
/// `tests/codec_allocs.rs` holds the generated `from_item` to (the same
/// results and the same errors, for items of few and of many attributes).
pub fn from_item_by_name(item: &dynakey::Item) -> Result<Profile, dynakey::DecodeError> {
    use dynakey::__private as dk;
    dk::check_discriminator(item, "_type", "PROFILE")?;
    let path = dk::AttrPath::root("");
    Ok(Profile {
        id: dk::decode_field(item, "id", &path)?,
        name: dk::decode_field(item, "name", &path)?,
        email: dk::decode_field(item, "email", &path)?,
        age: dk::decode_field(item, "age", &path)?,
        score: dk::decode_field(item, "score", &path)?,
        active: dk::decode_field(item, "active", &path)?,
        nickname: dk::decode_field(item, "nickname", &path)?,
        tags: dk::decode_field(item, "tags", &path)?,
        counts: dk::decode_field(item, "counts", &path)?,
        created: dk::decode_field(item, "created", &path)?,
    })
}
