//! The design as Markdown (GitHub-flavoured: tables, code spans).

use std::fmt::Write;

use super::analysis::{
    self, bare_partitions, collections, discriminator_attr, example, feeds, format_code,
    format_words, indexes, native_example, native_keys, native_text, optional_inputs, overlaps,
    table_key, writer_keys, Collection, Example, IndexInfo, Overlap, Place,
};
use super::text::{md_code, md_text};
use super::TableDesign;
use crate::entity::{EntityMeta, IndexKey, IndexKind, IndexMeta, KeyAttrType, KeyMeta, NativeAttr};

/// The whole document.
pub(crate) fn design(d: &TableDesign) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Table {}\n", md_code(d.name()));
    if let Some(text) = d.description() {
        let _ = writeln!(out, "{}\n", md_text(text));
    }
    let _ = writeln!(out, "{}\n", summary(d));
    out.push_str(&item_collections(d));
    out.push_str(&entities(d));
    out.push_str(&index_section(d));
    out.push_str(&super::vectors::markdown(d));
    out.push_str(&sparse_section(d));
    out.push_str(&overlap_section(d));
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// One line: entities, table key, discriminator, indexes.
pub(crate) fn summary(d: &TableDesign) -> String {
    let (pk, sk) = table_key(d);
    let key = match sk {
        Some(sk) => format!("{} / {}", md_code(pk), md_code(sk)),
        None => md_code(pk),
    };
    let ixs = indexes(d);
    let ix_text = if ixs.is_empty() {
        "no secondary index".to_owned()
    } else {
        ixs.iter()
            .map(|i| {
                let native = if i.native { ", native" } else { "" };
                format!("{} ({}{native})", md_code(i.name), kind(i.kind))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let n = d.entities.len();
    format!(
        "{n} {} · table key {key} · discriminator in {} · {ix_text}{}. \
         Drawn by dynakey from the entities' key templates; keys marked *e.g.* are illustrative.",
        if n == 1 { "entity" } else { "entities" },
        md_code(discriminator_attr(d)),
        super::vectors::summary(d, md_code),
    )
}

pub(crate) fn kind(k: IndexKind) -> &'static str {
    match k {
        IndexKind::Global => "global",
        IndexKind::Local => "local",
    }
}

pub(crate) fn example_md(e: &Example) -> String {
    match e {
        Example::Value(s) => md_code(s),
        Example::Illustrative(s) => format!("*e.g.* {}", md_code(s)),
        Example::Absent => "*(left out by every example)*".to_owned(),
        Example::None => "—".to_owned(),
    }
}

fn name(d: &TableDesign, i: usize) -> String {
    md_text(d.entities[i].meta.type_name)
}

fn item_collections(d: &TableDesign) -> String {
    let mut out = String::from("## Item collections\n\n");
    out.push_str(
        "Entities whose partition keys have one shape share partitions: one query of a \
         partition reads their items together, in this sort-key order.\n\n",
    );
    let all = collections(d);
    let (shared, single): (Vec<&Collection<'_>>, Vec<&Collection<'_>>) =
        all.iter().partition(|c| c.members.len() > 1);
    if shared.is_empty() {
        out.push_str("No two entities share a partition.\n\n");
    }
    for c in shared {
        let _ = writeln!(out, "### {} · {}\n", c.place.label(), md_code(&c.shape));
        out.push_str("| sort key | entity | example key |\n|---|---|---|\n");
        for m in &c.members {
            let e = &d.entities[m.entity];
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                m.sk.map_or("—".to_owned(), |k| md_code(k.template)),
                name(d, m.entity),
                key_pair(e, m.pk, m.sk)
            );
        }
        out.push('\n');
    }
    for b in bare_partitions(d) {
        let _ = writeln!(out, "{}\n", bare_sentence(d, &b, md_code, md_text));
    }
    if !single.is_empty() {
        out.push_str("### One entity per partition\n\n");
        out.push_str("| place | partition key | sort key | entity |\n|---|---|---|---|\n");
        for c in single {
            let m = &c.members[0];
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                c.place.label(),
                md_code(m.pk.template),
                m.sk.map_or("—".to_owned(), |k| md_code(k.template)),
                name(d, m.entity)
            );
        }
        out.push('\n');
    }
    out
}

/// `pk / sk` of an example.
fn key_pair(e: &super::EntityDesign, pk: &KeyMeta, sk: Option<&KeyMeta>) -> String {
    let p = example(e, pk);
    match sk {
        None => example_md(&p),
        Some(sk) => {
            let s = example(e, sk);
            match (&p, &s) {
                (Example::Value(a), Example::Value(b)) => {
                    format!("{} / {}", md_code(a), md_code(b))
                }
                (Example::Illustrative(a), Example::Illustrative(b)) => {
                    format!("*e.g.* {} / {}", md_code(a), md_code(b))
                }
                _ => format!("{} / {}", example_md(&p), example_md(&s)),
            }
        }
    }
}

/// Every key an entity writes, labelled: `pk`, `sk`, `GSI1 pk`, ...
pub(crate) fn entity_keys(m: &EntityMeta) -> Vec<(String, &KeyMeta, Option<&IndexMeta>)> {
    let mut out: Vec<(String, &KeyMeta, Option<&IndexMeta>)> = vec![("pk".to_owned(), &m.pk, None)];
    if let Some(sk) = &m.sk {
        out.push(("sk".to_owned(), sk, None));
    }
    // A native index writes no key of its own: see `native_keys`.
    for ix in m.indexes {
        let Some((pk, sk)) = ix.template() else {
            continue;
        };
        if ix.kind == IndexKind::Global {
            out.push((format!("{} pk", ix.name), pk, Some(ix)));
        }
        if let Some(sk) = sk {
            out.push((format!("{} sk", ix.name), sk, Some(ix)));
        }
    }
    out
}

fn entities(d: &TableDesign) -> String {
    let mut out = String::from("## Entities\n\n");
    for e in &d.entities {
        let m = e.meta;
        let _ = writeln!(out, "### {}\n", md_text(m.type_name));
        let mut line = format!(
            "Discriminator {} in {}.",
            md_code(m.discriminator),
            md_code(m.discriminator_attr)
        );
        if let Some(t) = m.ttl_attr {
            let _ = write!(line, " TTL in {} (epoch seconds).", md_code(t));
        }
        if let Some(v) = m.version_attr {
            let _ = write!(line, " Optimistic-lock version in {}.", md_code(v));
        }
        let _ = writeln!(out, "{line}\n");
        out.push_str("| key | attribute | template | example |\n|---|---|---|---|\n");
        let keys = entity_keys(m);
        for (label, k, _) in &keys {
            let _ = writeln!(
                out,
                "| {label} | {} | {} | {} |",
                md_code(k.attr),
                md_code(k.template),
                example_md(&example(e, k))
            );
        }
        for (label, a) in native_keys(m) {
            let _ = writeln!(
                out,
                "| {label} | {} | {} | {} |",
                md_code(a.attr),
                md_text(&native_words(a)),
                example_md(&native_example(e, a))
            );
        }
        out.push('\n');
        let mut parts = String::new();
        for (label, k, _) in &keys {
            for (field, f) in k.key.fields() {
                let code = format_code(f);
                let _ = writeln!(
                    parts,
                    "| {label} | {} | {} | {} |",
                    md_code(field),
                    if code.is_empty() {
                        "—".to_owned()
                    } else {
                        md_code(&code)
                    },
                    md_text(&format_words(f, k))
                );
            }
        }
        if !parts.is_empty() {
            out.push_str("| key | placeholder | format | written as |\n|---|---|---|---|\n");
            out.push_str(&parts);
            out.push('\n');
        }
        out.push_str("| field | attribute | may be absent | feeds |\n|---|---|---|---|\n");
        for f in m.fields {
            let fed = feeds(m, f.name);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                md_code(f.name),
                md_code(f.attr),
                if f.optional { "yes" } else { "no" },
                if fed.is_empty() {
                    "—".to_owned()
                } else {
                    md_text(&fed.join(", "))
                }
            );
        }
        out.push('\n');
    }
    out
}

fn index_section(d: &TableDesign) -> String {
    let ixs = indexes(d);
    let mut out = String::from("## Indexes\n\n");
    if ixs.is_empty() {
        out.push_str("None: every access pattern reads the table's own key.\n\n");
        return out;
    }
    for ix in &ixs {
        let _ = writeln!(out, "### {}\n", md_code(ix.name));
        let _ = writeln!(out, "{}\n", index_line(ix));
        out.push_str("| entity | partition key | sort key | holds |\n|---|---|---|---|\n");
        for (i, m) in &ix.writers {
            let (pk, sk) = writer_keys(m, md_code, &|k| md_code(k.template));
            let _ = writeln!(
                out,
                "| {} | {pk} | {sk} | {} |",
                name(d, *i),
                holds(d.entities[*i].meta, m)
            );
        }
        out.push('\n');
    }
    out
}

pub(crate) fn index_line(ix: &IndexInfo<'_>) -> String {
    let keys = ix.keys_text(md_code);
    let read = match ix.kind {
        IndexKind::Global => "eventually consistent reads",
        IndexKind::Local => "the table's partitions; consistent reads allowed",
    };
    format!(
        "A {} index on {keys}, projecting {}; {read}.",
        kind(ix.kind),
        projecting(ix)
    )
}

/// What an index holds of each item, merged over the entities that write
/// it as `create_table` merges them: every attribute if one projects all,
/// else the keys, the discriminator and the attributes they include.
fn projecting(ix: &IndexInfo<'_>) -> String {
    use crate::entity::IndexProjection as P;
    let mut included: Vec<&str> = Vec::new();
    for (_, m) in &ix.writers {
        match m.projection {
            P::All => return "every attribute".to_owned(),
            P::KeysOnly => {}
            P::Include(attrs) => {
                for a in attrs {
                    if !included.contains(a) {
                        included.push(a);
                    }
                }
            }
        }
    }
    if included.is_empty() {
        "the keys and the discriminator (`KEYS_ONLY`)".to_owned()
    } else {
        let list: Vec<String> = included.iter().map(|a| md_code(a)).collect();
        format!(
            "the keys, the discriminator and {} (`INCLUDE`)",
            list.join(", ")
        )
    }
}

/// Which of an entity's items an index holds, in a few words.
pub(crate) fn holds(m: &EntityMeta, ix: &IndexMeta) -> String {
    if !ix.sparse {
        return "every item".to_owned();
    }
    let opt = optional_inputs(m, ix);
    format!(
        "sparse: items with {} set",
        opt.iter()
            .map(|f| md_code(f))
            .collect::<Vec<_>>()
            .join(" and ")
    )
}

fn sparse_section(d: &TableDesign) -> String {
    let mut out = String::from("## Sparse indexes\n\n");
    let mut any = false;
    for e in &d.entities {
        let m = e.meta;
        for ix in m.indexes.iter().filter(|ix| ix.sparse) {
            any = true;
            let _ = writeln!(out, "- {}\n", sparse_sentence(m, ix, md_code, md_text));
        }
    }
    if !any {
        out.push_str("None: every item of an entity that writes an index is in it.\n\n");
    }
    out
}

/// What puts an item of `m` into sparse index `ix` and what takes it out.
pub(crate) fn sparse_sentence(
    m: &EntityMeta,
    ix: &IndexMeta,
    code: fn(&str) -> String,
    text: fn(&str) -> String,
) -> String {
    let opt = optional_inputs(m, ix);
    let list = |v: &[&str]| v.iter().map(|f| code(f)).collect::<Vec<_>>().join(" and ");
    let one = opt.len() == 1;
    let (pk, sk) = match &ix.key {
        IndexKey::Template { pk, sk } => (pk, sk),
        IndexKey::Native(n) => {
            let keys = match n.sk {
                [] => native_text(n.pk, code),
                sk => format!("{} / {}", native_text(n.pk, code), native_text(sk, code)),
            };
            return format!(
                "{} of {} (native key {keys}): an item is in it while {} {} set, as DynamoDB \
                 leaves out of an index an item that lacks a key attribute. An item whose {} \
                 is {} is not in it; an update that sets {} takes the item in, and one that \
                 removes {} takes it out. The item stays in the table.",
                code(ix.name),
                text(m.type_name),
                list(&opt),
                if one { "is" } else { "are" },
                if one {
                    list(&opt)
                } else {
                    "any of them".to_owned()
                },
                code("None"),
                if one { "it" } else { "all of them" },
                if one { "it" } else { "any" },
            );
        }
    };
    let sk = sk
        .as_ref()
        .map_or(String::new(), |k| format!(" / {}", code(k.template)));
    let mut s = format!(
        "{} of {} ({}{sk}): an item is in it while {} {} set. An item written with {} {} \
         (or {} under {}) has no index keys; an update that sets {} takes the item in, and \
         one that removes {} (or sets it to {}) takes it out. The item stays in the table.",
        code(ix.name),
        text(m.type_name),
        code(pk.template),
        list(&opt),
        if one { "is" } else { "are" },
        if one { "it" } else { "any of them" },
        code("None"),
        code("\"\""),
        code("omit_empty"),
        if one { "it" } else { "all of them" },
        if one { "it" } else { "any" },
        code("None"),
    );
    if ix.kind == IndexKind::Global && pk.fields.is_empty() {
        let _ = write!(
            s,
            " Its partition key is the constant {}: the index is one list in one \
             partition, with one partition's throughput.",
            code(pk.template)
        );
    }
    s
}

fn overlap_section(d: &TableDesign) -> String {
    let mut out = String::from("## Sort-key overlaps (DYNA305)\n\n");
    let all = overlaps(d);
    if all.is_empty() {
        out.push_str(
            "None: in every partition two entities can share, each one's sort-key prefix is \
             its own, so a typed query reads only its own items.\n",
        );
        return out;
    }
    out.push_str(
        "A `#[derive(DynamoTable)]` compiles only when each overlap below is allowed with \
         `#[dynamo(overlap(A, B))]` (an overlap through a `path` field never is).\n\n",
    );
    for o in &all {
        let _ = writeln!(out, "- {}\n", overlap_sentence(d, o, md_code, md_text));
    }
    out
}

/// An overlap and what it costs.
pub(crate) fn overlap_sentence(
    d: &TableDesign,
    o: &Overlap<'_>,
    code: fn(&str) -> String,
    text: fn(&str) -> String,
) -> String {
    let a = text(d.entities[o.a].meta.type_name);
    let b = text(d.entities[o.b].meta.type_name);
    let place = match o.place {
        Place::Table => "the table".to_owned(),
        Place::Index(n) => format!("index {}", code(n)),
    };
    let query = format!("begins_with({}, {:?})", o.a_sk.attr, o.a_sk.prefix);
    let mut s = format!(
        "In {place}, in partitions {}: the prefix {} of {a} ({}) begins every sort key of {b} \
         ({}). Cost: a typed query of {a} by its prefix ({}) also reads every {b} of the \
         partition; DynamoDB bills their read units and counts them in ScannedCount and the \
         1 MB page, then dynakey leaves them out by discriminator.",
        code(&analysis::shape(o.pk)),
        code(o.a_sk.prefix),
        code(o.a_sk.template),
        code(o.b_sk.template),
        code(&query),
    );
    if o.path {
        let _ = write!(
            s,
            " Its last field is a {}, so a value can write the other entity's key: no table \
             can allow this one.",
            code("path")
        );
    }
    s
}

/// Why a bare partition key can meet other entities' partitions.
pub(crate) fn bare_sentence(
    d: &TableDesign,
    b: &analysis::BarePartition<'_>,
    code: fn(&str) -> String,
    text: fn(&str) -> String,
) -> String {
    let others: Vec<String> = b
        .others
        .iter()
        .map(|(i, k)| {
            format!(
                "{}'s {}",
                text(d.entities[*i].meta.type_name),
                code(k.template)
            )
        })
        .collect();
    format!(
        "Bare partition key: in {}, the partition key of {} is the placeholder {} alone, so \
         the key is the value as it is; a value that reads like another key ({}) lands in \
         that entity's partitions.",
        match b.place {
            Place::Table => "the table".to_owned(),
            Place::Index(n) => format!("index {}", code(n)),
        },
        text(d.entities[b.entity].meta.type_name),
        code(b.pk.template),
        others.join(", ")
    )
}

/// How a native key attribute is written, in words (the attribute is the
/// field's own).
pub(crate) fn native_words(a: &NativeAttr) -> String {
    let how = match a.ty {
        KeyAttrType::S => "a string, ordered by its bytes",
        KeyAttrType::N => "a number, ordered by value",
        KeyAttrType::B => "binary, ordered bytewise",
    };
    format!("native ({}): the field's own attribute, {how}", a.ty)
}
