//! Diagnostics: a code, one line, the template redrawn with a caret under the
//! culprit, and a hint.

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
        let head = format!("{} = \"", self.label);
        let start = self.template[..self.range.start.min(self.template.len())]
            .chars()
            .count();
        let len = self.template
            [self.range.start.min(self.template.len())..self.range.end.min(self.template.len())]
            .chars()
            .count()
            .max(1);
        let pad = " ".repeat(head.chars().count() + start);
        let mut out = format!(
            "{}: {}\n  |\n  | {}{}\"\n  | {}{}",
            self.code,
            self.message,
            head,
            self.template,
            pad,
            "^".repeat(len)
        );
        if let Some(h) = &self.help {
            out.push_str("\n  = help: ");
            out.push_str(h);
        }
        out
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
