//! What every write checks before it is sent: the item's size, its key
//! sizes, numbers and nesting, and the values of its native index key
//! attributes (DynamoDB would refuse them, and a batch would hand them back
//! one call later), and the optimistic lock of a versioned entity.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::{nests_too_deep, Item, MAX_NESTING};
use crate::entity::{Entity, EntityMeta, KeyAttrType};
use crate::error::{Error, ItemRef, KeyFormatReason, KeyRole, RefusedReason};
use crate::expr::{Condition, Update};
use crate::key::{check_key_size, native_error, Key, KeyPartError};
use crate::shown::shown;
use crate::size::{item_size, MAX_ITEM_SIZE};

/// The key of an item as text, from its key attributes.
pub(crate) fn key_text(meta: &EntityMeta, item: &Item) -> ItemRef {
    let s = |a: &str| match item.get(a) {
        Some(AttributeValue::S(s)) => s.clone(),
        Some(other) => crate::codec::describe_value(other),
        None => String::new(),
    };
    ItemRef {
        discriminator: meta.discriminator,
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
        discriminator: meta.discriminator,
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
            Error::refused(
                RefusedReason::Unreadable,
                format!(
                    "version attribute `{attr}` holds {}, not a non-negative integer",
                    shown(n)
                ),
            )
        })?,
        Some(other) => {
            return Err(Error::refused(
                RefusedReason::Unreadable,
                format!(
                    "version attribute `{attr}` holds {}, not a number",
                    crate::codec::describe_value(other)
                ),
            ))
        }
    };
    Ok((version, AttributeValue::N((version + 1).to_string())))
}

/// Refuses an item over 400 KB, a native index key attribute its index
/// refuses, and a value DynamoDB cannot store: a number (NaN, infinite,
/// more than 38 digits, out of range) or a value nested over 32 levels,
/// named by its attribute path. (A template key's size was checked once,
/// by the writer that wrote it.)
pub(crate) fn check_item(meta: &EntityMeta, item: &Item) -> Result<(), Error> {
    // The values first: this walk stops at the nesting limit, the size's
    // does not.
    for (name, v) in item {
        if let Some(p) = value_problem(v, 0) {
            // The item reference starts with the discriminator.
            return Err(Error::refused(
                p.reason(),
                format!("{}: {}", key_text(meta, item), p.describe(name)),
            ));
        }
    }
    let size = item_size(item);
    if size > MAX_ITEM_SIZE {
        return Err(Error::ItemTooLarge {
            size,
            key: key_text(meta, item).to_string(),
        });
    }
    // The item's template keys are not read back here: the key writer
    // held each to its role's limit when `to_item` wrote it, once.
    native_keys(meta, |attr| item.get(attr))?;
    Ok(())
}

/// Refuses a value DynamoDB refuses in a native index key attribute: an
/// empty string or binary, one longer than its key holds (2,048 bytes in a
/// partition attribute, 1,024 in a sort attribute), or a value of another
/// type than the index's; and an empty vector index scope, or a vector of
/// another length than its index's dimensions
/// (`value_of` gives the value an attribute is written with, if any). The
/// error names the entity, the index and the field.
fn native_keys<'a>(
    meta: &EntityMeta,
    value_of: impl Fn(&str) -> Option<&'a AttributeValue>,
) -> Result<(), Error> {
    for ix in meta.indexes {
        let Some(n) = ix.native() else { continue };
        for a in n.attrs() {
            let Some(v) = value_of(a.attr) else { continue };
            let size = match v {
                AttributeValue::S(s) | AttributeValue::N(s) => s.len(),
                AttributeValue::B(b) => b.as_ref().len(),
                _ => 0,
            };
            let role = if n.pk.contains(a) {
                KeyRole::Partition
            } else {
                KeyRole::Sort
            };
            let reason = match (v, KeyAttrType::of(v)) {
                _ if is_empty_key(v) => KeyFormatReason::Empty,
                // Each attribute of a native key is held to its key's limit.
                (_, Some(t)) if t == a.ty && size > role.limit() => {
                    KeyFormatReason::TooLong { role, size }
                }
                (_, Some(t)) if t == a.ty => continue,
                _ => KeyFormatReason::Malformed {
                    expected: format!("a value of type {} (the index's key type)", a.ty),
                },
            };
            let value = match v {
                AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
                other => crate::codec::describe_value(other),
            };
            let e = KeyPartError::new(value, reason);
            return Err(Error::KeyFormat(native_error(
                meta.discriminator,
                ix.name,
                a.field,
                e,
            )));
        }
    }
    for v in meta.vectors {
        // The scope is the search schema's HASH element, which DynamoDB
        // refuses empty, as it refuses an empty key attribute.
        if let Some(scope) = v.scope() {
            if value_of(scope.attr).is_some_and(is_empty_key) {
                let e = KeyPartError::new(String::new(), KeyFormatReason::Empty);
                let e = native_error(meta.discriminator, v.name, scope.field, e);
                return Err(Error::KeyFormat(e));
            }
        }
        // A vector DynamoDB would refuse: another number of elements than
        // the index's dimensions (a `Vec<f32>` field; an array's length is
        // its type's).
        if let Some(value @ AttributeValue::L(l)) = value_of(v.vector_attr) {
            if !v.reads(value) {
                return Err(Error::refused(
                    RefusedReason::VectorLength,
                    format!(
                        "{}: field `{}` holds {} elements where vector index `{}` reads {} numbers",
                        meta.discriminator,
                        v.vector_field,
                        l.len(),
                        v.name,
                        v.dimensions
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// An empty string or binary: what DynamoDB refuses in a key attribute.
fn is_empty_key(v: &AttributeValue) -> bool {
    match v {
        AttributeValue::S(s) => s.is_empty(),
        AttributeValue::B(b) => b.as_ref().is_empty(),
        _ => false,
    }
}

/// Refuses an update that sends a value DynamoDB cannot store (see
/// [`check_item`]; a value set at `a.b` lies one level down), that sets a
/// key attribute longer than its key holds, or a native key attribute to a
/// value its index refuses (a raw expression's values are not tied to
/// attributes here, and are left to DynamoDB).
pub(crate) fn check_update(meta: &EntityMeta, update: &Update) -> Result<(), Error> {
    for (path, v) in update.values() {
        if let Some(p) = value_problem(v, path.depth() - 1) {
            return Err(Error::refused(
                p.reason(),
                format!(
                    "{}: the update of {}",
                    meta.discriminator,
                    p.describe(&path.to_string())
                ),
            ));
        }
        let key = path
            .top()
            .filter(|_| path.is_top())
            .and_then(|a| meta.keys().find(|(k, _)| k.attr == a));
        if let (Some((k, role)), AttributeValue::S(s)) = (key, v) {
            check_key_size(k.key, role, s)?;
        }
    }
    if meta.indexes.iter().any(|ix| ix.is_native()) || !meta.vectors.is_empty() {
        native_keys(meta, |attr| update.assigned_value(attr))?;
    }
    Ok(())
}

/// What DynamoDB cannot store inside a value, and where below it.
struct Problem {
    /// The path below the attribute (`.a[2].b`).
    below: String,
    what: ProblemKind,
}

enum ProblemKind {
    /// A number: its text and why.
    Number(String, &'static str),
    /// A map or list at the deepest level DynamoDB allows, which would
    /// hold values one level deeper.
    TooDeep,
}

impl Problem {
    /// The refusal's reason.
    fn reason(&self) -> RefusedReason {
        match self.what {
            ProblemKind::Number(..) => RefusedReason::NumberOutOfRange,
            ProblemKind::TooDeep => RefusedReason::NestingTooDeep,
        }
    }

    fn describe(&self, attr: &str) -> String {
        let below = &self.below;
        match &self.what {
            ProblemKind::Number(n, why) => format!(
                "attribute `{attr}{below}` holds the number {}, which {why}; DynamoDB cannot store it",
                shown(n)
            ),
            ProblemKind::TooDeep => format!(
                "attribute `{attr}{below}` is a map or list {MAX_NESTING} levels down, so what it holds nests over the {MAX_NESTING} levels DynamoDB allows"
            ),
        }
    }
}

/// A number DynamoDB cannot store, or nesting past its limit, inside `v`,
/// which lies inside `outer` maps or lists. Allocates nothing unless it
/// finds one (this runs on every write), and stops one level past the
/// limit, so a value nested thousands deep cannot exhaust the stack.
fn value_problem(v: &AttributeValue, outer: usize) -> Option<Problem> {
    let number = |n: &String| {
        crate::number::number_problem(n).map(|why| Problem {
            below: String::new(),
            what: ProblemKind::Number(n.clone(), why),
        })
    };
    let nested = |below: String, inner: Problem| Problem {
        below: below + &inner.below,
        what: inner.what,
    };
    let container = || {
        nests_too_deep(outer + 1).then(|| Problem {
            below: String::new(),
            what: ProblemKind::TooDeep,
        })
    };
    match v {
        AttributeValue::N(n) => number(n),
        AttributeValue::Ns(ns) => ns.iter().find_map(number),
        AttributeValue::L(l) => container().or_else(|| {
            l.iter()
                .enumerate()
                .find_map(|(i, x)| value_problem(x, outer + 1).map(|p| nested(format!("[{i}]"), p)))
        }),
        AttributeValue::M(m) => container().or_else(|| {
            m.iter()
                .find_map(|(k, x)| value_problem(x, outer + 1).map(|p| nested(format!(".{k}"), p)))
        }),
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
        let p = value_problem(&v, 0).unwrap();
        assert_eq!(p.below, "[1].x");
        assert!(matches!(&p.what, ProblemKind::Number(n, _) if n == "1e200"));
        assert!(value_problem(&AttributeValue::N("12.5".into()), 0).is_none());
    }

    fn nest(levels: usize, leaf: AttributeValue) -> AttributeValue {
        (0..levels).fold(leaf, |v, i| {
            if i % 2 == 0 {
                AttributeValue::M(Item::from([("m".to_owned(), v)]))
            } else {
                AttributeValue::L(vec![v])
            }
        })
    }

    #[test]
    fn nesting_is_refused_past_32_levels_where_it_starts() {
        let leaf = || AttributeValue::S("x".into());
        // A leaf inside 31 maps and lists: 32 levels, stored.
        assert!(value_problem(&nest(31, leaf()), 0).is_none());
        // Inside 32: refused, at the 32nd container.
        let p = value_problem(&nest(32, leaf()), 0).unwrap();
        assert!(matches!(p.what, ProblemKind::TooDeep));
        assert_eq!(
            p.below.matches(".m").count() + p.below.matches("[0]").count(),
            31
        );
        // An empty map at the 32nd level is refused too (as DynamoDB does).
        assert!(value_problem(&nest(31, AttributeValue::M(Item::new())), 0).is_some());
        // A value set one level down counts the level it is set at.
        assert!(value_problem(&nest(31, leaf()), 1).is_some());
        assert!(value_problem(&nest(30, leaf()), 1).is_none());
        // Thousands of levels: refused without walking them all.
        let deep = nest(5000, leaf());
        assert!(value_problem(&deep, 0).is_some());
        std::mem::forget(deep); // dropping it recursively could overflow a test thread's stack
    }
}
