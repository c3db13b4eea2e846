//! The one caret renderer of the derive ([`draw`]), the forms it takes
//! ([`caret`], [`carets`], [`as_written`]), and the help lines for a name
//! that names nothing.

use std::ops::Range;

/// `head`, `text` and `tail` on one line, over a line with carets under
/// each of `ranges` (byte offsets into `text`, in order; one that starts
/// inside an earlier one is left out), followed by `note`.
pub fn draw(head: &str, text: &str, tail: &str, ranges: &[Range<usize>], note: &str) -> String {
    let mut line = " ".repeat(head.chars().count());
    let mut at = 0;
    for r in ranges {
        let end = r.end.min(text.len());
        let start = r.start.min(end);
        if start < at {
            continue;
        }
        line.push_str(&" ".repeat(text[at..start].chars().count()));
        line.push_str(&"^".repeat(text[start..end].chars().count().max(1)));
        at = end;
    }
    if !note.is_empty() {
        line.push(' ');
        line.push_str(note);
    }
    format!("{head}{text}{tail}\n{line}")
}

/// `label = "template"` with a caret under `range`, followed by `note`.
pub fn caret(label: &str, template: &str, range: Range<usize>, note: &str) -> String {
    carets(label, template, &[range], note)
}

/// `label = "template"` with carets under each of `ranges`, followed by
/// `note`.
pub fn carets(label: &str, template: &str, ranges: &[Range<usize>], note: &str) -> String {
    draw(&format!("{label} = \""), template, "\"", ranges, note)
}

/// An attribute redrawn as written (`pk(tenant, region)`), with a caret
/// under `range`.
pub fn as_written(text: &str, range: Range<usize>) -> String {
    draw("", text, "", &[range], "")
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
