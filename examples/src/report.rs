//! Printing what a recipe read: small text tables.

use std::fmt;

/// A text table: a title, column headers and rows, printed with aligned
/// columns.
///
/// ```
/// use dynakey_examples::report::Table;
/// let t = Table::new("users", ["pk", "name"]).row(["USER#alice", "Alice"]);
/// let text = t.to_string();
/// assert!(text.contains("USER#alice  Alice"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// What the table shows.
    pub title: String,
    /// Column headers.
    pub header: Vec<String>,
    /// The rows, as text.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with a title and headers.
    pub fn new<S: ToString>(title: impl Into<String>, header: impl IntoIterator<Item = S>) -> Self {
        Self {
            title: title.into(),
            header: header.into_iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// The table with one more row.
    pub fn row<S: ToString>(mut self, cells: impl IntoIterator<Item = S>) -> Self {
        self.push(cells);
        self
    }

    /// Adds a row.
    pub fn push<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  {}", self.title)?;
        let cols = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        let mut width = vec![0usize; cols];
        for r in std::iter::once(&self.header).chain(&self.rows) {
            for (i, c) in r.iter().enumerate() {
                width[i] = width[i].max(c.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, r: &[String]| -> fmt::Result {
            let mut s = String::from("    ");
            for (i, c) in r.iter().enumerate() {
                s.push_str(c);
                if i + 1 < r.len() {
                    let pad = width[i] - c.chars().count() + 2;
                    s.extend(std::iter::repeat_n(' ', pad));
                }
            }
            writeln!(f, "{}", s.trim_end())
        };
        if !self.header.is_empty() {
            line(f, &self.header)?;
            let rule: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
            line(f, &rule)?;
        }
        for r in &self.rows {
            line(f, r)?;
        }
        if self.rows.is_empty() {
            writeln!(f, "    (nothing)")?;
        }
        Ok(())
    }
}

/// A recipe's printable report: tables and notes, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Printout {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Table(Table),
    Note(String),
}

impl Printout {
    /// An empty printout.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a table.
    pub fn table(&mut self, t: Table) -> &mut Self {
        self.parts.push(Part::Table(t));
        self
    }

    /// Adds a one-line note.
    pub fn note(&mut self, n: impl Into<String>) -> &mut Self {
        self.parts.push(Part::Note(n.into()));
        self
    }
}

impl fmt::Display for Printout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.parts {
            match p {
                Part::Table(t) => t.fmt(f)?,
                Part::Note(n) => writeln!(f, "  {n}")?,
            }
        }
        Ok(())
    }
}

/// A step's outcome for a report line: `ok`, or `fails: <why>`.
///
/// ```
/// use dynakey_examples::report::outcome;
/// assert_eq!(outcome(&Ok(())), "ok");
/// assert_eq!(outcome(&Err("ConditionFailed".into())), "fails: ConditionFailed");
/// ```
pub fn outcome(r: &Result<(), String>) -> String {
    match r {
        Ok(()) => "ok".to_owned(),
        Err(e) => format!("fails: {e}"),
    }
}
