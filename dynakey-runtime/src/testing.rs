//! Hand-written entities for doc examples and unit tests (what the derive
//! generates, written out). Not part of the public API.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::__private::{bounds, decode_field, put_attr, put_s, AttrPath};
use crate::codec::{DecodeError, Item};
use crate::entity::{Entity, EntityMeta, FieldMeta, IndexKind, IndexMeta, KeyMeta};
use crate::error::{EncodeError, KeyFormatError, KeyFormatReason};
use crate::key::{Global, Key, PartitionKey, SortKeyCondition, Table};
use crate::union::EntityUnion;

/// A note: `USER#<user>` / `NOTE#<id:d6>`, and a sparse `GSI1` by tag
/// (`TAG#<tag>` / `NOTE#<id:d6>`).
#[derive(Debug, Clone, PartialEq)]
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

static NOTE_INDEXES: [IndexMeta; 1] = [IndexMeta {
    name: "GSI1",
    kind: IndexKind::Global,
    pk: KeyMeta {
        attr: "gsi1pk",
        template: "TAG#<tag>",
        prefix: "TAG#",
        fields: &["tag"],
    },
    sk: Some(KeyMeta {
        attr: "gsi1sk",
        template: "NOTE#<id:d6>",
        prefix: "NOTE#",
        fields: &["id"],
    }),
    sparse: true,
}];

static NOTE_META: EntityMeta = EntityMeta {
    type_name: "Note",
    discriminator: "NOTE",
    discriminator_attr: "entity",
    pk: KeyMeta {
        attr: "pk",
        template: "USER#<user>",
        prefix: "USER#",
        fields: &["user"],
    },
    sk: Some(KeyMeta {
        attr: "sk",
        template: "NOTE#<id:d6>",
        prefix: "NOTE#",
        fields: &["id"],
    }),
    indexes: &NOTE_INDEXES,
    fields: &[
        FieldMeta {
            name: "user",
            attr: "user",
            optional: false,
        },
        FieldMeta {
            name: "id",
            attr: "id",
            optional: false,
        },
        FieldMeta {
            name: "tag",
            attr: "tag",
            optional: true,
        },
        FieldMeta {
            name: "text",
            attr: "text",
            optional: false,
        },
    ],
    ttl_attr: None,
    version_attr: None,
};

fn check(
    entity: &'static str,
    template: &'static str,
    field: &'static str,
    v: &str,
) -> Result<(), KeyFormatError> {
    if v.is_empty() || v.contains('#') {
        let reason = if v.is_empty() {
            KeyFormatReason::Empty
        } else {
            KeyFormatReason::ContainsDelimiter { delimiter: '#' }
        };
        return Err(KeyFormatError {
            entity,
            template,
            field,
            value: v.to_owned(),
            reason,
        });
    }
    Ok(())
}

fn d6(id: u32) -> Result<String, KeyFormatError> {
    if id > 999_999 {
        return Err(KeyFormatError {
            entity: "NOTE",
            template: "NOTE#<id:d6>",
            field: "id",
            value: id.to_string(),
            reason: KeyFormatReason::TooWide { width: 6 },
        });
    }
    Ok(format!("{id:06}"))
}

impl Note {
    /// The table key.
    pub fn key(user: &str, id: u32) -> Result<Key<Note>, KeyFormatError> {
        check("NOTE", "USER#<user>", "user", user)?;
        Ok(Key::__new(
            "pk",
            format!("USER#{user}"),
            Some(("sk", format!("NOTE#{}", d6(id)?))),
        ))
    }

    /// The table partition key.
    pub fn pk(user: &str) -> Result<PartitionKey<Note, Table>, KeyFormatError> {
        check("NOTE", "USER#<user>", "user", user)?;
        Ok(PartitionKey::__new(None, "pk", format!("USER#{user}")))
    }

    /// Every note of the partition.
    pub fn sk_all() -> SortKeyCondition<Note, Table> {
        SortKeyCondition::__new(None, "sk", bounds::begins_with("NOTE#"))
    }

    /// Notes with `lo <= id <= hi`.
    pub fn sk_between(lo: u32, hi: u32) -> Result<SortKeyCondition<Note, Table>, KeyFormatError> {
        Ok(SortKeyCondition::__new(
            None,
            "sk",
            bounds::between("NOTE#", &d6(lo)?, &d6(hi)?, ""),
        ))
    }

    /// Notes with `id >= lo`.
    pub fn sk_ge(lo: u32) -> Result<SortKeyCondition<Note, Table>, KeyFormatError> {
        Ok(SortKeyCondition::__new(
            None,
            "sk",
            bounds::ge("NOTE#", &d6(lo)?, ""),
        ))
    }

    /// The GSI1 partition key of a tag.
    pub fn gsi1_pk(tag: &str) -> Result<PartitionKey<Note, Global>, KeyFormatError> {
        check("NOTE", "TAG#<tag>", "tag", tag)?;
        Ok(PartitionKey::__new(
            Some("GSI1"),
            "gsi1pk",
            format!("TAG#{tag}"),
        ))
    }
}

impl Entity for Note {
    const META: &'static EntityMeta = &NOTE_META;

    fn to_item(&self) -> Result<Item, EncodeError> {
        let key = self.item_key()?;
        let mut item = key.to_attributes();
        put_s(&mut item, "entity", "NOTE".into());
        put_attr(&mut item, "user", &self.user);
        put_attr(&mut item, "id", &self.id);
        put_attr(&mut item, "tag", &self.tag);
        put_attr(&mut item, "text", &self.text);
        if let Some(tag) = &self.tag {
            check("NOTE", "TAG#<tag>", "tag", tag)?;
            put_s(&mut item, "gsi1pk", format!("TAG#{tag}"));
            put_s(&mut item, "gsi1sk", format!("NOTE#{}", d6(self.id)?));
        }
        Ok(item)
    }

    fn from_item(item: &Item) -> Result<Self, DecodeError> {
        crate::__private::check_discriminator(item, "entity", "NOTE")?;
        let root = AttrPath::root("");
        Ok(Note {
            user: decode_field(item, "user", &root)?,
            id: decode_field(item, "id", &root)?,
            tag: decode_field(item, "tag", &root)?,
            text: decode_field(item, "text", &root)?,
        })
    }

    fn item_key(&self) -> Result<Key<Self>, KeyFormatError> {
        Note::key(&self.user, self.id)
    }
}

/// A profile: `USER#<user>` / `PROFILE`, in the notes' partition.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// Owner.
    pub user: String,
    /// Display name.
    pub name: String,
}

static PROFILE_META: EntityMeta = EntityMeta {
    type_name: "Profile",
    discriminator: "PROFILE",
    discriminator_attr: "entity",
    pk: KeyMeta {
        attr: "pk",
        template: "USER#<user>",
        prefix: "USER#",
        fields: &["user"],
    },
    sk: Some(KeyMeta {
        attr: "sk",
        template: "PROFILE",
        prefix: "PROFILE",
        fields: &[],
    }),
    indexes: &[],
    fields: &[
        FieldMeta {
            name: "user",
            attr: "user",
            optional: false,
        },
        FieldMeta {
            name: "name",
            attr: "name",
            optional: false,
        },
    ],
    ttl_attr: None,
    version_attr: None,
};

impl Profile {
    /// The table key.
    pub fn key(user: &str) -> Result<Key<Profile>, KeyFormatError> {
        check("PROFILE", "USER#<user>", "user", user)?;
        Ok(Key::__new(
            "pk",
            format!("USER#{user}"),
            Some(("sk", "PROFILE".into())),
        ))
    }
}

impl Entity for Profile {
    const META: &'static EntityMeta = &PROFILE_META;

    fn to_item(&self) -> Result<Item, EncodeError> {
        let mut item = self.item_key()?.to_attributes();
        put_s(&mut item, "entity", "PROFILE".into());
        put_attr(&mut item, "user", &self.user);
        put_attr(&mut item, "name", &self.name);
        Ok(item)
    }

    fn from_item(item: &Item) -> Result<Self, DecodeError> {
        crate::__private::check_discriminator(item, "entity", "PROFILE")?;
        let root = AttrPath::root("");
        Ok(Profile {
            user: decode_field(item, "user", &root)?,
            name: decode_field(item, "name", &root)?,
        })
    }

    fn item_key(&self) -> Result<Key<Self>, KeyFormatError> {
        Profile::key(&self.user)
    }
}

/// What a user's partition holds (what `#[derive(DynamoUnion)]` generates).
#[derive(Debug, Clone, PartialEq)]
pub enum UserItem {
    /// A note.
    Note(Note),
    /// The profile.
    Profile(Profile),
}

impl EntityUnion for UserItem {
    const VARIANTS: &'static [&'static EntityMeta] = &[Note::META, Profile::META];

    fn decode_variant(discriminator: &str, item: &Item) -> Option<Result<Self, DecodeError>> {
        match discriminator {
            "NOTE" => Some(Note::from_item(item).map(UserItem::Note)),
            "PROFILE" => Some(Profile::from_item(item).map(UserItem::Profile)),
            _ => None,
        }
    }
}

/// An item of no known entity, for tests of unknown discriminators.
pub fn stray_item(user: &str, sk: &str) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), AttributeValue::S(format!("USER#{user}")));
    item.insert("sk".into(), AttributeValue::S(sk.into()));
    item.insert("entity".into(), AttributeValue::S("STRAY".into()));
    item
}
