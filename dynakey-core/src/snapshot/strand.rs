//! Which changes of the lines below a field strand stored items: the facts
//! another type's derive writes, which the table's derive cannot see, so
//! `check_schema()` compares them.

use super::write::{lines, Line};
use super::{Snapshot, What};

/// A line below a field whose change from the committed snapshot to the
/// code strands stored items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stranded {
    /// Where it is: `Entity.field[.member]`.
    pub at: String,
    /// The line as written, without its indentation.
    pub line: String,
    /// Its line in the committed snapshot (`None` for a line only the code
    /// has).
    pub n: Option<usize>,
    /// Why it strands items.
    pub why: &'static str,
}

impl std::fmt::Display for Stranded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.n {
            Some(n) => write!(
                f,
                "  {}: `{}` (line {n} of the snapshot): {}",
                self.at, self.line, self.why
            ),
            None => write!(f, "  {}: `{}`: {}", self.at, self.line, self.why),
        }
    }
}

/// The lines below a field whose change from `old` (committed) to `new`
/// (the code's) strands stored items: a stored name gone (a variant renamed
/// or removed), a member gone or changed (renamed, retyped, removed; made
/// optional is fine), and a new required member of a field `old` knew,
/// which stored items lack. A field whose lines `old` did not record
/// (version 1) strands nothing: they are unknown.
pub fn stranded(old: &Snapshot, new: &Snapshot) -> Vec<Stranded> {
    let (was_lines, now_lines) = (lines(old), lines(new));
    let below = |ls: &[Line<'_>]| -> Vec<(usize, String, String, What)> {
        ls.iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let (at, b) = l.below.as_ref()?;
                // `recursive` says where a type's lines are, not a name.
                if b.what == What::Recursive {
                    return None;
                }
                let n = if b.line > 0 { b.line } else { i + 1 };
                Some((n, at.clone(), l.text.trim().to_owned(), b.what.clone()))
            })
            .collect()
    };
    let (was, now) = (below(&was_lines), below(&now_lines));
    let member = |w: &What| match w {
        What::Member { name, .. } => Some(name.clone()),
        _ => None,
    };
    // `member n "a" T` read as `member n "a" Option<T> optional`.
    let made_optional = |w: &What, s: &What| match (w, s) {
        (
            What::Member {
                name: a,
                attr: b,
                ty: t,
                optional: false,
            },
            What::Member {
                name: c,
                attr: d,
                ty: u,
                optional: true,
            },
        ) => a == c && b == d && *u == format!("Option<{t}>"),
        _ => false,
    };
    let mut lost = Vec::new();
    for (n, at, line, w) in &was {
        let kept = now
            .iter()
            .any(|(_, a, _, s)| a == at && (s == w || made_optional(w, s)));
        if !kept {
            lost.push(Stranded {
                at: at.clone(),
                line: line.clone(),
                n: Some(*n),
                why: match w {
                    What::Member { .. } => {
                        "a member the code no longer reads as stored (renamed, retyped or removed)"
                    }
                    _ => "a stored name the code no longer reads",
                },
            });
        }
    }
    for (_, at, line, s) in &now {
        let required = matches!(
            s,
            What::Member {
                optional: false,
                ..
            }
        );
        let new_required = required
            && was.iter().any(|w| w.1 == *at)
            && !was.iter().any(|w| w.1 == *at && member(&w.3) == member(s));
        if new_required {
            lost.push(Stranded {
                at: at.clone(),
                line: line.clone(),
                n: None,
                why: "a new required member that stored items lack",
            });
        }
    }
    lost
}
