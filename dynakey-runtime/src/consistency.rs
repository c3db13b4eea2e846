//! Checks across the entities of one table, run by the compiler: the
//! derive's `#[derive(DynamoTable)]` asserts each of these in a `const`, so a
//! table whose entities disagree does not build (DYNA301–DYNA305).

use crate::entity::{EntityMeta, IndexMeta, KeyMeta};

/// `a == b` in a const context.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `s` starts with `prefix`, in a const context.
pub const fn starts_with(s: &str, prefix: &str) -> bool {
    let (s, p) = (s.as_bytes(), prefix.as_bytes());
    if p.len() > s.len() {
        return false;
    }
    let mut i = 0;
    while i < p.len() {
        if s[i] != p[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn opt_eq(a: Option<&KeyMeta>, b: Option<&KeyMeta>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => str_eq(a.attr, b.attr),
        _ => false,
    }
}

/// DYNA303: both entities store their table key in the same attributes.
///
/// ```
/// use dynakey_runtime::__private::same_table_key;
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
/// use dynakey_runtime::Entity;
/// assert!(same_table_key(Note::META, Profile::META));
/// ```
pub const fn same_table_key(a: &EntityMeta, b: &EntityMeta) -> bool {
    str_eq(a.pk.attr, b.pk.attr) && opt_eq(a.sk.as_ref(), b.sk.as_ref())
}

const fn index_agrees(a: &IndexMeta, b: &IndexMeta) -> bool {
    let same_name = str_eq(a.name, b.name);
    let same_kind = matches!(
        (a.kind, b.kind),
        (crate::IndexKind::Global, crate::IndexKind::Global)
            | (crate::IndexKind::Local, crate::IndexKind::Local)
    );
    let same_pk = str_eq(a.pk.attr, b.pk.attr);
    let same_sk = opt_eq(a.sk.as_ref(), b.sk.as_ref());
    if same_name {
        // One index: one kind and one set of key attributes.
        same_kind && same_pk && same_sk
    } else {
        // Two indexes: no shared key attribute (a local index's partition
        // key is the table's, shared by design).
        let pk_clash = same_pk
            && matches!(a.kind, crate::IndexKind::Global)
            && matches!(b.kind, crate::IndexKind::Global);
        let sk_clash = match (&a.sk, &b.sk) {
            (Some(x), Some(y)) => str_eq(x.attr, y.attr),
            _ => false,
        };
        !pk_clash && !sk_clash
    }
}

/// DYNA304: every index the two entities declare agrees: one name, one
/// kind and one pair of attributes.
pub const fn indexes_agree(a: &EntityMeta, b: &EntityMeta) -> bool {
    let mut i = 0;
    while i < a.indexes.len() {
        let mut j = 0;
        while j < b.indexes.len() {
            if !index_agrees(&a.indexes[i], &b.indexes[j]) {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

/// One key's sort-key prefix swallows the other's in a partition they can
/// share: equal partition prefixes, and `a`'s sort prefix is a prefix of
/// `b`'s (an empty one swallows everything).
const fn key_shadows(
    a_pk: &KeyMeta,
    a_sk: Option<&KeyMeta>,
    b_pk: &KeyMeta,
    b_sk: Option<&KeyMeta>,
) -> bool {
    if !str_eq(a_pk.prefix, b_pk.prefix) {
        return false;
    }
    // A constant partition key is one partition; templated ones with the
    // same prefix may hold equal values.
    match (a_sk, b_sk) {
        (Some(a), Some(b)) => starts_with(b.prefix, a.prefix),
        _ => false,
    }
}

/// DYNA305: a typed query of `a` (`a`'s sort-key prefix) would also read
/// `b`'s items, in the table or in an index they share.
pub const fn shadows(a: &EntityMeta, b: &EntityMeta) -> bool {
    if key_shadows(&a.pk, a.sk.as_ref(), &b.pk, b.sk.as_ref()) {
        return true;
    }
    let mut i = 0;
    while i < a.indexes.len() {
        let mut j = 0;
        while j < b.indexes.len() {
            let (x, y) = (&a.indexes[i], &b.indexes[j]);
            if str_eq(x.name, y.name) && key_shadows(&x.pk, x.sk.as_ref(), &y.pk, y.sk.as_ref()) {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}
