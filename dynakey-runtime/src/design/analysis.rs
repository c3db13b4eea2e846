//! What the views show, worked out once from the entities' metadata:
//! where each key lives, which entities share a partition and in what
//! order, example keys, formats, which fields feed which key, which items
//! an index holds, and the sort-key overlaps DYNA305 would report.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use time::macros::{date, datetime};

use super::{EntityDesign, TableDesign};
use crate::entity::{EntityMeta, IndexKey, IndexKind, IndexMeta, KeyAttrType, KeyMeta, NativeAttr};
use crate::error::KeyFormatError;
use crate::key::{form, KeyWriter, PartFormat, TemplatePart};

/// Where a key lives: the table or an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Place<'a> {
    Table,
    Index(&'a str),
}

impl Place<'_> {
    /// `table` or `index GSI1`.
    pub(crate) fn label(&self) -> String {
        match self {
            Place::Table => "table".to_owned(),
            Place::Index(n) => format!("index {n}"),
        }
    }
}

/// The keys one entity writes at one place.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keys<'a> {
    /// Index into the design's entities.
    pub(crate) entity: usize,
    pub(crate) pk: &'a KeyMeta,
    pub(crate) sk: Option<&'a KeyMeta>,
}

/// Entities whose partition keys have one shape, so their items can share
/// a partition at one place (an item collection), in sort-key order.
#[derive(Debug, Clone)]
pub(crate) struct Collection<'a> {
    pub(crate) place: Place<'a>,
    /// The partition key's shape, e.g. `USER#<…>`.
    pub(crate) shape: String,
    pub(crate) members: Vec<Keys<'a>>,
}

/// One index as the table defines it, and the entities that write it.
#[derive(Debug, Clone)]
pub(crate) struct IndexInfo<'a> {
    pub(crate) name: &'a str,
    pub(crate) kind: IndexKind,
    /// The partition key attributes with their types (one, a string, for
    /// a template index).
    pub(crate) pk: Vec<(&'a str, KeyAttrType)>,
    /// The sort key attributes with their types.
    pub(crate) sk: Vec<(&'a str, KeyAttrType)>,
    /// Whether the index has a native key (the items' own attributes).
    pub(crate) native: bool,
    pub(crate) writers: Vec<(usize, &'a IndexMeta)>,
}

impl IndexInfo<'_> {
    /// The first partition key attribute (the only one of a template
    /// index).
    pub(crate) fn pk_attr(&self) -> &str {
        self.pk.first().map_or("", |(a, _)| a)
    }

    /// The index's key attributes in words: `gsi1pk / gsi1sk`, or for a
    /// native key each attribute with its type, `tenant` S + `region` S /
    /// `total` N.
    pub(crate) fn keys_text(&self, code: fn(&str) -> String) -> String {
        let part = |attrs: &[(&str, KeyAttrType)]| -> String {
            if self.native {
                let each: Vec<String> = attrs
                    .iter()
                    .map(|(a, t)| format!("{} {t}", code(a)))
                    .collect();
                each.join(" + ")
            } else {
                attrs
                    .iter()
                    .map(|(a, _)| code(a))
                    .collect::<Vec<_>>()
                    .join(" + ")
            }
        };
        let native = if self.native { "native key " } else { "" };
        match self.sk.is_empty() {
            true => format!("{native}{}", part(&self.pk)),
            false => format!("{native}{} / {}", part(&self.pk), part(&self.sk)),
        }
    }
}

/// A native key's attributes in words: `tenant` + `region`.
pub(crate) fn native_text(attrs: &[NativeAttr], code: fn(&str) -> String) -> String {
    let each: Vec<String> = attrs.iter().map(|a| code(a.attr)).collect();
    each.join(" + ")
}

/// What one entity writes into index `ix`, in words: its partition and
/// sort key templates (`template` draws one), or a native key's attributes.
pub(crate) fn writer_keys(
    ix: &IndexMeta,
    code: fn(&str) -> String,
    template: &dyn Fn(&KeyMeta) -> String,
) -> (String, String) {
    match &ix.key {
        IndexKey::Template { pk, sk } => {
            (template(pk), sk.as_ref().map_or("—".to_owned(), template))
        }
        IndexKey::Native(n) if n.sk.is_empty() => (native_text(n.pk, code), "—".to_owned()),
        IndexKey::Native(n) => (native_text(n.pk, code), native_text(n.sk, code)),
    }
}

/// Every native key attribute an entity's indexes read, labelled
/// `ByRegion pk`, `ByRegion sk`, in key order.
pub(crate) fn native_keys(m: &EntityMeta) -> Vec<(String, &'static NativeAttr)> {
    let mut out = Vec::new();
    for ix in m.indexes {
        if let Some(n) = ix.native() {
            out.extend(n.pk.iter().map(|a| (format!("{} pk", ix.name), a)));
            out.extend(n.sk.iter().map(|a| (format!("{} sk", ix.name), a)));
        }
    }
    out
}

/// An example value of a native key attribute: an example item's own
/// attribute.
pub(crate) fn native_example(e: &EntityDesign, a: &NativeAttr) -> Example {
    if e.examples.is_empty() {
        return Example::None;
    }
    e.examples
        .iter()
        .find_map(|it| it.get(a.attr))
        .map_or(Example::Absent, |v| Example::Value(super::text::value(v)))
}

/// A sort-key prefix of one entity that begins every sort key of another
/// in partitions they can share (DYNA305).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Overlap<'a> {
    pub(crate) place: Place<'a>,
    /// The entity whose typed query also reads `b`'s items.
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) pk: &'a KeyMeta,
    pub(crate) a_sk: &'a KeyMeta,
    pub(crate) b_sk: &'a KeyMeta,
    /// `a`'s sort key ends in a `path` field: no table can allow this.
    pub(crate) path: bool,
}

/// An example key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Example {
    /// From an example value's `to_item()`.
    Value(String),
    /// Every example value leaves this key out (a sparse index).
    Absent,
    /// Made up from the template and its formats (no example value).
    Illustrative(String),
    /// The made-up values do not fit the formats.
    None,
}

/// The table's key attributes (every entity of a table agrees: DYNA303).
pub(crate) fn table_key(d: &TableDesign) -> (&'static str, Option<&'static str>) {
    match d.entities.first() {
        Some(e) => (e.meta.pk.attr, e.meta.sk.as_ref().map(|k| k.attr)),
        None => ("pk", Some("sk")),
    }
}

/// The discriminator attribute (one per table: DYNA302).
pub(crate) fn discriminator_attr(d: &TableDesign) -> &'static str {
    d.entities
        .first()
        .map_or("_type", |e| e.meta.discriminator_attr)
}

/// The table's indexes by name, with the entities that write each.
pub(crate) fn indexes(d: &TableDesign) -> Vec<IndexInfo<'static>> {
    let mut by_name: BTreeMap<&'static str, IndexInfo<'static>> = BTreeMap::new();
    for (i, e) in d.entities.iter().enumerate() {
        for ix in e.meta.indexes {
            by_name
                .entry(ix.name)
                .or_insert_with(|| IndexInfo {
                    name: ix.name,
                    kind: ix.kind,
                    pk: ix.pk_attrs().collect(),
                    sk: ix.sk_attrs().collect(),
                    native: ix.is_native(),
                    writers: Vec::new(),
                })
                .writers
                .push((i, ix));
        }
    }
    by_name.into_values().collect()
}

/// Every key attribute of the table: its own, then each index's.
pub(crate) fn key_attrs(d: &TableDesign) -> Vec<&'static str> {
    let (pk, sk) = table_key(d);
    let mut out = vec![pk];
    out.extend(sk);
    for ix in indexes(d) {
        for (a, _) in ix.pk.iter().chain(&ix.sk).copied() {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// The table, then every index by name.
pub(crate) fn places(d: &TableDesign) -> Vec<Place<'static>> {
    let mut out = vec![Place::Table];
    out.extend(indexes(d).iter().map(|ix| Place::Index(ix.name)));
    out
}

/// The keys each entity writes at `place`.
pub(crate) fn keys_at(d: &TableDesign, place: Place<'_>) -> Vec<Keys<'static>> {
    d.entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| keys_of(i, e.meta, place))
        .collect()
}

fn keys_of(i: usize, m: &'static EntityMeta, place: Place<'_>) -> Option<Keys<'static>> {
    match place {
        Place::Table => Some(Keys {
            entity: i,
            pk: &m.pk,
            sk: m.sk.as_ref(),
        }),
        // A native index has no templates: its partitions are the values
        // of its attributes, which no template analysis applies to.
        Place::Index(n) => m
            .index(n)
            .and_then(IndexMeta::template)
            .map(|(pk, sk)| Keys { entity: i, pk, sk }),
    }
}

/// A key's shape: its literal text with each placeholder as `<…>` (or its
/// format, `<d6>`), so keys of one shape can hold the same text.
pub(crate) fn shape(k: &KeyMeta) -> String {
    let mut out = String::new();
    for p in k.key.parts() {
        match *p {
            TemplatePart::Lit(l) => out.push_str(l),
            TemplatePart::Field { format, .. } => {
                let code = format_code(format);
                out.push('<');
                out.push_str(if code.is_empty() { "…" } else { &code });
                out.push('>');
            }
        }
    }
    if k.key.is_raw() {
        out = "<… as is>".to_owned();
    }
    out
}

/// The item collections at every place: members in sort-key order (by
/// the literal prefix of their sort key, then the template).
pub(crate) fn collections(d: &TableDesign) -> Vec<Collection<'static>> {
    let mut out = Vec::new();
    for place in places(d) {
        let mut by_shape: BTreeMap<String, Vec<Keys<'static>>> = BTreeMap::new();
        for k in keys_at(d, place) {
            by_shape.entry(shape(k.pk)).or_default().push(k);
        }
        for (shape, mut members) in by_shape {
            members.sort_by(|a, b| {
                let key = |k: &Keys<'_>| k.sk.map(|s| (s.prefix, s.template));
                key(a).cmp(&key(b))
            });
            out.push(Collection {
                place,
                shape,
                members,
            });
        }
    }
    out
}

/// The format code of a placeholder as written in a template (`d6`,
/// `n8.2`, `rev`, `path`; empty for none).
pub(crate) fn format_code(f: PartFormat) -> String {
    match f {
        PartFormat::Text => String::new(),
        PartFormat::Padded(w) => format!("d{w}"),
        PartFormat::Signed(w) => format!("n{w}"),
        PartFormat::Decimal(w, p) => format!("n{w}.{p}"),
        PartFormat::Reverse => "rev".to_owned(),
        PartFormat::Path => "path".to_owned(),
    }
}

/// How a placeholder is written, in words.
pub(crate) fn format_words(f: PartFormat, k: &KeyMeta) -> String {
    match f {
        PartFormat::Text if k.key.is_raw() => "the value as it is (a bare placeholder)".to_owned(),
        PartFormat::Text => format!(
            "its text form; where its width varies, every character up to {} is written as {}XX",
            k.key.escape(),
            k.key.escape()
        ),
        PartFormat::Padded(w) => format!("unsigned, zero-padded to {w} digits"),
        PartFormat::Signed(w) => format!("signed: a sign and {w} digits (complement below zero)"),
        PartFormat::Decimal(w, p) => {
            format!("signed decimal: a sign, {w} digits, `.` and {p} digits")
        }
        PartFormat::Reverse => "13 digits of 9999999999999 − epoch ms (newest first)".to_owned(),
        PartFormat::Path => {
            "the text as it is, delimiters included (a subtree is a prefix)".to_owned()
        }
    }
}

/// An example of key `k` of entity `e`.
pub(crate) fn example(e: &EntityDesign, k: &KeyMeta) -> Example {
    if !e.examples.is_empty() {
        return e
            .examples
            .iter()
            .find_map(|it| it.get(k.attr))
            .map_or(Example::Absent, |v| Example::Value(super::text::value(v)));
    }
    let mut w = KeyWriter::new(k.key);
    for (name, format) in k.key.fields() {
        let r = match format {
            PartFormat::Text => sample_text(&mut w, e.meta, name),
            PartFormat::Path => w.write_str("docs#2026"),
            PartFormat::Padded(_) => w.write(form::padded(), &7u8),
            PartFormat::Signed(_) => w.write(form::signed(), &7i8),
            PartFormat::Decimal(_, _) => w.write(form::decimal(), &Decimal::new(7, 0)),
            PartFormat::Reverse => w.write(form::reverse(), &datetime!(2026-07-16 09:00 UTC)),
        };
        if r.is_err() {
            return Example::None;
        }
    }
    match w.finish() {
        Ok(s) => Example::Illustrative(s),
        Err(_) => Example::None,
    }
}

/// The uuid an illustrative key shows where a uuid goes (a version 7 one,
/// as `uuid7()` makes).
const SAMPLE_UUID: u128 = 0x0192_f3c4_5e6a_7b8c_9d0e_f1a2_b3c4_d5e6;

/// Writes an illustrative value of text field `name` of `m`: a sample of
/// its type in the form the key stores it (a uuid, an instant, a date, a
/// number, a boolean) where the type is one of those, else the field's
/// name (a string, an enum: the reader sees where the value goes).
fn sample_text(w: &mut KeyWriter, m: &EntityMeta, name: &str) -> Result<(), KeyFormatError> {
    let ty = m
        .fields
        .iter()
        .find(|f| f.name == name)
        .map_or("", |f| f.ty);
    let ty = ty
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty);
    // The last segment of a path (`uuid::Uuid`, `time::OffsetDateTime`).
    let ty = ty.rsplit("::").next().unwrap_or(ty);
    match ty {
        "Uuid" => w.write(form::text(), &uuid::Uuid::from_u128(SAMPLE_UUID)),
        "OffsetDateTime" => w.write(form::text(), &datetime!(2026-07-16 09:00 UTC)),
        "Date" => w.write(form::text(), &date!(2026 - 07 - 16)),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" => w.write(form::text(), &7u8),
        "Decimal" => w.write(form::text(), &Decimal::new(7, 0)),
        "bool" => w.write(form::text(), &true),
        _ => w.write_str(name),
    }
}

/// The keys (as `pk`, `sk`, `GSI1 pk`, ...) a field's value goes into.
pub(crate) fn feeds(m: &EntityMeta, field: &str) -> Vec<String> {
    let mut out = Vec::new();
    let key = |out: &mut Vec<String>, k: &KeyMeta, label: String| {
        if k.fields.contains(&field) {
            out.push(label);
        }
    };
    key(&mut out, &m.pk, "pk".to_owned());
    if let Some(sk) = &m.sk {
        key(&mut out, sk, "sk".to_owned());
    }
    for ix in m.indexes {
        match &ix.key {
            IndexKey::Template { pk, sk } => {
                if ix.kind == IndexKind::Global {
                    key(&mut out, pk, format!("{} pk", ix.name));
                }
                if let Some(sk) = sk {
                    key(&mut out, sk, format!("{} sk", ix.name));
                }
            }
            IndexKey::Native(n) => {
                for (part, attrs) in [("pk", n.pk), ("sk", n.sk)] {
                    if attrs.iter().any(|a| a.field == field) {
                        out.push(format!("{} {part} (native)", ix.name));
                    }
                }
            }
        }
    }
    out
}

/// The fields an index key of `ix` reads, each once, in key order (a
/// local index's partition key is the table's, and not counted).
pub(crate) fn inputs(ix: &IndexMeta) -> Vec<&'static str> {
    match &ix.key {
        IndexKey::Template { sk, .. } if ix.kind == IndexKind::Local => {
            let mut out: Vec<&'static str> = Vec::new();
            for f in sk.iter().flat_map(|k| k.fields) {
                if !out.contains(f) {
                    out.push(f);
                }
            }
            out
        }
        _ => ix.fields(),
    }
}

/// The inputs of `ix` that may be absent (an `Option`, or `omit_empty`).
pub(crate) fn optional_inputs(m: &EntityMeta, ix: &IndexMeta) -> Vec<&'static str> {
    inputs(ix)
        .into_iter()
        .filter(|f| m.fields.iter().any(|x| x.name == *f && x.optional))
        .collect()
}

/// Every sort-key overlap between two entities, at every place they share.
pub(crate) fn overlaps(d: &TableDesign) -> Vec<Overlap<'static>> {
    let mut out = Vec::new();
    for place in places(d) {
        let keys = keys_at(d, place);
        for x in &keys {
            for y in &keys {
                if x.entity == y.entity {
                    continue;
                }
                // `x`'s sort-key prefix swallows `y`'s in a partition
                // they can share.
                let (Some(a_sk), Some(b_sk)) = (x.sk, y.sk) else {
                    continue;
                };
                if x.pk.prefix != y.pk.prefix || !b_sk.prefix.starts_with(a_sk.prefix) {
                    continue;
                }
                // Equal prefixes overlap both ways: reported once.
                if a_sk.prefix == b_sk.prefix && x.entity > y.entity {
                    continue;
                }
                out.push(Overlap {
                    place,
                    a: x.entity,
                    b: y.entity,
                    pk: x.pk,
                    a_sk,
                    b_sk,
                    path: a_sk
                        .key
                        .fields()
                        .any(|(_, f)| f == crate::key::PartFormat::Path),
                });
            }
        }
    }
    out
}

/// A partition key that is one bare placeholder, at a place where other
/// entities write partition keys too: the key is the value as it is, so a
/// value that reads like another entity's key lands in its partitions.
#[derive(Debug, Clone)]
pub(crate) struct BarePartition<'a> {
    pub(crate) place: Place<'a>,
    pub(crate) entity: usize,
    pub(crate) pk: &'a KeyMeta,
    /// The other entities at the place, with their partition keys.
    pub(crate) others: Vec<(usize, &'a KeyMeta)>,
}

/// Every bare partition key that can meet another entity's partitions
/// (in the table and the global indexes; a local index has the table's).
pub(crate) fn bare_partitions(d: &TableDesign) -> Vec<BarePartition<'static>> {
    let globals = indexes(d)
        .into_iter()
        .filter(|ix| ix.kind == IndexKind::Global)
        .map(|ix| Place::Index(ix.name));
    let mut out = Vec::new();
    for place in std::iter::once(Place::Table).chain(globals) {
        let keys = keys_at(d, place);
        for k in keys.iter().filter(|k| k.pk.key.is_raw()) {
            let others: Vec<(usize, &'static KeyMeta)> = keys
                .iter()
                .filter(|o| o.entity != k.entity)
                .map(|o| (o.entity, o.pk))
                .collect();
            if !others.is_empty() {
                out.push(BarePartition {
                    place,
                    entity: k.entity,
                    pk: k.pk,
                    others,
                });
            }
        }
    }
    out
}
