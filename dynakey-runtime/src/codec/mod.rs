//! The item codec: Rust values to and from DynamoDB attribute values,
//! without going through serde (generated code calls [`Attr`] directly).

mod array;
mod depth;
mod impls;
mod item_template;
mod number_text;
mod path;
mod reader;
mod shape;
mod ttl;
mod unwritable;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

pub use depth::MAX_NESTING;
#[cfg(feature = "changes")]
pub(crate) use depth::{item_too_deep, Nested};
pub(crate) use depth::{nests_too_deep, too_deep};
#[doc(hidden)]
pub use item_template::ItemTemplate;
pub(crate) use path::binary_text;
pub use path::{describe as describe_value, AttrPath, DecodeError, DecodeErrorKind};
#[doc(hidden)]
pub use reader::{check_discriminator, serde_from_item, ItemReader};
pub use shape::Shape;
#[doc(hidden)]
pub use ttl::Ttl;
pub use unwritable::Unwritable;
pub(crate) use unwritable::{first_in_list, first_in_map};

/// A DynamoDB item: attribute names to values.
///
/// ```
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let mut item = dynakey_runtime::Item::new();
/// item.insert("pk".into(), AttributeValue::S("USER#ann".into()));
/// assert_eq!(item["pk"].as_s().unwrap(), "USER#ann");
/// ```
pub type Item = HashMap<String, AttributeValue>;

/// A value that can be stored as one DynamoDB attribute.
///
/// ```
/// use dynakey_runtime::{Attr, AttrPath};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// assert_eq!(42u32.to_attr(), Some(AttributeValue::N("42".into())));
/// assert_eq!(None::<String>.to_attr(), None); // absent, not NULL
/// let back = u32::from_attr(&AttributeValue::N("42".into()), &AttrPath::root("n")).unwrap();
/// assert_eq!(back, 42);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as a DynamoDB attribute",
    label = "no attribute form for `{Self}`",
    note = "derive DynamoValue for a nested struct or a unit enum, or mark the field #[dynamo(serde)] to store it through serde"
)]
pub trait Attr: Sized {
    /// The attribute value; `None` leaves the attribute out of the item.
    fn to_attr(&self) -> Option<AttributeValue>;

    /// Reads the attribute back; `path` names it in errors.
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError>;

    /// What an absent attribute decodes to: an error, except for `Option`
    /// and collections that DynamoDB cannot store empty.
    fn from_missing(path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        Err(DecodeError::missing(path))
    }

    /// Why what [`to_attr`](Self::to_attr) writes for this value could
    /// not be read back by [`from_attr`](Self::from_attr), if it could not
    /// (a date outside the years 0000–9999 has no fixed text form). Every
    /// write (put, update, batch, transaction) refuses such a value before
    /// sending anything; a container asks its elements.
    fn unwritable(&self) -> Option<Unwritable> {
        None
    }

    /// Whether the value counts as empty for `#[dynamo(omit_empty)]`.
    fn is_empty_value(&self) -> bool {
        false
    }

    /// Writes what the schema snapshot records of the stored form beyond
    /// the type's name (see [`Shape`]): nothing, unless the type holds
    /// names (a unit enum's stored names, a nested struct's members).
    #[doc(hidden)]
    fn __shape(_shape: &mut Shape) {}
}

/// Elements of DynamoDB sets: strings (SS), numbers (NS) and binary (BS).
///
/// ```
/// use dynakey_runtime::{AttrPath, SetMember};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let set = u32::to_set(vec![&3, &1]);
/// assert!(matches!(&set, AttributeValue::Ns(ns) if ns.len() == 2));
/// let mut back = u32::from_set(&set, &AttrPath::root("n")).unwrap();
/// back.sort();
/// assert_eq!(back, [1, 3]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a member of a DynamoDB set",
    note = "sets hold strings (SS), numbers (NS) or binary (BS)"
)]
pub trait SetMember: Sized + Ord {
    /// Builds the set attribute of these members.
    fn to_set(members: Vec<&Self>) -> AttributeValue;
    /// Reads the members of a set attribute.
    fn from_set(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Vec<Self>, DecodeError>;
}

/// Reads one field of an item: absent attributes go through `from_missing`.
#[doc(hidden)]
pub fn decode_field<T: Attr>(
    item: &Item,
    name: &str,
    path: &AttrPath<'_>,
) -> Result<T, DecodeError> {
    let path = path.field(name);
    match item.get(name) {
        Some(v) => T::from_attr(v, &path),
        None => T::from_missing(&path),
    }
}
