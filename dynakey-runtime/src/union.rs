//! Reading several entity types from one partition: an enum over entity
//! types decodes each item by its discriminator.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::{DecodeError, Item};
use crate::entity::EntityMeta;
use crate::error::Error;

/// An enum over entity types sharing a partition or an index, implemented
/// by `#[derive(DynamoUnion)]` on `enum UserPartition { Member(Member),
/// Membership(Membership) }`. Adding a type forces every `match` to handle
/// it.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "PROFILE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("PROFILE")]
/// # struct Profile { user: String, name: String }
/// # #[derive(dynakey_derive::DynamoUnion, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime")]
/// # enum UserItem { Note(Note), Profile(Profile) }
/// # fn stray_item(user: &str, sk: &str) -> dynakey_runtime::Item {
/// #     use aws_sdk_dynamodb::types::AttributeValue::S;
/// #     [("pk", S(format!("USER#{user}"))), ("sk", S(sk.into())), ("entity", S("STRAY".into()))]
/// #         .into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
/// # }
/// use dynakey_runtime::{Entity, EntityUnion, Error};
/// let p = Profile { user: "a".into(), name: "Ann".into() };
/// let back = UserItem::from_item(&p.to_item().unwrap()).unwrap();
/// assert_eq!(back, UserItem::Profile(p));
/// let err = UserItem::from_item(&stray_item("a", "X")).unwrap_err();
/// assert!(matches!(&err, Error::UnknownDiscriminator { value, .. } if value == "STRAY"));
/// assert!(err.to_string().contains("USER#a / X"), "{err}");
/// ```
pub trait EntityUnion: Sized + Send + 'static {
    /// The metadata of every variant's entity, in declaration order.
    const VARIANTS: &'static [&'static EntityMeta];

    /// Decodes `item` as the variant whose discriminator is
    /// `discriminator`; `None` when no variant has it.
    fn decode_variant(discriminator: &str, item: &Item) -> Option<Result<Self, DecodeError>>;

    /// The attribute holding the discriminator (one per table).
    fn discriminator_attr() -> &'static str {
        Self::VARIANTS
            .first()
            .map_or("entity", |m| m.discriminator_attr)
    }

    /// Decodes an item by its discriminator; an unknown (or missing) one is
    /// [`Error::UnknownDiscriminator`], naming the item's key.
    fn from_item(item: &Item) -> Result<Self, Error> {
        let text = |attr: &str| match item.get(attr) {
            Some(AttributeValue::S(s)) => s.as_str(),
            _ => "",
        };
        let d = text(Self::discriminator_attr());
        match Self::decode_variant(d, item) {
            Some(r) => r.map_err(Error::Decode),
            None => {
                // The variants share the table's key attributes (DYNA303).
                let meta = Self::VARIANTS.first();
                Err(Error::UnknownDiscriminator {
                    value: d.to_owned(),
                    pk: meta.map_or("", |m| text(m.pk.attr)).to_owned(),
                    sk: meta
                        .and_then(|m| m.sk.as_ref())
                        .map(|k| text(k.attr).to_owned()),
                })
            }
        }
    }
}
