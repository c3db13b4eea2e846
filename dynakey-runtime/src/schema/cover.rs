//! Whether a table's migrations cover a change that would strand stored
//! items. The table's derive finds each change of the code against the
//! schema snapshot at expansion; whether the `const` list of migrations
//! covers it is known only to the compiler, so the derive asks these
//! `const fn`s, and an uncovered change is an unmet trait bound on
//! [`Covered<false>`] carrying the change's message (DYNA501–DYNA506).

use super::migration::{Kind, Migration};

/// The answer of one of the functions below, as a type: the derive's
/// check of a change is implemented for `Covered<true>` only.
pub struct Covered<const B: bool>;

const fn same(a: &str, b: &str) -> bool {
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

/// A rekey of `type_name` is declared (it rewrites every item: it covers
/// any change of the entity).
pub const fn rekeyed(ms: &[Migration], type_name: &str) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Rekey { to, .. } = ms[i].kind {
            if same(to.type_name, type_name) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// A backfill (or a rekey) of `type_name` is declared: it rewrites index keys.
pub const fn backfilled(ms: &[Migration], type_name: &str) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Backfill { entity, .. } = ms[i].kind {
            if same(entity.type_name, type_name) {
                return true;
            }
        }
        i += 1;
    }
    rekeyed(ms, type_name)
}

/// A rename of attribute `from` to `to` of `type_name` (or a rekey) is
/// declared.
pub const fn renamed(ms: &[Migration], type_name: &str, from: &str, to: &str) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Rename {
            entity,
            from: f,
            to: t,
        } = ms[i].kind
        {
            if same(entity.type_name, type_name) && same(f, from) && same(t, to) {
                return true;
            }
        }
        i += 1;
    }
    rekeyed(ms, type_name)
}

/// The items of `discriminator` are dropped.
pub const fn dropped(ms: &[Migration], discriminator: &str) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Drop {
            discriminator: d, ..
        } = ms[i].kind
        {
            if same(d, discriminator) {
                return true;
            }
        }
        i += 1;
    }
    false
}
