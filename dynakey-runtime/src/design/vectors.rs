//! The table's vector indexes in the design views: one row per index (its
//! vector attribute, dimensions, distance function, scope, filters and
//! projection, and the entities that declare it), drawn in Markdown and
//! HTML where the global indexes are, and named in the NoSQL Workbench
//! model's description, whose format has no vector index.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::text::{md_code, md_text};
use super::TableDesign;
use crate::entity::{IndexProjection, NativeAttr, VectorIndexMeta};

/// One vector index of the table, and the entities that declare it (in
/// one declaration: DYNA610 refuses two that differ).
pub(crate) struct VectorInfo {
    pub(crate) meta: &'static VectorIndexMeta,
    /// Indexes into the design's entities.
    pub(crate) writers: Vec<usize>,
}

/// The table's vector indexes by name.
pub(crate) fn vectors(d: &TableDesign) -> Vec<VectorInfo> {
    let mut by_name: BTreeMap<&'static str, VectorInfo> = BTreeMap::new();
    for (i, e) in d.entities.iter().enumerate() {
        for v in e.meta.vectors {
            by_name
                .entry(v.name)
                .or_insert_with(|| VectorInfo {
                    meta: v,
                    writers: Vec::new(),
                })
                .writers
                .push(i);
        }
    }
    by_name.into_values().collect()
}

/// The cells of one index, each drawn with `code`: vector attribute,
/// dimensions, distance, scope, filters, projection.
fn cells(v: &VectorIndexMeta, code: fn(&str) -> String) -> [String; 6] {
    let attrs = |a: &[NativeAttr]| -> String {
        if a.is_empty() {
            return "—".to_owned();
        }
        let each: Vec<String> = a
            .iter()
            .map(|a| format!("{} {}", code(a.attr), a.ty))
            .collect();
        each.join(", ")
    };
    let projection = match v.projection {
        IndexProjection::All => format!("every attribute ({})", code("ALL")),
        IndexProjection::KeysOnly => format!("the keys ({})", code("KEYS_ONLY")),
        IndexProjection::Include(names) => {
            let each: Vec<String> = names.iter().map(|n| code(n)).collect();
            format!("the keys and {} ({})", each.join(", "), code("INCLUDE"))
        }
    };
    [
        code(v.vector_attr),
        v.dimensions.to_string(),
        code(v.distance.as_str()),
        attrs(v.scope),
        attrs(v.filters),
        projection,
    ]
}

const HEAD: [&str; 8] = [
    "index",
    "vector",
    "dimensions",
    "distance",
    "scope",
    "filter",
    "projection",
    "entities",
];

/// What the section says first, its code spans drawn with `code`.
fn about(code: fn(&str) -> String) -> String {
    format!(
        "Each is searched by nearness to a vector ({}): a search of a scoped index names \
         its scope value in full, a filter compares a declared attribute by equality.",
        code("SearchVectors")
    )
}

/// The Markdown section, none when the table has no vector index.
pub(crate) fn markdown(d: &TableDesign) -> String {
    let all = vectors(d);
    if all.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "## Vector indexes\n\n{}\n\n| {} |\n",
        about(md_code),
        HEAD.join(" | ")
    );
    let _ = writeln!(out, "|{}", "---|".repeat(HEAD.len()));
    for v in &all {
        let entities: Vec<String> = v
            .writers
            .iter()
            .map(|&i| md_text(d.entities[i].meta.type_name))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            md_code(v.meta.name),
            cells(v.meta, md_code).join(" | "),
            entities.join(", ")
        );
    }
    out.push('\n');
    out
}

/// The vector indexes in the summary line: `` · vector indexes `A`, `B` ``
/// (nothing when there is none).
pub(crate) fn summary(d: &TableDesign, code: fn(&str) -> String) -> String {
    let names: Vec<String> = vectors(d).iter().map(|v| code(v.meta.name)).collect();
    match names.len() {
        0 => String::new(),
        1 => format!(" · vector index {}", names[0]),
        _ => format!(" · vector indexes {}", names.join(", ")),
    }
}

fn html_code(s: &str) -> String {
    super::html::code(s)
}

/// The HTML section, none when the table has no vector index; `badge`
/// draws an entity.
pub(crate) fn html_section(d: &TableDesign, badge: fn(usize, &str) -> String) -> String {
    let all = vectors(d);
    if all.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<h2>Vector indexes</h2>\n<p class=\"note\">{}</p>\n<div class=\"card\"><table><tr>",
        about(html_code)
    );
    for h in HEAD {
        let _ = write!(out, "<th>{h}</th>");
    }
    out.push_str("</tr>\n");
    for v in &all {
        let mut row = vec![html_code(v.meta.name)];
        row.extend(cells(v.meta, html_code));
        row.push(
            v.writers
                .iter()
                .map(|&i| badge(i, d.entities[i].meta.type_name))
                .collect(),
        );
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{cell}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

/// The Workbench model's sentence on the vector indexes it leaves out.
pub(crate) fn workbench_note(d: &TableDesign) -> String {
    let mut out = String::new();
    for v in vectors(d) {
        let m = v.meta;
        let plain = |a: &[NativeAttr]| -> String {
            let each: Vec<&str> = a.iter().map(|a| a.attr).collect();
            each.join(", ")
        };
        let projection = match m.projection {
            IndexProjection::All => "ALL".to_owned(),
            IndexProjection::KeysOnly => "KEYS_ONLY".to_owned(),
            IndexProjection::Include(names) => format!("INCLUDE({})", names.join(", ")),
        };
        let _ = write!(
            out,
            " Vector index {} (vector {}, {} dimensions, {}, scope({}), filter({}), \
             projection {projection}) is left out: this format has no vector indexes.",
            m.name,
            m.vector_attr,
            m.dimensions,
            m.distance,
            plain(m.scope),
            plain(m.filters),
        );
    }
    out
}
