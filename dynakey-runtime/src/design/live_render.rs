//! The live view as Markdown and as HTML.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::analysis::{discriminator_attr, indexes, key_attrs, overlaps, table_key, Place};
use super::html::{badge, code, page};
use super::live::{ItemStatus, LiveItem, LiveView};
use super::text::{clip, html as esc, md_code, md_text, value};

/// What an allowed overlap cost in the sample.
struct Cost {
    a: &'static str,
    b: &'static str,
    place: String,
    partitions: usize,
    a_items: usize,
    b_items: usize,
}

fn costs(v: &LiveView) -> Vec<Cost> {
    let d = &v.design;
    let ixs = indexes(d);
    let mut out = Vec::new();
    for o in overlaps(d) {
        let (a, b) = (
            d.entities[o.a].meta.type_name,
            d.entities[o.b].meta.type_name,
        );
        let pk_attr = match o.place {
            Place::Table => table_key(d).0,
            Place::Index(n) => ixs.iter().find(|i| i.name == n).map_or("", |i| i.pk_attr()),
        };
        let mut by_pk: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for it in &v.items {
            let Some(pk) = it.item.get(pk_attr).map(value) else {
                continue;
            };
            let slot = by_pk.entry(pk).or_default();
            if it.entity == Some(a) {
                slot.0 += 1;
            } else if it.entity == Some(b) {
                slot.1 += 1;
            }
        }
        let both: Vec<_> = by_pk.values().filter(|(x, y)| *x > 0 && *y > 0).collect();
        out.push(Cost {
            a,
            b,
            place: o.place.label(),
            partitions: both.len(),
            a_items: both.iter().map(|(x, _)| x).sum(),
            b_items: both.iter().map(|(_, y)| y).sum(),
        });
    }
    out
}

fn cost_sentence(c: &Cost, code: fn(&str) -> String) -> String {
    if c.partitions == 0 {
        return format!(
            "{} over {} ({}): no sampled partition holds both.",
            code(c.a),
            code(c.b),
            c.place
        );
    }
    format!(
        "{} over {} ({}): {} sampled partition{} hold both; a typed query of {} there reads {} \
         items to return {} ({} of them {}'s, billed and dropped).",
        code(c.a),
        code(c.b),
        c.place,
        c.partitions,
        if c.partitions == 1 { "" } else { "s" },
        code(c.a),
        c.a_items + c.b_items,
        c.a_items,
        c.b_items,
        code(c.b),
    )
}

fn problem(i: &LiveItem) -> Option<String> {
    match &i.status {
        ItemStatus::Sound | ItemStatus::Unchecked => None,
        ItemStatus::Unmatched { reason } => Some(format!("matches no entity: {reason}")),
        ItemStatus::Undecodable { error } => Some(format!("does not decode: {error}")),
        ItemStatus::Drift { keys } => Some(format!(
            "drift: {}",
            keys.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

fn status_word(s: &ItemStatus) -> &'static str {
    match s {
        ItemStatus::Sound => "ok",
        ItemStatus::Unchecked => "not checked",
        ItemStatus::Unmatched { .. } => "no entity",
        ItemStatus::Undecodable { .. } => "undecodable",
        ItemStatus::Drift { .. } => "drift",
    }
}

/// The other attributes of an item, short: `name: value, ...`.
fn attributes(v: &LiveView, i: &LiveItem) -> String {
    let keys = key_attrs(&v.design);
    let disc = discriminator_attr(&v.design);
    let mut names: Vec<&String> = i
        .item
        .keys()
        .filter(|k| *k != disc && !keys.contains(&k.as_str()))
        .collect();
    names.sort();
    let parts: Vec<String> = names
        .into_iter()
        .map(|k| format!("{k}: {}", clip(&value(&i.item[k]), 40)))
        .collect();
    clip(&parts.join(", "), 160)
}

/// The index columns: for each index, `pk / sk` of the item, a native
/// key's attributes joined by `+` (empty when the item is not in it).
fn index_cells(v: &LiveView, i: &LiveItem) -> Vec<String> {
    let table_pk = table_key(&v.design).0;
    indexes(&v.design)
        .iter()
        .map(|ix| {
            let get = |a: &str| {
                if a == table_pk {
                    return Some(i.pk.clone());
                }
                i.index_keys
                    .iter()
                    .find(|(k, _)| k == a)
                    .map(|(_, v)| v.clone())
            };
            // Every attribute, or the item is not in the index.
            let part = |attrs: &[(&str, crate::entity::KeyAttrType)]| -> Option<String> {
                let vals: Option<Vec<String>> = attrs.iter().map(|(a, _)| get(a)).collect();
                vals.map(|v| v.join(" + "))
            };
            match (part(&ix.pk), part(&ix.sk)) {
                (Some(p), Some(s)) if !ix.sk.is_empty() => format!("{p} / {s}"),
                (Some(p), Some(_)) => p,
                _ => String::new(),
            }
        })
        .collect()
}

fn summary(v: &LiveView) -> String {
    let n = v.items.len();
    let problems = v.problems().count();
    format!(
        "Sampled {n} item{} ({}) in {} partition{} · {problems} problem{}.",
        if n == 1 { "" } else { "s" },
        if v.complete {
            "the whole table"
        } else {
            "a sample: the scan stopped before the end"
        },
        v.partitions().len(),
        if v.partitions().len() == 1 { "" } else { "s" },
        if problems == 1 { "" } else { "s" },
    )
}

/// The view as Markdown.
pub(crate) fn markdown(v: &LiveView) -> String {
    let mut out = format!(
        "# Live view of table {}\n\n{}\n\n",
        md_code(&v.table),
        summary(v)
    );
    out.push_str("| entity | items |\n|---|---|\n");
    for (name, n) in v.counts() {
        let _ = writeln!(out, "| {} | {n} |", md_text(name));
    }
    let none = v.items.iter().filter(|i| i.entity.is_none()).count();
    let _ = writeln!(out, "| *matches no entity* | {none} |\n");
    out.push_str("## Problems\n\n");
    if v.problems().count() == 0 {
        out.push_str(
            "None: every sampled item matches an entity, and every checked item's keys are \
             what `to_item()` of its value writes.\n\n",
        );
    } else {
        out.push_str("| partition | sort key | entity | problem |\n|---|---|---|---|\n");
        for i in v.problems() {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                md_code(&i.pk),
                i.sk.as_deref().map_or("—".to_owned(), md_code),
                i.entity.map_or("—".to_owned(), md_text),
                md_text(&problem(i).unwrap_or_default())
            );
        }
        out.push('\n');
    }
    let costs = costs(v);
    if !costs.is_empty() {
        out.push_str("## What the sort-key overlaps cost in this sample\n\n");
        for c in &costs {
            let _ = writeln!(out, "- {}", cost_sentence(c, md_code));
        }
        out.push('\n');
    }
    out.push_str(
        "## Partitions\n\nGrouped by partition key, in sort-key order, as NoSQL Workbench's \
         aggregate view shows a table.\n\n",
    );
    let ixs = indexes(&v.design);
    for (pk, items) in v.partitions() {
        let _ = writeln!(
            out,
            "### {} · {} item{}\n",
            md_code(pk),
            items.len(),
            if items.len() == 1 { "" } else { "s" }
        );
        out.push_str("| sort key | entity |");
        for ix in &ixs {
            let _ = write!(out, " {} |", md_text(ix.name));
        }
        out.push_str(" status | attributes |\n|---|---|");
        out.push_str(&"---|".repeat(ixs.len()));
        out.push_str("---|---|\n");
        for i in items {
            let _ = write!(
                out,
                "| {} | {} |",
                i.sk.as_deref().map_or("—".to_owned(), md_code),
                i.entity.map_or("*none*".to_owned(), md_text)
            );
            for cell in index_cells(v, i) {
                let shown = if cell.is_empty() {
                    "—".to_owned()
                } else {
                    md_code(&cell)
                };
                let _ = write!(out, " {shown} |");
            }
            let attrs = attributes(v, i);
            let _ = writeln!(
                out,
                " {} | {} |",
                status_word(&i.status),
                if attrs.is_empty() {
                    "—".to_owned()
                } else {
                    md_code(&attrs)
                }
            );
        }
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The view as one HTML page.
pub(crate) fn html(v: &LiveView) -> String {
    let d = &v.design;
    let colour = |name: Option<&str>| {
        name.and_then(|n| d.entities.iter().position(|e| e.meta.type_name == n))
    };
    let tag = |name: Option<&str>| match (name, colour(name)) {
        (Some(n), Some(c)) => badge(c, n),
        _ => "<span class=\"badge unknown\">no entity</span>".to_owned(),
    };
    let mut b = format!(
        "<header>\n<h1>Live view of table {}</h1>\n<p>{}</p>\n<div class=\"chips\">",
        code(&v.table),
        esc(&summary(v))
    );
    for (name, n) in v.counts() {
        let _ = write!(b, "<span class=\"chip\">{} {n}</span>", tag(Some(name)));
    }
    let none = v.items.iter().filter(|i| i.entity.is_none()).count();
    let _ = write!(
        b,
        "<span class=\"chip\">{} {none}</span></div>\n</header>\n",
        tag(None)
    );
    b.push_str("<h2>Problems</h2>\n");
    if v.problems().count() == 0 {
        b.push_str(
            "<p class=\"ok\">None: every sampled item matches an entity, and every checked \
             item's keys are what <code>to_item()</code> of its value writes.</p>\n",
        );
    } else {
        b.push_str(
            "<div class=\"card bad\"><table><tr><th>partition</th><th>sort key</th>\
             <th>entity</th><th>problem</th></tr>\n",
        );
        for i in v.problems() {
            let _ = writeln!(
                b,
                "<tr><td class=\"key\">{}</td><td class=\"key\">{}</td><td>{}</td><td class=\"why\">{}</td></tr>",
                code(&i.pk),
                i.sk.as_deref().map_or("—".to_owned(), code),
                tag(i.entity),
                esc(&problem(i).unwrap_or_default())
            );
        }
        b.push_str("</table></div>\n");
    }
    let costs = costs(v);
    if !costs.is_empty() {
        b.push_str(
            "<h2>What the sort-key overlaps cost in this sample</h2>\n<div class=\"card warn\">\
             <ul class=\"plain\">\n",
        );
        for c in &costs {
            let _ = writeln!(b, "<li>{}</li>", cost_sentence(c, code));
        }
        b.push_str("</ul></div>\n");
    }
    b.push_str(
        "<h2>Partitions</h2>\n<p class=\"note\">Grouped by partition key, in sort-key order, as \
         NoSQL Workbench's aggregate view shows a table.</p>\n<div class=\"card\"><table><tr>\
         <th>partition</th><th>sort key</th><th>entity</th>",
    );
    let ixs = indexes(d);
    for ix in &ixs {
        let _ = write!(b, "<th>{}</th>", esc(ix.name));
    }
    b.push_str("<th>status</th><th>attributes</th></tr>\n");
    for (pk, items) in v.partitions() {
        for (row, i) in items.iter().enumerate() {
            b.push_str(if i.status.is_ok() {
                "<tr>"
            } else {
                "<tr class=\"problem\">"
            });
            if row == 0 {
                let _ = write!(
                    b,
                    "<td class=\"pk\" rowspan=\"{}\">{}</td>",
                    items.len(),
                    code(pk)
                );
            }
            let _ = write!(
                b,
                "<td class=\"key\">{}</td><td>{}</td>",
                i.sk.as_deref().map_or("—".to_owned(), code),
                tag(i.entity)
            );
            for cell in index_cells(v, i) {
                if cell.is_empty() {
                    b.push_str("<td class=\"muted\">—</td>");
                } else {
                    let _ = write!(b, "<td>{}</td>", code(&cell));
                }
            }
            let class = match &i.status {
                ItemStatus::Sound => "ok",
                ItemStatus::Unchecked => "muted",
                ItemStatus::Drift { .. } => "drift",
                _ => "flag",
            };
            let _ = writeln!(
                b,
                "<td class=\"{class}\">{}</td><td class=\"mono\">{}</td></tr>",
                status_word(&i.status),
                esc(&attributes(v, i))
            );
        }
    }
    b.push_str("</table></div>\n");
    page(&format!("Live view of {} · dynakey", v.table), &b)
}
