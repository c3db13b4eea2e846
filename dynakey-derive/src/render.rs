//! Diagnostics: a code, one line, the template redrawn with a caret under
//! the culprit, and a hint. The one caret renderer of the derive.

use std::ops::Range;

pub struct Diag<'a> {
    pub code: &'static str,
    pub message: String,
    /// How the template appears in the attribute, e.g. `sk` or `GSI1 pk`.
    pub label: &'a str,
    pub template: &'a str,
    pub range: Range<usize>,
    pub help: Option<String>,
}

impl Diag<'_> {
    pub fn render(&self) -> String {
        let drawn = caret(self.label, self.template, self.range.clone(), "");
        let mut out = format!("{}: {}\n  |\n", self.code, self.message);
        for line in drawn.lines() {
            out.push_str("  | ");
            out.push_str(line);
            out.push('\n');
        }
        out.pop();
        if let Some(h) = &self.help {
            out.push_str("\n  = help: ");
            out.push_str(h);
        }
        out
    }
}

/// `label = "template"` over a line with a caret under `range` (byte
/// offsets into the template), followed by `note`.
pub fn caret(label: &str, template: &str, range: Range<usize>, note: &str) -> String {
    let head = format!("{label} = \"");
    let end = range.end.min(template.len());
    let start = range.start.min(end);
    let pad = " ".repeat(head.chars().count() + template[..start].chars().count());
    let len = template[start..end].chars().count().max(1);
    let note = if note.is_empty() {
        String::new()
    } else {
        format!(" {note}")
    };
    format!("{head}{template}\"\n{pad}{}{note}", "^".repeat(len))
}

/// The byte range of `<name…>` in a template.
pub fn placeholder(template: &str, name: &str) -> Option<Range<usize>> {
    let needle = format!("<{name}");
    let at = template
        .match_indices(&needle)
        .map(|(i, _)| i)
        .find(|&i| matches!(template[i + needle.len()..].chars().next(), Some('>' | ':')))?;
    let len = template[at..].find('>').map_or(needle.len(), |j| j + 1);
    Some(at..at + len)
}

/// A help line for an unknown field name: "did you mean `x`?", or the
/// list of the names it could be.
pub fn field_help<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match did_you_mean(name, names.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!(
            "the fields are {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The closest candidate to `name`, if one is close enough to suggest.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|(d, c)| *d <= (c.len().max(name.len()) / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `label = "template"` over a line with carets under each of `ranges`
/// (byte offsets, in order), followed by `note`.
pub fn carets(label: &str, template: &str, ranges: &[Range<usize>], note: &str) -> String {
    let head = format!("{label} = \"");
    let mut line = " ".repeat(head.chars().count());
    let mut at = 0;
    for r in ranges {
        let (start, end) = (r.start.min(template.len()), r.end.min(template.len()));
        if start < at {
            continue;
        }
        line.push_str(&" ".repeat(template[at..start].chars().count()));
        line.push_str(&"^".repeat(template[start..end].chars().count().max(1)));
        at = end;
    }
    if !note.is_empty() {
        line.push(' ');
        line.push_str(note);
    }
    format!("{head}{template}\"\n{line}")
}

/// A diagnostic on a native key, redrawn as written (`pk(tenant, region)`)
/// with a caret under `range` (byte offsets into `written`).
pub fn native(code: &str, message: &str, written: &str, range: Range<usize>, help: &str) -> String {
    let end = range.end.min(written.len());
    let start = range.start.min(end);
    let pad = " ".repeat(written[..start].chars().count());
    let len = written[start..end].chars().count().max(1);
    format!(
        "{code}: {message}\n  |\n  | {written}\n  | {pad}{}\n  = help: {help}",
        "^".repeat(len)
    )
}
