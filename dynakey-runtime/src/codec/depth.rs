//! How deep a value may nest, the one rule every reader and the write
//! check share: DynamoDB stores at most [`MAX_NESTING`] levels, so a
//! deeper value did not come from DynamoDB, and reading it recursively
//! could exhaust the stack (a tokio worker has 2 MB). Each reader refuses
//! a map or list at the last level before it recurses into it: the codec
//! through the depth of its [`AttrPath`], the DynamoDB JSON reader through
//! its path, and the readers of other attribute value types (the Streams
//! API's, serde_dynamo's, a change record's items) with [`too_deep`],
//! whose own recursion stops at the limit.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{AttrPath, DecodeError};

/// The most levels DynamoDB nests a value: a top-level attribute is level
/// 1, a leaf inside 31 maps or lists is stored, a map or list at the 32nd
/// level holds a 33rd and is refused.
pub const MAX_NESTING: usize = 32;

/// Whether a map or list at `level` (1 for a top-level attribute) holds
/// values deeper than DynamoDB stores.
#[inline]
pub(crate) fn nests_too_deep(level: usize) -> bool {
    level >= MAX_NESTING
}

impl AttrPath<'_> {
    /// The level of the value at this path: 1 for a top-level attribute
    /// (`a`), 2 for what it holds (`a.b`, `a[0]`), 0 for the item itself
    /// (the empty root).
    ///
    /// ```
    /// use dynakey_runtime::AttrPath;
    /// let top = AttrPath::root("a");
    /// let b = top.field("b");
    /// assert_eq!((AttrPath::root("").depth(), top.depth(), b.index(3).depth()), (0, 1, 3));
    /// ```
    pub fn depth(&self) -> usize {
        let mut n = 0;
        let mut at = self;
        loop {
            match at {
                AttrPath::Root("") => return n,
                AttrPath::Root(_) => return n + 1,
                AttrPath::Field(p, _) | AttrPath::Index(p, _) => {
                    n += 1;
                    at = p;
                }
            }
        }
    }
}

/// Refuses a map or list at `path` that would hold values past the limit:
/// what a decoder of a map or a list calls before decoding what it holds.
#[inline]
pub(crate) fn enter(path: &AttrPath<'_>) -> Result<(), DecodeError> {
    if nests_too_deep(path.depth()) {
        return Err(DecodeError::too_deep(path, ""));
    }
    Ok(())
}

/// What a value holds, for a walk over any of the attribute value types.
pub(crate) enum Holds<'a, V> {
    /// A scalar or a set: nothing nested.
    Nothing,
    /// A list's values.
    List(&'a [V]),
    /// A map's entries.
    Map(&'a HashMap<String, V>),
}

/// An attribute value type whose maps and lists hold values of itself.
pub(crate) trait Nested: Sized {
    /// What the value holds.
    fn holds(&self) -> Holds<'_, Self>;
}

impl Nested for AttributeValue {
    fn holds(&self) -> Holds<'_, Self> {
        match self {
            AttributeValue::L(l) => Holds::List(l),
            AttributeValue::M(m) => Holds::Map(m),
            _ => Holds::Nothing,
        }
    }
}

impl Nested for serde_dynamo::AttributeValue {
    fn holds(&self) -> Holds<'_, Self> {
        match self {
            serde_dynamo::AttributeValue::L(l) => Holds::List(l),
            serde_dynamo::AttributeValue::M(m) => Holds::Map(m),
            _ => Holds::Nothing,
        }
    }
}

#[cfg(feature = "streams")]
impl Nested for aws_sdk_dynamodbstreams::types::AttributeValue {
    fn holds(&self) -> Holds<'_, Self> {
        use aws_sdk_dynamodbstreams::types::AttributeValue as V;
        match self {
            V::L(l) => Holds::List(l),
            V::M(m) => Holds::Map(m),
            _ => Holds::Nothing,
        }
    }
}

/// Where below `v`, which sits at `level`, a map or list nests past the
/// limit (`.a[2].b`, empty for `v` itself), if one does. Recurses at most
/// [`MAX_NESTING`] levels whatever `v` holds, and allocates only when it
/// finds one.
pub(crate) fn too_deep<V: Nested>(v: &V, level: usize) -> Option<String> {
    let inner = match v.holds() {
        Holds::Nothing => return None,
        _ if nests_too_deep(level) => return Some(String::new()),
        Holds::List(l) => l
            .iter()
            .enumerate()
            .find_map(|(i, x)| too_deep(x, level + 1).map(|below| format!("[{i}]{below}"))),
        Holds::Map(m) => m
            .iter()
            .find_map(|(k, x)| too_deep(x, level + 1).map(|below| format!(".{k}{below}"))),
    };
    inner
}

/// Where in `item` (its attributes at level 1) a value nests past the
/// limit: the attribute path (`a.b[0]`), if one does (for the change
/// decoders).
#[cfg(feature = "changes")]
pub(crate) fn item_too_deep<V: Nested>(item: &HashMap<String, V>) -> Option<String> {
    item.iter()
        .find_map(|(k, v)| too_deep(v, 1).map(|below| format!("{k}{below}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Item;

    /// `levels` maps and lists around a string.
    fn nest(levels: usize) -> AttributeValue {
        (0..levels).fold(AttributeValue::S("x".into()), |v, i| {
            if i % 2 == 0 {
                AttributeValue::M(Item::from([("m".to_owned(), v)]))
            } else {
                AttributeValue::L(vec![v])
            }
        })
    }

    #[test]
    fn a_leaf_at_the_32nd_level_is_stored_a_container_there_is_not() {
        let item = |v| Item::from([("a".to_owned(), v)]);
        // The attribute is level 1: 31 containers put the leaf at 32.
        assert_eq!(item_too_deep(&item(nest(31))), None);
        let at = item_too_deep(&item(nest(32))).unwrap();
        assert_eq!(at.matches(".m").count() + at.matches("[0]").count(), 31);
        assert!(at.starts_with('a'), "{at}");
        // A value inside a map at level 5 counts from there.
        assert_eq!(too_deep(&nest(28), 4), None);
        assert!(too_deep(&nest(28), 5).is_some());
    }

    #[test]
    fn the_depth_of_a_path_counts_its_steps() {
        let root = AttrPath::root("");
        let a = root.field("a");
        let l = a.index(0);
        assert_eq!((root.depth(), a.depth(), l.depth()), (0, 1, 2));
        assert!(enter(&l).is_ok());
    }
}
