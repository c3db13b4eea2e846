//! Native index keys: a global index keyed by up to four partition and four
//! sort attributes that are the items' own attributes, of type S, N or B.
//! DynamoDB builds such a key itself from the item (no synthetic `gsi1pk`
//! text), orders each sort attribute by its value (numbers as numbers,
//! binary bytewise) and leaves out an item that lacks any key attribute.

use aws_sdk_dynamodb::types::{AttributeValue, ScalarAttributeType};

/// The DynamoDB type of a key attribute: string, number or binary.
///
/// ```
/// use dynakey_runtime::KeyAttrType;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// assert_eq!(KeyAttrType::N.as_str(), "N");
/// assert_eq!(KeyAttrType::of(&AttributeValue::S("x".into())), Some(KeyAttrType::S));
/// assert_eq!(KeyAttrType::of(&AttributeValue::Bool(true)), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyAttrType {
    /// A string (`S`).
    S,
    /// A number (`N`), ordered by value.
    N,
    /// Binary (`B`), ordered bytewise.
    B,
}

impl KeyAttrType {
    /// `"S"`, `"N"` or `"B"`: the type's name in DynamoDB's API.
    pub const fn as_str(self) -> &'static str {
        match self {
            KeyAttrType::S => "S",
            KeyAttrType::N => "N",
            KeyAttrType::B => "B",
        }
    }

    /// The type of a value, when it is a string, number or binary.
    pub fn of(value: &AttributeValue) -> Option<Self> {
        match value {
            AttributeValue::S(_) => Some(KeyAttrType::S),
            AttributeValue::N(_) => Some(KeyAttrType::N),
            AttributeValue::B(_) => Some(KeyAttrType::B),
            _ => None,
        }
    }

    /// The type read back from its name (`"S"`, `"N"`, `"B"`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "S" => Some(KeyAttrType::S),
            "N" => Some(KeyAttrType::N),
            "B" => Some(KeyAttrType::B),
            _ => None,
        }
    }

    /// The SDK's `AttributeDefinition` type.
    pub(crate) fn scalar(self) -> ScalarAttributeType {
        match self {
            KeyAttrType::S => ScalarAttributeType::S,
            KeyAttrType::N => ScalarAttributeType::N,
            KeyAttrType::B => ScalarAttributeType::B,
        }
    }
}

impl std::fmt::Display for KeyAttrType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One attribute of a native index key: the field's own stored attribute.
///
/// ```
/// use dynakey_runtime::{KeyAttrType, NativeAttr};
/// const A: NativeAttr = NativeAttr::__new("created", "created_at", KeyAttrType::S);
/// assert_eq!((A.attr, A.field, A.ty), ("created", "created_at", KeyAttrType::S));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NativeAttr {
    /// The stored attribute's name (the field's, or its `rename`).
    pub attr: &'static str,
    /// The Rust field's name (without `r#`).
    pub field: &'static str,
    /// Its DynamoDB type.
    pub ty: KeyAttrType,
}

impl NativeAttr {
    /// What the derive writes.
    #[doc(hidden)]
    pub const fn __new(attr: &'static str, field: &'static str, ty: KeyAttrType) -> Self {
        NativeAttr { attr, field, ty }
    }
}

/// The key of a native index: its partition attributes (1 to 4) and sort
/// attributes (0 to 4), in declaration order, which is the order of the
/// key schema and of the sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeKey {
    /// The partition attributes (`KeyType::Hash`).
    pub pk: &'static [NativeAttr],
    /// The sort attributes (`KeyType::Range`), compared in this order.
    pub sk: &'static [NativeAttr],
}

impl NativeKey {
    /// Every attribute, partition ones first.
    pub fn attrs(&self) -> impl Iterator<Item = &'static NativeAttr> + 'static {
        self.pk.iter().chain(self.sk.iter())
    }
}
