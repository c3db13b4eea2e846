//! The cross-entity checks of `#[derive(DynamoTable)]` and
//! `#[derive(DynamoUnion)]` (DYNA301–DYNA305), run by the compiler: the
//! derive cannot see other types' attributes, so it emits a `const` calling
//! these over the entities' `META`, and a non-empty message fails the
//! build. Messages are assembled at compile time and name both entities,
//! their templates, and the fix.

use crate::consistency::{indexes_agree, same_table_key, starts_with, str_eq};
pub use crate::const_msg::ConstMessage;
use crate::entity::{EntityMeta, KeyMeta};
use crate::key::{PartFormat, TemplatePart};

const fn key(m: ConstMessage, k: &KeyMeta) -> ConstMessage {
    m.push(k.attr).push(" = \"").push(k.template).push("\"")
}

/// `Type` (sk = "…") for messages.
const fn who(m: ConstMessage, e: &EntityMeta, k: &KeyMeta) -> ConstMessage {
    key(m.push("`").push(e.type_name).push("` ("), k).push(")")
}

/// Whether a key's last placeholder keeps its text as it is (`path`).
pub(crate) const fn has_path(k: &KeyMeta) -> bool {
    let parts = k.key.parts();
    let mut i = 0;
    while i < parts.len() {
        if let TemplatePart::Field {
            format: PartFormat::Path,
            ..
        } = parts[i]
        {
            return true;
        }
        i += 1;
    }
    false
}

/// Where `a`'s sort-key prefix swallows `b`'s in a partition they can
/// share: the table, or an index of both; with the keys involved.
pub(crate) struct Overlap<'a> {
    /// The index, or `None` for the table.
    pub(crate) place: Option<&'a str>,
    pub(crate) a_pk: &'a KeyMeta,
    pub(crate) a_sk: &'a KeyMeta,
    pub(crate) b_sk: &'a KeyMeta,
}

pub(crate) const fn overlap_at<'a>(
    place: Option<&'a str>,
    a_pk: &'a KeyMeta,
    a_sk: Option<&'a KeyMeta>,
    b_pk: &'a KeyMeta,
    b_sk: Option<&'a KeyMeta>,
) -> Option<Overlap<'a>> {
    match (a_sk, b_sk) {
        (Some(x), Some(y))
            if str_eq(a_pk.prefix, b_pk.prefix) && starts_with(y.prefix, x.prefix) =>
        {
            Some(Overlap {
                place,
                a_pk,
                a_sk: x,
                b_sk: y,
            })
        }
        _ => None,
    }
}

const fn find_overlap<'a>(a: &'a EntityMeta, b: &'a EntityMeta) -> Option<Overlap<'a>> {
    if let Some(o) = overlap_at(None, &a.pk, a.sk.as_ref(), &b.pk, b.sk.as_ref()) {
        return Some(o);
    }
    let mut i = 0;
    while i < a.indexes.len() {
        let mut j = 0;
        while j < b.indexes.len() {
            let (x, y) = (&a.indexes[i], &b.indexes[j]);
            if str_eq(x.name, y.name) {
                if let Some(o) =
                    overlap_at(Some(x.name), &x.pk, x.sk.as_ref(), &y.pk, y.sk.as_ref())
                {
                    return Some(o);
                }
            }
            j += 1;
        }
        i += 1;
    }
    None
}

/// DYNA305 for `a` over `b`: empty when fine or allowed.
const fn dyna305(table: &str, a: &EntityMeta, b: &EntityMeta, allowed: bool) -> ConstMessage {
    let Some(o) = find_overlap(a, b) else {
        return ConstMessage::EMPTY;
    };
    let path = has_path(o.a_sk);
    if allowed && !path {
        return ConstMessage::EMPTY;
    }
    let m = ConstMessage::EMPTY.push("DYNA305: in ");
    let m = match o.place {
        Some(ix) => m.push("index `").push(ix).push("` of "),
        None => m,
    };
    let m = m.push("table `").push(table).push("`, the prefix of ");
    let m = who(m, a, o.a_sk).push(" begins every sort key of ");
    let m = who(m, b, o.b_sk).push(", in a partition they can share (");
    let m = key(m, o.a_pk).push(")");
    if path {
        let m = m
            .push(": its last field is a `path`, so a value of `")
            .push(a.type_name);
        return m
            .push("` can write a key of `")
            .push(b.type_name)
            .push("`, and no table can allow that\n  = help: give them distinct literal prefixes (e.g. \"FOLDER#\" and \"FILE#\")");
    }
    m.push(": a typed query of `")
        .push(a.type_name)
        .push("` also reads (and pays for) `")
        .push(b.type_name)
        .push("`'s items, then leaves them out by discriminator\n  = help: give them distinct literal prefixes, or accept the cost for this table with #[dynamo(overlap(")
        .push(a.type_name)
        .push(", ")
        .push(b.type_name)
        .push("))]")
}

/// DYNA301 and DYNA302, for a table or a union.
const fn discriminators(what: &str, name: &str, a: &EntityMeta, b: &EntityMeta) -> ConstMessage {
    if str_eq(a.discriminator, b.discriminator) {
        return ConstMessage::EMPTY
            .push("DYNA301: in ")
            .push(what)
            .push(" `")
            .push(name)
            .push("`, `")
            .push(a.type_name)
            .push("` and `")
            .push(b.type_name)
            .push("` have the same discriminator \"")
            .push(a.discriminator)
            .push("\", so their items cannot be told apart\n  = help: give one of them another #[dynamo(entity = \"...\")]");
    }
    if !str_eq(a.discriminator_attr, b.discriminator_attr) {
        return ConstMessage::EMPTY
            .push("DYNA302: in ")
            .push(what)
            .push(" `")
            .push(name)
            .push("`, `")
            .push(a.type_name)
            .push("` stores its discriminator in `")
            .push(a.discriminator_attr)
            .push("` and `")
            .push(b.type_name)
            .push("` in `")
            .push(b.discriminator_attr)
            .push("`; a table has one\n  = help: give both the same #[dynamo(discriminator_attr = \"...\")]");
    }
    ConstMessage::EMPTY
}

/// The checks of two variants of a `DynamoUnion`.
pub const fn union_pair(union: &str, a: &EntityMeta, b: &EntityMeta) -> ConstMessage {
    discriminators("union", union, a, b)
}

/// The checks of two entities of a `DynamoTable`; `a_over_b` / `b_over_a`
/// say whether the table allows each one's sort-key prefix to swallow the
/// other's (`#[dynamo(overlap(A, B))]`).
pub const fn table_pair(
    table: &str,
    a: &EntityMeta,
    b: &EntityMeta,
    a_over_b: bool,
    b_over_a: bool,
) -> ConstMessage {
    let m = discriminators("table", table, a, b);
    if !m.is_empty() {
        return m;
    }
    if !same_table_key(a, b) {
        let m = ConstMessage::EMPTY
            .push("DYNA303: in table `")
            .push(table)
            .push("`, ");
        let m = who(m, a, &a.pk).push(" and ");
        return who(m, b, &b.pk).push(" store the table key in different attributes (or one has a sort key and the other not)\n  = help: use the same pk_attr and sk_attr, and a sort key in both or neither");
    }
    if !indexes_agree(a, b) {
        return ConstMessage::EMPTY
            .push("DYNA304: in table `")
            .push(table)
            .push("`, `")
            .push(a.type_name)
            .push("` and `")
            .push(b.type_name)
            .push("` disagree on an index: one name must have one kind and one pair of key attributes, and two indexes cannot share an attribute\n  = help: give indexes of one name the same pk_attr/sk_attr, and different names different attributes");
    }
    let m = dyna305(table, a, b, a_over_b);
    if !m.is_empty() {
        return m;
    }
    // Equal prefixes overlap both ways: reported once, above.
    match find_overlap(a, b) {
        Some(_) => ConstMessage::EMPTY,
        None => dyna305(table, b, a, b_over_a),
    }
}
