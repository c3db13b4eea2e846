//! The snapshot's text from its facts.

use super::{quote, Below, Entity, Index, IndexKeys, Key, Snapshot, What, MAGIC};

/// A line of the text, and for a line a field's type adds, where it is
/// (`Entity.field[.member]`) and what it says.
pub(super) struct Line<'a> {
    pub(super) text: String,
    pub(super) below: Option<(String, &'a Below)>,
}

/// The snapshot's text, in the format of `s.version` (a version line from
/// 2 on; [`Snapshot::upgraded`] makes an older snapshot's facts current).
///
/// ```
/// use dynakey_core::snapshot::{parse, write};
/// let text = "dynakey-schema 3\ntable T\n\nentity A\n  discriminator \"A\" in \"_type\"\n  key pk \"A#<id>\"\n  field id \"id\" String\n";
/// let s = parse(text).unwrap();
/// assert!(write(&s).starts_with("dynakey-schema 3\n# dynakey schema snapshot of table `T`"));
/// assert_eq!(parse(&write(&s)).unwrap(), s);
/// ```
pub fn write(s: &Snapshot) -> String {
    let mut out = String::new();
    for l in lines(s) {
        out.push_str(&l.text);
        out.push('\n');
    }
    out
}

pub(super) fn lines(s: &Snapshot) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut put = |text: String| out.push(Line { text, below: None });
    if s.version >= 2 {
        put(format!("{MAGIC} {}", s.version));
    }
    let table = &s.table;
    // Format 3 added DYNA507 (a vector index changed).
    let last = if s.version >= 3 { 7 } else { 6 };
    for l in [
        format!("# dynakey schema snapshot of table `{table}`: compared with the code at compile"),
        format!(
            "# time (a change that strands stored items is DYNA501-DYNA50{last} unless a migration"
        ),
        "# covers it). Rewrite it with `DYNAKEY_SCHEMA=overwrite cargo test` and review the diff."
            .into(),
        format!("table {table}"),
    ] {
        put(l);
    }
    for e in &s.entities {
        entity(&mut out, e);
    }
    out
}

fn plain(out: &mut Vec<Line<'_>>, text: String) {
    out.push(Line { text, below: None });
}

fn key(out: &mut Vec<Line<'_>>, indent: &str, k: &Key) {
    plain(
        out,
        format!("{indent}key {} {}", k.attr, quote(&k.template)),
    );
}

fn entity<'a>(out: &mut Vec<Line<'a>>, e: &'a Entity) {
    plain(out, String::new());
    plain(out, format!("entity {}", e.type_name));
    plain(
        out,
        format!(
            "  discriminator {} in {}",
            quote(&e.discriminator),
            quote(&e.discriminator_attr)
        ),
    );
    key(out, "  ", &e.pk);
    if let Some(sk) = &e.sk {
        key(out, "  ", sk);
    }
    for ix in &e.indexes {
        index(out, ix);
    }
    for v in e.vectors.iter().flatten() {
        plain(out, v.line());
    }
    for f in &e.fields {
        let mut line = format!("  field {} {} {}", f.name, quote(&f.attr), f.ty);
        if f.optional {
            line.push_str(" optional");
        }
        if f.default {
            line.push_str(" default");
        }
        if let Some(w) = f.form.and_then(|f| f.word()) {
            line.push(' ');
            line.push_str(w);
        }
        plain(out, line);
        let at = format!("{}.{}", e.type_name, f.name);
        for b in f.shape.iter().flatten() {
            below(out, 2, &at, b);
        }
    }
}

fn index(out: &mut Vec<Line<'_>>, ix: &Index) {
    let kind = if ix.global { "global" } else { "local" };
    let native = match ix.keys {
        IndexKeys::Native { .. } => " native",
        IndexKeys::Template { .. } => "",
    };
    let sparse = if ix.sparse { " sparse" } else { "" };
    plain(out, format!("  index {} {kind}{native}{sparse}", ix.name));
    match &ix.keys {
        IndexKeys::Template { pk, sk } => {
            for k in [pk, sk].into_iter().flatten() {
                key(out, "    ", k);
            }
        }
        IndexKeys::Native { pk, sk } => {
            for (role, fields) in [("pk", pk), ("sk", sk)] {
                if !fields.is_empty() {
                    plain(out, format!("    native {role} {}", fields.join(" ")));
                }
            }
        }
    }
}

fn below<'a>(out: &mut Vec<Line<'a>>, depth: usize, at: &str, b: &'a Below) {
    let text = match &b.what {
        What::Value(v) => format!("value {}", quote(v)),
        What::Member {
            name,
            attr,
            ty,
            optional,
        } => {
            let opt = if *optional { " optional" } else { "" };
            format!("member {name} {} {ty}{opt}", quote(attr))
        }
        What::Recursive => "recursive".into(),
    };
    out.push(Line {
        text: format!("{:w$}{text}", "", w = depth * 2),
        below: Some((at.to_owned(), b)),
    });
    if let What::Member { name, .. } = &b.what {
        let at = format!("{at}.{name}");
        for u in &b.under {
            below(out, depth + 1, &at, u);
        }
    }
}
