//! Drift between a committed schema snapshot and the code, checked at
//! compile time: the `DynamoTable` derive emits a `const` calling these
//! with the snapshot's values and the entities' `META`; a change that
//! strands stored items fails the build (DYNA501–DYNA506) unless a
//! migration in the table's list covers it.
//!
//! | code | change |
//! |---|---|
//! | DYNA501 | a table key template or attribute (width of a format included) |
//! | DYNA502 | a discriminator or its attribute |
//! | DYNA503 | a field's stored attribute name |
//! | DYNA504 | an index's kind, key attributes or templates |
//! | DYNA505 | an entity removed from the table |
//! | DYNA506 | a field's type, or a new field old items lack (no `#[dynamo(default)]`) |

use super::migration::{Kind, Migration};
use super::snapshot::{SnapEntity, SnapKey};
use crate::consistency::str_eq;
use crate::const_msg::ConstMessage;
use crate::entity::{EntityMeta, IndexKind, KeyMeta};

/// Whether a rekey of `type_name` is declared (it rewrites every item).
const fn rekeyed(type_name: &str, ms: &[Migration]) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Rekey { to, .. } = ms[i].kind {
            if str_eq(to.type_name, type_name) {
                return true;
            }
        }
        i += 1;
    }
    false
}

const fn backfilled(type_name: &str, ms: &[Migration]) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Backfill { entity, .. } = ms[i].kind {
            if str_eq(entity.type_name, type_name) {
                return true;
            }
        }
        i += 1;
    }
    rekeyed(type_name, ms)
}

const fn renamed(type_name: &str, from: &str, to: &str, ms: &[Migration]) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Rename {
            entity,
            from: f,
            to: t,
        } = ms[i].kind
        {
            if str_eq(entity.type_name, type_name) && str_eq(f, from) && str_eq(t, to) {
                return true;
            }
        }
        i += 1;
    }
    rekeyed(type_name, ms)
}

const fn dropped(discriminator: &str, ms: &[Migration]) -> bool {
    let mut i = 0;
    while i < ms.len() {
        if let Kind::Drop {
            discriminator: d, ..
        } = ms[i].kind
        {
            if str_eq(d, discriminator) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Characters in `s`'s first `bytes` bytes.
const fn chars(s: &str, bytes: usize) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    let mut n = 0;
    while i < bytes && i < b.len() {
        if b[i] & 0xC0 != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The first byte where two texts differ.
const fn first_difference(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() && a[i] == b[i] {
        i += 1;
    }
    i
}

const fn head(code: &str, table: &str, type_name: &str) -> ConstMessage {
    ConstMessage::EMPTY
        .push(code)
        .push(": in table `")
        .push(table)
        .push("`, `")
        .push(type_name)
        .push("` ")
}

/// Both forms of a key, the new one with a caret at the first difference.
const fn was_now(
    m: ConstMessage,
    attr_was: &str,
    was: &str,
    attr_now: &str,
    now: &str,
) -> ConstMessage {
    let m = m
        .push("\n  was: ")
        .push(attr_was)
        .push(" = \"")
        .push(was)
        .push("\"\n  now: ")
        .push(attr_now)
        .push(" = \"")
        .push(now)
        .push("\"\n");
    let at = if str_eq(attr_was, attr_now) {
        7 + chars(attr_now, attr_now.len()) + 4 + chars(now, first_difference(was, now))
    } else {
        7
    };
    m.pad(at).carets(1).push(" first difference")
}

const REKEY_HELP: &str = "\n  = help: keep the old struct beside the new one, declare Migration::rekey::<Old, New>(..) in the table's migrations, run db.migrate(..), then rewrite the snapshot (DYNAKEY_SCHEMA=overwrite cargo test)";

const fn key_drift(
    table: &str,
    e: &EntityMeta,
    which: &str,
    was: Option<SnapKey>,
    now: Option<&KeyMeta>,
    ms: &[Migration],
) -> ConstMessage {
    let changed = match (was, now) {
        (Some(w), Some(n)) => !str_eq(w.attr, n.attr) || !str_eq(w.template, n.template),
        (None, None) => false,
        _ => true,
    };
    if !changed || rekeyed(e.type_name, ms) {
        return ConstMessage::EMPTY;
    }
    let m = head("DYNA501", table, e.type_name)
        .push("changed its ")
        .push(which)
        .push(", so every stored item is under a key the code no longer builds or reads");
    let m = match (was, now) {
        (Some(w), Some(n)) => was_now(m, w.attr, w.template, n.attr, n.template),
        (Some(w), None) => m
            .push("\n  was: ")
            .push(w.attr)
            .push(" = \"")
            .push(w.template)
            .push("\"\n  now: none"),
        (None, Some(n)) => m
            .push("\n  was: none\n  now: ")
            .push(n.attr)
            .push(" = \"")
            .push(n.template)
            .push("\""),
        (None, None) => m,
    };
    m.push(REKEY_HELP)
}

const fn index_drift(
    table: &str,
    e: &EntityMeta,
    was: &SnapEntity,
    ms: &[Migration],
) -> ConstMessage {
    let mut i = 0;
    while i < was.indexes.len() {
        let w = &was.indexes[i];
        let mut j = 0;
        while j < e.indexes.len() {
            let n = &e.indexes[j];
            if str_eq(w.name, n.name) {
                let global = matches!(n.kind, IndexKind::Global);
                let sk_same = match (&w.sk, &n.sk) {
                    (Some(a), Some(b)) => str_eq(a.attr, b.attr) && str_eq(a.template, b.template),
                    (None, None) => true,
                    _ => false,
                };
                let same = w.global == global
                    && str_eq(w.pk.attr, n.pk.attr)
                    && str_eq(w.pk.template, n.pk.template)
                    && sk_same;
                if !same && !backfilled(e.type_name, ms) {
                    let m = head("DYNA504", table, e.type_name)
                        .push("changed index `")
                        .push(n.name)
                        .push("`, so the index keys of stored items are not what the code writes");
                    let m = if str_eq(w.pk.template, n.pk.template) {
                        match (&w.sk, &n.sk) {
                            (Some(a), Some(b)) => {
                                was_now(m, a.attr, a.template, b.attr, b.template)
                            }
                            _ => m,
                        }
                    } else {
                        was_now(m, w.pk.attr, w.pk.template, n.pk.attr, n.pk.template)
                    };
                    return m.push("\n  = help: declare Migration::backfill::<").push(e.type_name).push(">(..) in the table's migrations and run db.migrate(..) (db.sync_table(..) first when the index is new to the table)");
                }
            }
            j += 1;
        }
        i += 1;
    }
    ConstMessage::EMPTY
}

const fn field_drift(
    table: &str,
    e: &EntityMeta,
    was: &SnapEntity,
    ms: &[Migration],
) -> ConstMessage {
    let mut j = 0;
    while j < e.fields.len() {
        let n = &e.fields[j];
        let mut found = false;
        let mut i = 0;
        while i < was.fields.len() {
            let w = &was.fields[i];
            if str_eq(w.name, n.name) {
                found = true;
                if !str_eq(w.attr, n.attr) && !renamed(e.type_name, w.attr, n.attr, ms) {
                    return head("DYNA503", table, e.type_name)
                        .push("stores field `")
                        .push(n.name)
                        .push("` as `")
                        .push(n.attr)
                        .push("` where stored items hold `")
                        .push(w.attr)
                        .push("`, so they read without it\n  = help: declare Migration::rename_attribute::<")
                        .push(e.type_name)
                        .push(">(.., \"")
                        .push(w.attr)
                        .push("\", \"")
                        .push(n.attr)
                        .push("\") in the table's migrations and run db.migrate(..)");
                }
                if !str_eq(w.ty, n.ty) && !rekeyed(e.type_name, ms) {
                    return head("DYNA506", table, e.type_name)
                        .push("changed the type of field `")
                        .push(n.name)
                        .push("` from `")
                        .push(w.ty)
                        .push("` to `")
                        .push(n.ty)
                        .push("`, so stored items may not read\n  = help: keep the old struct and declare Migration::rekey::<Old, New>(..), or keep the type");
                }
            }
            i += 1;
        }
        if !found && !n.optional && !n.default && !rekeyed(e.type_name, ms) {
            return head("DYNA506", table, e.type_name)
                .push("has a new field `")
                .push(n.name)
                .push("` that stored items lack, and reading them would fail\n  = help: make it an Option, or give it #[dynamo(default)] (and Migration::fill_default::<")
                .push(e.type_name)
                .push(">(.., \"")
                .push(n.attr)
                .push("\") to write the default into old items)");
        }
        j += 1;
    }
    ConstMessage::EMPTY
}

/// Drift of one entity the snapshot recorded and the table still lists.
pub const fn entity(
    table: &str,
    e: &EntityMeta,
    was: &SnapEntity,
    ms: &[Migration],
) -> ConstMessage {
    if (!str_eq(was.discriminator, e.discriminator)
        || !str_eq(was.discriminator_attr, e.discriminator_attr))
        && !rekeyed(e.type_name, ms)
    {
        return head("DYNA502", table, e.type_name)
            .push("changed its discriminator from \"")
            .push(was.discriminator)
            .push("\" in `")
            .push(was.discriminator_attr)
            .push("` to \"")
            .push(e.discriminator)
            .push("\" in `")
            .push(e.discriminator_attr)
            .push("`, so typed reads skip every stored item")
            .push(REKEY_HELP);
    }
    let m = key_drift(table, e, "partition key", Some(was.pk), Some(&e.pk), ms);
    if !m.is_empty() {
        return m;
    }
    let m = key_drift(table, e, "sort key", was.sk, e.sk.as_ref(), ms);
    if !m.is_empty() {
        return m;
    }
    let m = index_drift(table, e, was, ms);
    if !m.is_empty() {
        return m;
    }
    field_drift(table, e, was, ms)
}

/// An entity the snapshot recorded that the table no longer lists.
pub const fn removed(table: &str, was: &SnapEntity, ms: &[Migration]) -> ConstMessage {
    if dropped(was.discriminator, ms) {
        return ConstMessage::EMPTY;
    }
    ConstMessage::EMPTY
        .push("DYNA505: table `")
        .push(table)
        .push("` no longer lists `")
        .push(was.type_name)
        .push("`, whose stored items (discriminator \"")
        .push(was.discriminator)
        .push("\") nothing reads any more\n  = help: keep it in the table, or declare Migration::drop_entity(.., \"")
        .push(was.discriminator)
        .push("\", \"")
        .push(was.discriminator_attr)
        .push("\") in the table's migrations and run db.migrate(..)")
}

/// Drift of a whole table: each recorded entity is matched to a listed one
/// by type name, else by discriminator (an entity renamed in the code, its
/// old shape kept as another struct, is the same stored data).
pub const fn table(
    table: &str,
    now: &[&EntityMeta],
    was: &[SnapEntity],
    ms: &[Migration],
) -> ConstMessage {
    let mut i = 0;
    while i < was.len() {
        let w = &was[i];
        let mut found: Option<&EntityMeta> = None;
        let mut j = 0;
        while j < now.len() {
            if str_eq(now[j].type_name, w.type_name) {
                found = Some(now[j]);
            }
            j += 1;
        }
        if found.is_none() {
            let mut j = 0;
            while j < now.len() {
                if str_eq(now[j].discriminator, w.discriminator) {
                    found = Some(now[j]);
                }
                j += 1;
            }
        }
        let m = match found {
            Some(e) => entity(table, e, w, ms),
            None => removed(table, w, ms),
        };
        if !m.is_empty() {
            return m;
        }
        i += 1;
    }
    ConstMessage::EMPTY
}
