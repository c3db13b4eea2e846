//! What differs between the old and the new raw item: fields (by their
//! stored attributes) and index membership (by the index key attributes).
//! Computed from the images and the entities' metadata, so it needs
//! nothing generated beyond `Entity::META`.

use aws_sdk_dynamodb::types::AttributeValue;

use super::change::{IndexChange, IndexTransition};
use super::value::{same_opt, same_value};
use crate::codec::Item;
use crate::entity::{EntityMeta, IndexMeta};

/// The fields of `metas` (deduplicated by name) whose stored attribute
/// differs between `old` and `new`, in declaration order.
pub(crate) fn changed_fields(
    metas: &[&'static EntityMeta],
    old: &Item,
    new: &Item,
) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for m in metas {
        for f in m.fields {
            if !out.contains(&f.name) && !same_opt(old.get(f.attr), new.get(f.attr)) {
                out.push(f.name);
            }
        }
    }
    out
}

/// The index key of `item` in `ix`: the values of its key attributes, in
/// key order, while all exist (an item lacking one is out of the index: a
/// sparse template index writes no key attribute, and DynamoDB leaves an
/// item lacking a native key attribute out).
fn index_key<'a>(ix: &IndexMeta, item: &'a Item) -> Option<Vec<&'a AttributeValue>> {
    ix.key_attrs().map(|a| item.get(a)).collect()
}

/// The indexes of `metas` (deduplicated by name; a table's entities agree
/// on them, DYNA304), in first-declared order.
pub(crate) fn indexes_of(metas: &[&'static EntityMeta]) -> Vec<&'static IndexMeta> {
    let mut out: Vec<&'static IndexMeta> = Vec::new();
    for m in metas {
        for ix in m.indexes {
            if !out.iter().any(|o| o.name == ix.name) {
                out.push(ix);
            }
        }
    }
    out
}

/// How an item moved between its entry `before` and `after` in one index
/// (`same` tells two entries apart): `None` when it did not.
fn transition<T>(
    before: Option<T>,
    after: Option<T>,
    same: impl Fn(&T, &T) -> bool,
) -> Option<IndexTransition> {
    match (before, after) {
        (None, Some(_)) => Some(IndexTransition::Entered),
        (Some(_), None) => Some(IndexTransition::Left),
        (Some(a), Some(b)) if !same(&a, &b) => Some(IndexTransition::Moved),
        _ => None,
    }
}

/// How the item moved with respect to each index, from the images (an
/// absent image is an absent item: nothing before an insert, nothing after
/// a removal).
pub(crate) fn index_changes(
    indexes: &[&'static IndexMeta],
    old: Option<&Item>,
    new: Option<&Item>,
) -> Vec<IndexChange> {
    let mut out = Vec::new();
    for ix in indexes {
        let before = old.and_then(|i| index_key(ix, i));
        let after = new.and_then(|i| index_key(ix, i));
        let Some(transition) = transition(before, after, |k0, k1| {
            k0.iter().zip(k1).all(|(a, b)| same_value(a, b))
        }) else {
            continue;
        };
        out.push(IndexChange {
            index: ix.name,
            transition,
        });
    }
    out
}

/// How the item moved with respect to each vector index of `metas`
/// (deduplicated by name; DYNA610 makes a table's entities agree on them):
/// entered or left as it gained or lost its vector or scope, moved when
/// its vector or its scope's value changed.
pub(crate) fn vector_changes(
    metas: &[&'static EntityMeta],
    old: Option<&Item>,
    new: Option<&Item>,
) -> Vec<IndexChange> {
    let mut seen: Vec<&'static str> = Vec::new();
    let mut out = Vec::new();
    for v in metas.iter().flat_map(|m| m.vectors) {
        if seen.contains(&v.name) {
            continue;
        }
        seen.push(v.name);
        let before = old.and_then(|i| v.entry(i));
        let after = new.and_then(|i| v.entry(i));
        let Some(transition) = transition(before, after, |(v0, s0), (v1, s1)| {
            same_value(v0, v1) && same_opt(*s0, *s1)
        }) else {
            continue;
        };
        out.push(IndexChange {
            index: v.name,
            transition,
        });
    }
    out
}

/// The key attributes as text for messages: `pk=USER#ann, sk=NOTE#000001`,
/// in name order.
pub(crate) fn keys_text(keys: &Item) -> String {
    let mut names: Vec<&String> = keys.keys().collect();
    names.sort();
    names
        .into_iter()
        .map(|k| match &keys[k] {
            AttributeValue::S(s) | AttributeValue::N(s) => format!("{k}={s}"),
            other => format!("{k}={}", crate::codec::describe_value(other)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttributeValue as V;

    #[test]
    fn keys_text_is_sorted() {
        let keys: Item = [
            ("sk".to_owned(), V::S("B".into())),
            ("pk".to_owned(), V::N("7".into())),
        ]
        .into();
        assert_eq!(keys_text(&keys), "pk=7, sk=B");
    }
}
