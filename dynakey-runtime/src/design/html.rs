//! The design as one self-contained HTML page: inline style, no script, no
//! fonts or images from anywhere, readable in any browser and printable.
//! Every piece of text goes through [`html`] (element text and attribute
//! values alike).

use std::fmt::Write;

use super::analysis::{
    bare_partitions, collections, example, feeds, format_code, format_words, indexes,
    native_example, native_keys, overlaps, writer_keys, Collection, Example,
};
use super::markdown::{
    bare_sentence, entity_keys, kind, native_words, overlap_sentence, sparse_sentence,
};
use super::text::html;
use super::TableDesign;
use crate::entity::{EntityMeta, IndexKind, IndexMeta, KeyMeta};
use crate::key::TemplatePart;

const STYLE: &str = r#"
:root { --ink:#1d2433; --muted:#5b6478; --line:#d9dee8; --bg:#f6f7fb; --card:#fff; --accent:#2457c5; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif; color:var(--ink); background:var(--bg); }
main { max-width:1180px; margin:0 auto; padding:28px 24px 48px; }
header h1 { margin:0 0 4px; font-size:26px; }
header p { margin:4px 0; color:var(--muted); }
h2 { margin:34px 0 10px; font-size:19px; border-bottom:2px solid var(--line); padding-bottom:4px; }
h3 { margin:0 0 8px; font-size:15px; }
code, .mono { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace; font-size:12.5px; }
code { background:#eef1f7; border-radius:4px; padding:1px 4px; white-space:pre-wrap; overflow-wrap:anywhere; }
td.key code, td.pk code { white-space:nowrap; }
.chips { display:flex; flex-wrap:wrap; gap:6px; margin:10px 0 0; }
.chip { background:var(--card); border:1px solid var(--line); border-radius:999px; padding:3px 10px; font-size:12.5px; }
.grid { display:grid; grid-template-columns:repeat(auto-fill,minmax(520px,1fr)); gap:14px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:14px 16px; break-inside:avoid; page-break-inside:avoid; }
.card + .card { margin-top:14px; }
.grid .card + .card { margin-top:0; }
.grid + .card { margin-top:14px; }
tr.problem td { background:#fff4f2; } tr.problem td.pk { background:#fafbfe; }
table { border-collapse:collapse; width:100%; margin:6px 0 4px; }
th, td { text-align:left; vertical-align:top; padding:5px 8px; border-bottom:1px solid var(--line); }
th { font-size:12px; text-transform:uppercase; letter-spacing:.03em; color:var(--muted); font-weight:600; }
td.pk { font-weight:600; background:#fafbfe; border-right:1px solid var(--line); }
.badge { display:inline-block; border-radius:5px; padding:1px 7px; font-size:12px; font-weight:600; border:1px solid; white-space:nowrap; }
.lit { color:var(--ink); }
.ph { border-radius:4px; padding:0 3px; font-weight:600; }
.eg { color:var(--muted); font-style:italic; font-size:12px; margin-right:4px; }
.muted { color:var(--muted); }
.note { color:var(--muted); font-size:13px; margin:4px 0 10px; }
ul.plain { padding-left:18px; margin:6px 0; }
ul.plain li { margin:6px 0; }
.warn { border-left:4px solid #d08700; }
.bad { border-left:4px solid #c62828; }
.ok { color:#1b7f3b; font-weight:600; }
.flag { color:#b71c1c; font-weight:600; }
td.why { color:#8e1b1b; }
.drift { color:#b35c00; font-weight:600; }
footer { margin-top:40px; color:var(--muted); font-size:12px; }
.e0 { background:#e8f0fe; border-color:#8ab0f5; color:#1a47a8; } .e1 { background:#e6f6ec; border-color:#86cf9f; color:#19693a; }
.e2 { background:#fdf0e2; border-color:#f0b46f; color:#8a4b04; } .e3 { background:#f3e9fb; border-color:#c59be6; color:#6a2a96; }
.e4 { background:#e3f5f7; border-color:#7fc9d2; color:#0e6470; } .e5 { background:#fde8ec; border-color:#ef9aac; color:#a02040; }
.e6 { background:#f1f3e2; border-color:#bcc56c; color:#5c6410; } .e7 { background:#eceaf9; border-color:#a49ce4; color:#3d3196; }
.e8 { background:#f9ece3; border-color:#dca47f; color:#7c3f16; } .e9 { background:#e9f2ef; border-color:#93c1b2; color:#2b5e4f; }
.unknown { background:#fde8e8; border-color:#e57373; color:#b71c1c; }
@media print { body { background:#fff; } main { max-width:none; padding:0; } .card { border-color:#bbb; } a { color:inherit; } h2 { break-after:avoid; } }
"#;

/// A whole page around `body`.
pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"dynakey\">\n<title>{}</title>\n<style>{STYLE}</style>\n\
         </head>\n<body>\n<main>\n{body}<footer>Drawn by dynakey from the code that reads and \
         writes this table.</footer>\n</main>\n</body>\n</html>\n",
        html(title)
    )
}

/// `<code>` around escaped text.
pub(crate) fn code(s: &str) -> String {
    format!("<code>{}</code>", html(s))
}

/// An entity's coloured badge.
pub(crate) fn badge(i: usize, name: &str) -> String {
    format!("<span class=\"badge e{}\">{}</span>", i % 10, html(name))
}

fn text(s: &str) -> String {
    html(s)
}

/// A template with its placeholders marked, each titled with its format.
fn template(k: &KeyMeta, colour: usize) -> String {
    let mut out = String::from("<span class=\"mono\">");
    for p in k.key.parts() {
        match *p {
            TemplatePart::Lit(l) => {
                let _ = write!(out, "<span class=\"lit\">{}</span>", html(l));
            }
            TemplatePart::Field { name, format } => {
                let code = format_code(format);
                let shown = if code.is_empty() {
                    format!("<{name}>")
                } else {
                    format!("<{name}:{code}>")
                };
                let _ = write!(
                    out,
                    "<span class=\"ph e{}\" title=\"{}\">{}</span>",
                    colour % 10,
                    html(&format_words(format, k)),
                    html(&shown)
                );
            }
        }
    }
    out.push_str("</span>");
    out
}

fn example_html(e: &Example) -> String {
    match e {
        Example::Value(s) => code(s),
        Example::Illustrative(s) => format!("<span class=\"eg\">e.g.</span>{}", code(s)),
        Example::Absent => "<span class=\"muted\">left out by every example</span>".to_owned(),
        Example::None => "<span class=\"muted\">—</span>".to_owned(),
    }
}

/// The whole page.
pub(crate) fn design(d: &TableDesign) -> String {
    let mut body = String::new();
    let _ = write!(body, "<header>\n<h1>Table {}</h1>\n", code(d.name()));
    if let Some(t) = d.description() {
        let _ = writeln!(body, "<p>{}</p>", html(t));
    }
    let (pk, sk) = super::analysis::table_key(d);
    let _ = write!(
        body,
        "<div class=\"chips\"><span class=\"chip\">{} entities</span>\
         <span class=\"chip\">table key {}{}</span><span class=\"chip\">discriminator in {}</span>",
        d.entities.len(),
        code(pk),
        sk.map_or(String::new(), |s| format!(" / {}", code(s))),
        code(super::analysis::discriminator_attr(d))
    );
    for ix in indexes(d) {
        let _ = write!(
            body,
            "<span class=\"chip\">{} {}</span>",
            kind(ix.kind),
            code(ix.name)
        );
    }
    for v in super::vectors::vectors(d) {
        let _ = write!(
            body,
            "<span class=\"chip\">vector {}</span>",
            code(v.meta.name)
        );
    }
    body.push_str("</div>\n<div class=\"chips\">");
    for (i, e) in d.entities.iter().enumerate() {
        body.push_str(&badge(i, e.meta.type_name));
    }
    body.push_str("</div>\n</header>\n");
    body.push_str(&item_collections(d));
    body.push_str(&entities(d));
    body.push_str(&index_section(d));
    body.push_str(&super::vectors::html_section(d, badge));
    body.push_str(&notes(d));
    page(&format!("Table {} · dynakey design", d.name()), &body)
}

fn item_collections(d: &TableDesign) -> String {
    let mut out = String::from(
        "<h2>Item collections</h2>\n<p class=\"note\">Entities whose partition keys have one \
         shape share partitions: one query of a partition reads their items together, in this \
         sort-key order.</p>\n<div class=\"grid\">\n",
    );
    let all = collections(d);
    let (shared, single): (Vec<&Collection<'_>>, Vec<&Collection<'_>>) =
        all.iter().partition(|c| c.members.len() > 1);
    for c in &shared {
        let _ = write!(
            out,
            "<div class=\"card\"><h3>{} · {}</h3>\n<table><tr><th>partition</th><th>sort key</th>\
             <th>entity</th><th>example</th></tr>\n",
            html(&c.place.label()),
            code(&c.shape)
        );
        for (row, m) in c.members.iter().enumerate() {
            let e = &d.entities[m.entity];
            let pk_cell = if row == 0 {
                format!(
                    "<td class=\"pk\" rowspan=\"{}\">{}</td>",
                    c.members.len(),
                    code(&c.shape)
                )
            } else {
                String::new()
            };
            let ex = m.sk.map_or_else(
                || example_html(&example(e, m.pk)),
                |k| example_html(&example(e, k)),
            );
            let _ = writeln!(
                out,
                "<tr>{pk_cell}<td>{}</td><td>{}</td><td>{ex}</td></tr>",
                m.sk.map_or("—".to_owned(), |k| template(k, m.entity)),
                badge(m.entity, e.meta.type_name)
            );
        }
        out.push_str("</table></div>\n");
    }
    out.push_str("</div>\n");
    if shared.is_empty() {
        out.push_str("<p>No two entities share a partition.</p>\n");
    }
    for b in bare_partitions(d) {
        let _ = writeln!(
            out,
            "<div class=\"card warn\"><p>{}</p></div>",
            bare_sentence(d, &b, code, text)
        );
    }
    if !single.is_empty() {
        out.push_str(
            "<div class=\"card\"><h3>One entity per partition</h3>\n<table><tr><th>place</th>\
             <th>partition key</th><th>sort key</th><th>entity</th></tr>\n",
        );
        for c in single {
            let m = &c.members[0];
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(&c.place.label()),
                template(m.pk, m.entity),
                m.sk.map_or("—".to_owned(), |k| template(k, m.entity)),
                badge(m.entity, d.entities[m.entity].meta.type_name)
            );
        }
        out.push_str("</table></div>\n");
    }
    out
}

fn entities(d: &TableDesign) -> String {
    let mut out = String::from("<h2>Entities</h2>\n<div class=\"grid\">\n");
    for (i, e) in d.entities.iter().enumerate() {
        let m = e.meta;
        let _ = writeln!(
            out,
            "<div class=\"card\"><h3>{} <span class=\"muted\">discriminator {} in {}</span></h3>",
            badge(i, m.type_name),
            code(m.discriminator),
            code(m.discriminator_attr)
        );
        let mut extra = Vec::new();
        if let Some(t) = m.ttl_attr {
            extra.push(format!("TTL in {} (epoch seconds)", code(t)));
        }
        if let Some(v) = m.version_attr {
            extra.push(format!("optimistic-lock version in {}", code(v)));
        }
        if !extra.is_empty() {
            let _ = writeln!(out, "<p class=\"note\">{}.</p>", extra.join("; "));
        }
        out.push_str(
            "<table><tr><th>key</th><th>attribute</th><th>template</th><th>example</th></tr>\n",
        );
        for (label, k, _) in entity_keys(m) {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(&label),
                code(k.attr),
                template(k, i),
                example_html(&example(e, k))
            );
        }
        for (label, a) in native_keys(m) {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(&label),
                code(a.attr),
                html(&native_words(a)),
                example_html(&native_example(e, a))
            );
        }
        out.push_str(
            "</table>\n<table><tr><th>field</th><th>attribute</th><th>may be absent</th>\
             <th>feeds</th></tr>\n",
        );
        for f in m.fields {
            let fed = feeds(m, f.name);
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                code(f.name),
                code(f.attr),
                if f.optional { "yes" } else { "no" },
                if fed.is_empty() {
                    "<span class=\"muted\">—</span>".to_owned()
                } else {
                    html(&fed.join(", "))
                }
            );
        }
        out.push_str("</table></div>\n");
    }
    out.push_str("</div>\n");
    out
}

fn index_section(d: &TableDesign) -> String {
    let ixs = indexes(d);
    let mut out = String::from("<h2>Indexes</h2>\n");
    if ixs.is_empty() {
        out.push_str("<p>None: every access pattern reads the table's own key.</p>\n");
        return out;
    }
    out.push_str("<div class=\"grid\">\n");
    for ix in &ixs {
        let keys = ix.keys_text(code);
        let read = match ix.kind {
            IndexKind::Global => "eventually consistent reads",
            IndexKind::Local => "the table's partitions; consistent reads allowed",
        };
        let _ = write!(
            out,
            "<div class=\"card\"><h3>{} <span class=\"muted\">{} on {keys}</span></h3>\n\
             <p class=\"note\">Projects every attribute; {read}.</p>\n<table><tr><th>entity</th>\
             <th>partition key</th><th>sort key</th><th>holds</th></tr>\n",
            code(ix.name),
            kind(ix.kind),
        );
        for (i, m) in &ix.writers {
            let (pk, sk) = writer_keys(m, code, &|k| template(k, *i));
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{pk}</td><td>{sk}</td><td>{}</td></tr>",
                badge(*i, d.entities[*i].meta.type_name),
                holds(d.entities[*i].meta, m)
            );
        }
        out.push_str("</table></div>\n");
    }
    out.push_str("</div>\n");
    out
}

fn holds(m: &EntityMeta, ix: &IndexMeta) -> String {
    if !ix.sparse {
        return "every item".to_owned();
    }
    let opt = super::analysis::optional_inputs(m, ix);
    format!(
        "sparse: items with {} set",
        opt.iter()
            .map(|f| code(f))
            .collect::<Vec<_>>()
            .join(" and ")
    )
}

fn notes(d: &TableDesign) -> String {
    let mut out = String::from("<h2>Sparse indexes</h2>\n");
    let sparse: Vec<String> = d
        .entities
        .iter()
        .flat_map(|e| {
            e.meta
                .indexes
                .iter()
                .filter(|ix| ix.sparse)
                .map(move |ix| sparse_sentence(e.meta, ix, code, text))
        })
        .collect();
    if sparse.is_empty() {
        out.push_str("<p>None: every item of an entity that writes an index is in it.</p>\n");
    } else {
        out.push_str("<div class=\"card\"><ul class=\"plain\">\n");
        for s in sparse {
            let _ = writeln!(out, "<li>{s}</li>");
        }
        out.push_str("</ul></div>\n");
    }
    out.push_str("<h2>Sort-key overlaps (DYNA305)</h2>\n");
    let all = overlaps(d);
    if all.is_empty() {
        out.push_str(
            "<p>None: in every partition two entities can share, each one's sort-key prefix is \
             its own, so a typed query reads only its own items.</p>\n",
        );
    } else {
        out.push_str(
            "<p class=\"note\">A <code>#[derive(DynamoTable)]</code> compiles only when each \
             overlap below is allowed with <code>#[dynamo(overlap(A, B))]</code> (an overlap \
             through a <code>path</code> field never is).</p>\n<div class=\"card warn\">\
             <ul class=\"plain\">\n",
        );
        for o in &all {
            let _ = writeln!(out, "<li>{}</li>", overlap_sentence(d, o, code, text));
        }
        out.push_str("</ul></div>\n");
    }
    out
}
