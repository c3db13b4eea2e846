//! What every write checks before it is sent: the item's size and numbers
//! (DynamoDB would refuse them, and a batch would hand them back one call
//! later), and the optimistic lock of a versioned entity.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::entity::{Entity, EntityMeta};
use crate::error::{Error, ItemRef};
use crate::expr::Condition;
use crate::key::Key;
use crate::size::{item_size, MAX_ITEM_SIZE};

/// The key of an item as text, from its key attributes.
pub(crate) fn key_text(meta: &EntityMeta, item: &Item) -> ItemRef {
    let s = |a: &str| match item.get(a) {
        Some(AttributeValue::S(s)) => s.clone(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    };
    ItemRef {
        entity: meta.discriminator,
        pk: s(meta.pk.attr),
        sk: meta.sk.as_ref().map(|k| s(k.attr)),
    }
}

/// The [`ItemRef`] of a typed key.
pub(crate) fn key_ref<E: Entity>(key: &Key<E>) -> ItemRef {
    key_ref_of(E::META, key)
}

/// [`key_ref`] with the entity's metadata as a value.
pub(crate) fn key_ref_of<F>(meta: &EntityMeta, key: &Key<F>) -> ItemRef {
    ItemRef {
        entity: meta.discriminator,
        pk: key.pk().to_owned(),
        sk: key.sk().map(str::to_owned),
    }
}

/// Optimistic lock for a put of a `#[dynamo(version)]` entity: writes the
/// next version into `item` and adds the condition that the stored version
/// is the one the value was read at (no item at all for version 0).
pub(crate) fn versioned<E: Entity>(
    item: &mut Item,
    cond: Option<Condition>,
) -> Result<Option<Condition>, Error> {
    let Some(attr) = E::META.version_attr else {
        return Ok(cond);
    };
    let (version, next) = bump_version(item, attr)?;
    let check = if version == 0 {
        Condition::attr(E::META.pk.attr).not_exists()
    } else {
        Condition::attr(attr).eq(AttributeValue::N(version.to_string()))
    };
    item.insert(attr.to_owned(), next);
    Ok(Some(Condition::join(cond, check)))
}

/// The version an item was read at and the attribute of the next one.
pub(crate) fn bump_version(item: &Item, attr: &str) -> Result<(u128, AttributeValue), Error> {
    let version = match item.get(attr) {
        None => 0,
        Some(AttributeValue::N(n)) => n.parse::<u128>().map_err(|_| {
            Error::refused(format!(
                "version attribute `{attr}` holds {n:?}, not a non-negative integer"
            ))
        })?,
        Some(other) => {
            return Err(Error::refused(format!(
                "version attribute `{attr}` holds {other:?}, not a number"
            )))
        }
    };
    Ok((version, AttributeValue::N((version + 1).to_string())))
}

/// Refuses an item over 400 KB, or one holding a number DynamoDB cannot
/// store (named by its attribute path).
pub(crate) fn check_item(meta: &EntityMeta, item: &Item) -> Result<(), Error> {
    let size = item_size(item);
    if size > MAX_ITEM_SIZE {
        return Err(Error::ItemTooLarge {
            size,
            key: key_text(meta, item).to_string(),
        });
    }
    for (name, v) in item {
        if let Some((below, n, why)) = bad_number(v) {
            return Err(Error::refused(format!(
                "{} {}: attribute `{name}{below}` holds the number {n}, which {why}; DynamoDB cannot store it",
                meta.discriminator,
                key_text(meta, item)
            )));
        }
    }
    Ok(())
}

/// A number DynamoDB cannot store inside `v` (NaN, an infinity, more than
/// 38 digits, a magnitude outside 1E-130..1E+126): its path below `v`, its
/// text and why. Allocates nothing unless it finds one (this runs on every
/// write).
fn bad_number(v: &AttributeValue) -> Option<(String, String, &'static str)> {
    let bad = |n: &String| crate::number::number_problem(n).map(|why| (n.clone(), why));
    match v {
        AttributeValue::N(n) => bad(n).map(|(n, why)| (String::new(), n, why)),
        AttributeValue::Ns(ns) => ns
            .iter()
            .find_map(bad)
            .map(|(n, why)| (String::new(), n, why)),
        AttributeValue::L(l) => l
            .iter()
            .enumerate()
            .find_map(|(i, x)| bad_number(x).map(|(p, n, why)| (format!("[{i}]{p}"), n, why))),
        AttributeValue::M(m) => m
            .iter()
            .find_map(|(k, x)| bad_number(x).map(|(p, n, why)| (format!(".{k}{p}"), n, why))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_numbers_are_named_by_path() {
        let mut inner = Item::new();
        inner.insert("x".into(), AttributeValue::N("1e200".into()));
        let v = AttributeValue::L(vec![
            AttributeValue::N("1".into()),
            AttributeValue::M(inner),
        ]);
        let (path, n, _) = bad_number(&v).unwrap();
        assert_eq!((path.as_str(), n.as_str()), ("[1].x", "1e200"));
        assert!(bad_number(&AttributeValue::N("12.5".into())).is_none());
    }
}
