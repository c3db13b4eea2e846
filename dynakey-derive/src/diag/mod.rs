//! Every message the derive emits: its code from the one list of
//! diagnostics (`codes.rs`, which the catalogue test and the guide's page
//! read too), one line, the drawing of the culprit (a template redrawn
//! with a caret, by the one renderer in `render`), notes, and a help line
//! (the list's fix unless the message has a more precise one).
//!
//! ```text
//! DYNA101: placeholder `<usr_id>` names no field of `User`
//!   |
//!   | pk = "USER#<usr_id>"
//!   |           ^^^^^^^^
//!   = help: did you mean `user_id`?
//! ```

pub mod render;
pub mod traits;

use std::fmt;

use proc_macro2::Span;

use crate::ctxt::Ctxt;

/// The list's entries as the derive needs them: the code's name, number
/// and fix (the title, check and example are the catalogue's).
macro_rules! codes {
    ($($name:ident = $number:literal, $where:ident {
        title: $title:literal,
        checks: $checks:literal,
        fix: $fix:literal,
        example: $example:literal,
    })*) => {
        /// A diagnostic of dynakey, as listed in `codes.rs`. The codes only
        /// the runtime's traits report are listed too, never built here.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[allow(dead_code)]
        pub enum Code {
            $($name,)*
        }

        impl Code {
            /// The number after `DYNA`.
            pub fn number(self) -> u16 {
                match self {
                    $(Code::$name => $number,)*
                }
            }

            /// What fixes it, in general: the help line of a message that
            /// has no more precise one.
            pub fn fix(self) -> &'static str {
                match self {
                    $(Code::$name => $fix,)*
                }
            }
        }
    };
}

include!("codes.rs");

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DYNA{}", self.number())
    }
}

impl Code {
    /// A message of this code: `DYNAxxx: {line}`.
    pub fn msg(self, line: impl fmt::Display) -> Message {
        Message {
            code: self,
            line: line.to_string(),
            drawing: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }
}

/// One diagnostic, rendered as text by [`Message::render`].
#[must_use = "a message is reported with `Ctxt::report` or rendered"]
pub struct Message {
    code: Code,
    line: String,
    /// Lines drawn under the headline, each shown after `  | `.
    drawing: Vec<String>,
    notes: Vec<String>,
    help: Option<String>,
}

impl Message {
    /// Adds lines of a drawing (a template with a caret, `was:`/`now:`).
    pub fn draw(mut self, lines: impl AsRef<str>) -> Self {
        self.drawing
            .extend(lines.as_ref().lines().map(str::to_owned));
        self
    }

    /// A `= note:` line, before the help.
    pub fn note(mut self, note: impl fmt::Display) -> Self {
        self.notes.push(note.to_string());
        self
    }

    /// The help line: what fixes this mistake.
    pub fn help(mut self, help: impl fmt::Display) -> Self {
        self.help = Some(help.to_string());
        self
    }

    /// The help line, when there is one.
    pub fn help_opt(self, help: Option<impl fmt::Display>) -> Self {
        match help {
            Some(h) => self.help(h),
            None => self,
        }
    }

    /// The help line from the list: the code's fix.
    pub fn fix(self) -> Self {
        let fix = self.code.fix();
        self.help(fix)
    }

    /// Its code.
    pub fn code(&self) -> Code {
        self.code
    }

    /// `DYNAxxx: line`.
    pub fn headline(&self) -> String {
        format!("{}: {}", self.code, self.line)
    }

    /// The drawing's lines without their margin (for a note of a trait's
    /// `on_unimplemented`, which rustc prints on its own lines).
    pub fn drawing(&self) -> String {
        self.drawing.join("\n")
    }

    /// The help line, if any.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The whole message: the headline, the drawing in a margin, the notes
    /// and the help.
    pub fn render(&self) -> String {
        let mut out = self.headline();
        if !self.drawing.is_empty() {
            out.push_str("\n  |");
            for l in &self.drawing {
                out.push_str("\n  | ");
                out.push_str(l);
            }
        }
        for n in &self.notes {
            out.push_str("\n  = note: ");
            out.push_str(n);
        }
        if let Some(h) = &self.help {
            out.push_str("\n  = help: ");
            out.push_str(h);
        }
        out
    }
}

impl Ctxt {
    /// Reports `message` at `span`.
    pub fn report(&self, span: Span, message: Message) {
        self.error(span, message.render());
    }
}
