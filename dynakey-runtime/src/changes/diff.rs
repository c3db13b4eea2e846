//! What differs between the old and the new raw item: fields (by their
//! stored attributes) and index membership (by the index key attributes).
//! Computed from the images and the entities' metadata, so it needs
//! nothing generated beyond `Entity::META`.

use aws_sdk_dynamodb::types::AttributeValue;

use super::change::{IndexChange, IndexTransition};
use crate::codec::Item;
use crate::entity::{EntityMeta, IndexMeta};

/// Whether two stored values mean the same: sets compare as sets (their
/// order is not part of the value, and a record may list them in another
/// order than the write did), numbers by value when both parse as decimals.
pub(crate) fn same_value(a: &AttributeValue, b: &AttributeValue) -> bool {
    use AttributeValue as V;
    match (a, b) {
        (V::N(x), V::N(y)) => same_number(x, y),
        (V::Ss(x), V::Ss(y)) => same_set(x, y, |p, q| p == q),
        (V::Ns(x), V::Ns(y)) => same_set(x, y, |p, q| same_number(p, q)),
        (V::Bs(x), V::Bs(y)) => same_set(x, y, |p, q| p == q),
        (V::L(x), V::L(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
        (V::M(x), V::M(y)) => same_map(x, y),
        _ => a == b,
    }
}

fn same_number(x: &str, y: &str) -> bool {
    if x == y {
        return true;
    }
    // `100` and `1E+2` are one number; rust_decimal holds 28 digits, and
    // text that does not parse compares as text.
    match (
        x.parse::<rust_decimal::Decimal>()
            .or_else(|_| rust_decimal::Decimal::from_scientific(x)),
        y.parse::<rust_decimal::Decimal>()
            .or_else(|_| rust_decimal::Decimal::from_scientific(y)),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn same_set<E>(x: &[E], y: &[E], eq: impl Fn(&E, &E) -> bool) -> bool {
    x.len() == y.len() && x.iter().all(|a| y.iter().any(|b| eq(a, b)))
}

fn same_map(x: &Item, y: &Item) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|(k, a)| y.get(k).is_some_and(|b| same_value(a, b)))
}

fn same_opt(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same_value(a, b),
        (None, None) => true,
        _ => false,
    }
}

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

/// The index key of `item` in `ix`: its attributes, while all exist.
fn index_key<'a>(
    ix: &IndexMeta,
    item: &'a Item,
) -> Option<(&'a AttributeValue, Option<&'a AttributeValue>)> {
    let pk = item.get(ix.pk.attr)?;
    let sk = match &ix.sk {
        Some(k) => Some(item.get(k.attr)?),
        None => None,
    };
    Some((pk, sk))
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
        let transition = match (before, after) {
            (None, Some(_)) => IndexTransition::Entered,
            (Some(_), None) => IndexTransition::Left,
            (Some((p0, s0)), Some((p1, s1))) => {
                if same_value(p0, p1) && same_opt(s0, s1) {
                    continue;
                }
                IndexTransition::Moved
            }
            (None, None) => continue,
        };
        out.push(IndexChange {
            index: ix.name,
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
    fn sets_compare_as_sets_and_numbers_by_value() {
        let ab = V::Ss(vec!["a".into(), "b".into()]);
        let ba = V::Ss(vec!["b".into(), "a".into()]);
        assert!(same_value(&ab, &ba));
        assert!(!same_value(&ab, &V::Ss(vec!["a".into()])));
        assert!(same_value(&V::N("100".into()), &V::N("1E+2".into())));
        assert!(same_value(
            &V::Ns(vec!["1".into(), "2.0".into()]),
            &V::Ns(vec!["2".into(), "1".into()])
        ));
        assert!(!same_value(&V::N("1".into()), &V::S("1".into())));
        let m = |v: V| V::M([("x".to_owned(), v)].into());
        assert!(same_value(&m(ab.clone()), &m(ba)));
        assert!(!same_value(&m(ab), &m(V::Null(true))));
        assert!(same_value(
            &V::L(vec![V::N("1.50".into())]),
            &V::L(vec![V::N("1.5".into())])
        ));
    }

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
