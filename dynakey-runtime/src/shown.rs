//! A user's value as every message echoes it: whole when short, else its
//! start, an ellipsis and its length, so that a 201-digit number or a
//! 2 KB key does not fill a log line. One rule for every error that
//! repeats a value it was given.

use std::fmt;

/// The characters of a value a message shows before it cuts it.
pub(crate) const SHOWN_CHARS: usize = 40;

/// A value as a message shows it (see [`shown`] and [`shown_plain`]).
pub(crate) struct Shown<'a> {
    text: &'a str,
    quoted: bool,
}

/// `text` quoted as Rust writes a string (`"USER#ann"`), or, when longer
/// than [`SHOWN_CHARS`], its start and its length:
/// `"1000000000…"… (201 characters, 201 bytes)`.
pub(crate) fn shown(text: &str) -> Shown<'_> {
    Shown { text, quoted: true }
}

/// [`shown`] without the quotes, for text that is read as it stands (a
/// key in an item reference: `NOTE USER#ann / NOTE#001`).
pub(crate) fn shown_plain(text: &str) -> Shown<'_> {
    Shown {
        text,
        quoted: false,
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = self.text.char_indices().nth(SHOWN_CHARS).map(|(i, _)| i);
        let head = &self.text[..cut.unwrap_or(self.text.len())];
        if self.quoted {
            write!(f, "{head:?}")?;
        } else {
            f.write_str(head)?;
        }
        if cut.is_some() {
            let chars = self.text.chars().count();
            write!(f, "… ({chars} characters, {} bytes)", self.text.len())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_whole_long_ones_cut_with_their_length() {
        assert_eq!(shown("USER#ann").to_string(), "\"USER#ann\"");
        assert_eq!(shown_plain("USER#ann").to_string(), "USER#ann");
        let n = format!("1{}", "0".repeat(200));
        let s = shown(&n).to_string();
        assert_eq!(
            s,
            format!("\"1{}\"… (201 characters, 201 bytes)", "0".repeat(39))
        );
        let e = "é".repeat(41);
        assert_eq!(
            shown_plain(&e).to_string(),
            format!("{}… (41 characters, 82 bytes)", "é".repeat(40))
        );
        assert_eq!(shown(&"x".repeat(40)).to_string().len(), 42);
    }
}
