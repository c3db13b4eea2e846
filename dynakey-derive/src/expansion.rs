//! Expansion snapshots: what the derives generate for a few representative
//! inputs (`tests/expand/<name>.rs`), printed as `cargo expand` would (one
//! item per line, blocks indented) and compared with the committed
//! `tests/expand/<name>.expanded.rs` beside each input, so a reviewer reads
//! what a change to the derive generates and growth is caught: the first
//! line of each snapshot is its size in tokens and lines.
//! `DYNAKEY_BLESS=1 cargo test -p dynakey-derive --lib expansion` rewrites
//! them (as the diagnostics catalogue is rewritten).
//!
//! The derives run here outside the compiler, on `proc_macro2` tokens, as
//! `cargo expand` would show their output: every entity is generated whole,
//! without the errors of the checks across a table's entities (those run in
//! the compiler, at `table_step!`).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use syn::DeriveInput;

/// Each derive named in `input`'s `#[derive(..)]`, and its output.
fn expand(input: &DeriveInput) -> Vec<(String, TokenStream)> {
    let mut out = Vec::new();
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let paths = attr
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .expect("a derive list");
        for path in paths {
            let name = path.segments.last().expect("a name").ident.to_string();
            let tokens = match name.as_str() {
                "DynamoEntity" => super::expand_entity(input),
                "DynamoValue" => super::expand_value(input),
                "DynamoUnion" => super::expand_union(input),
                "DynamoProjection" => super::expand_projection(input),
                "DynamoTable" => super::expand_table(input),
                _ => continue,
            };
            out.push((name, tokens));
        }
    }
    out
}

/// The expansion of every derive of the Rust file `text`, in order.
pub fn expand_file(text: &str) -> Vec<(String, syn::Ident, TokenStream)> {
    let file = syn::parse_file(text).expect("the input parses");
    let mut out = Vec::new();
    for item in file.items {
        let input: DeriveInput = match item {
            syn::Item::Struct(s) => s.into(),
            syn::Item::Enum(e) => e.into(),
            _ => continue,
        };
        for (name, tokens) in expand(&input) {
            out.push((name, input.ident.clone(), tokens));
        }
    }
    out
}

/// The number of tokens of `ts`, a group and what it holds counted.
fn count(ts: &TokenStream) -> usize {
    ts.clone()
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => 1 + count(&g.stream()),
            _ => 1,
        })
        .sum()
}

/// Tokens as readable text: a line per statement, item, attribute and
/// field, blocks indented by four spaces, and spaces where Rust code
/// usually has them. It reads; it is not rustfmt.
struct Printer {
    out: String,
    indent: usize,
    /// The last token written, for the spacing of the next one.
    prev: Prev,
    /// `<` opened as generics and not closed yet.
    generics: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Prev {
    LineStart,
    /// An identifier, a literal or a closed group.
    Word,
    /// A punctuation character, and whether it joins the next one.
    Punct(char, Spacing),
    /// `::` just closed.
    PathSep,
    /// An opening delimiter, or `.`: the next token hugs it.
    Open,
    /// A prefix operator (`&x`, `!x`, `-1`).
    Prefix,
}

impl Printer {
    fn newline(&mut self) {
        if self.prev != Prev::LineStart {
            self.out.push('\n');
            self.prev = Prev::LineStart;
        }
    }

    fn write(&mut self, text: &str, space: bool) {
        if self.prev == Prev::LineStart {
            self.out.push_str(&"    ".repeat(self.indent));
        } else if space {
            self.out.push(' ');
        }
        self.out.push_str(text);
    }

    fn stream(&mut self, ts: TokenStream, in_brace: bool) {
        let tokens: Vec<TokenTree> = ts.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            let next = tokens.get(i + 1);
            match &tokens[i] {
                TokenTree::Group(g) => {
                    self.group(g);
                    // A block ends its line, unless `;`, `,` or `.` follows.
                    let attached =
                        matches!(next, Some(TokenTree::Punct(p)) if ";,.".contains(p.as_char()));
                    if g.delimiter() == Delimiter::Brace && !attached {
                        self.newline();
                    }
                }
                TokenTree::Ident(id) => {
                    let space = !matches!(
                        self.prev,
                        Prev::Open | Prev::PathSep | Prev::Prefix | Prev::Punct(_, Spacing::Joint)
                    );
                    self.write(&id.to_string(), space);
                    self.prev = Prev::Word;
                }
                TokenTree::Literal(l) => {
                    let space = !matches!(
                        self.prev,
                        Prev::Open | Prev::PathSep | Prev::Prefix | Prev::Punct(_, Spacing::Joint)
                    );
                    self.write(&l.to_string(), space);
                    self.prev = Prev::Word;
                }
                TokenTree::Punct(p) => {
                    let c = p.as_char();
                    // An attribute: `#[..]` on a line of its own.
                    if c == '#' {
                        if let Some(TokenTree::Group(g)) = next {
                            if g.delimiter() == Delimiter::Bracket {
                                self.newline();
                                self.write("#", false);
                                self.prev = Prev::Punct('#', Spacing::Joint);
                                self.group(g);
                                self.newline();
                                i += 2;
                                continue;
                            }
                        }
                    }
                    self.punct(c, p.spacing());
                    if c == ';' || (c == ',' && in_brace && self.generics == 0) {
                        self.newline();
                    }
                }
            }
            i += 1;
        }
    }

    /// Whether a `&`, `!`, `*` or `-` written now is a prefix operator:
    /// nothing that ends an operand comes before it.
    fn prefix_place(&self) -> bool {
        match self.prev {
            Prev::Word => self.after_keyword(),
            _ => true,
        }
    }

    /// Whether the last word is a keyword that an operand follows.
    fn after_keyword(&self) -> bool {
        [
            "return", "in", "match", "if", "else", "let", "move", "mut", "dyn", "impl", "use",
            "for", "as", "where",
        ]
        .iter()
        .any(|k| {
            self.out.ends_with(k)
                && !self.out[..self.out.len() - k.len()]
                    .ends_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    }

    fn punct(&mut self, c: char, spacing: Spacing) {
        let glued = matches!(
            self.prev,
            Prev::Open | Prev::PathSep | Prev::Prefix | Prev::Punct(_, Spacing::Joint)
        );
        let prefix = c == '$'
            || matches!(c, '&' | '!' | '*' | '-')
                && spacing == Spacing::Alone
                && self.prefix_place();
        let space = match c {
            ',' | ';' | '.' | '?' => false,
            // `a: T`, `a: ::b` and `-> ::b`, but `a::b`.
            ':' => {
                matches!(self.prev, Prev::Punct(_, Spacing::Alone))
                    || self.prev == Prev::Word && self.after_keyword()
            }
            // `name!(..)`.
            '!' if self.prev == Prev::Word && spacing == Spacing::Alone && !prefix => false,
            // Generics, or a qualified path (`<T as Trait>::f`); generated
            // code compares little, so `<` is taken for a bracket.
            '<' if spacing == Spacing::Alone
                && !matches!(self.prev, Prev::Punct(_, Spacing::Joint)) =>
            {
                self.generics += 1;
                let space = !matches!(
                    self.prev,
                    Prev::Word | Prev::PathSep | Prev::Open | Prev::Prefix
                ) || self.prev == Prev::Word
                    && self.after_keyword()
                    && !self.out.ends_with("impl");
                self.write("<", space);
                self.prev = Prev::Open;
                return;
            }
            '>' if self.generics > 0
                && !matches!(self.prev, Prev::Punct('-' | '=', Spacing::Joint)) =>
            {
                self.generics -= 1;
                self.write(">", false);
                self.prev = Prev::Word;
                return;
            }
            _ => !glued,
        };
        self.write(&c.to_string(), space);
        if c == ';' {
            self.generics = 0;
        }
        self.prev = match (c, self.prev) {
            (':', Prev::Punct(':', Spacing::Joint)) => Prev::PathSep,
            ('.', _) => Prev::Open,
            _ if prefix => Prev::Prefix,
            _ => Prev::Punct(c, spacing),
        };
    }

    fn group(&mut self, g: &proc_macro2::Group) {
        let (open, close) = match g.delimiter() {
            Delimiter::Brace => ("{", "}"),
            Delimiter::Parenthesis => ("(", ")"),
            Delimiter::Bracket => ("[", "]"),
            Delimiter::None => ("", ""),
        };
        if g.delimiter() == Delimiter::Brace {
            if g.stream().is_empty() {
                self.write("{}", self.prev != Prev::LineStart);
                self.prev = Prev::Word;
                return;
            }
            self.write("{", self.prev != Prev::LineStart);
            self.prev = Prev::Open;
            self.newline();
            self.indent += 1;
            let generics = std::mem::take(&mut self.generics);
            self.stream(g.stream(), true);
            self.generics = generics;
            self.newline();
            self.indent -= 1;
            self.write("}", false);
            self.prev = Prev::Word;
            return;
        }
        // A call or an index hugs its callee; a tuple or a list after an
        // operator does not.
        let space = !matches!(
            self.prev,
            Prev::Word | Prev::Open | Prev::PathSep | Prev::Prefix | Prev::Punct(_, Spacing::Joint)
        ) && self.prev != Prev::Punct('!', Spacing::Alone)
            || self.prev == Prev::Word && self.after_keyword();
        self.write(open, space);
        self.prev = Prev::Open;
        let generics = std::mem::take(&mut self.generics);
        self.stream(g.stream(), false);
        self.generics = generics;
        self.write(close, false);
        self.prev = Prev::Word;
    }
}

/// `ts` printed as code, without trailing spaces.
pub fn pretty(ts: &TokenStream) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
        prev: Prev::LineStart,
        generics: 0,
    };
    p.stream(ts.clone(), true);
    let mut out: String = p
        .out
        .lines()
        .map(|l| l.trim_end().to_owned() + "\n")
        .collect();
    // Where the crate is differs per checkout (a table's schema path).
    let dir = env!("CARGO_MANIFEST_DIR");
    out = out.replace(dir, "$CARGO_MANIFEST_DIR");
    out
}

/// The snapshot of one input file: per derive, a header naming it, its
/// size and its code.
fn snapshot(input: &str) -> String {
    let mut out = String::new();
    let expanded = expand_file(input);
    let (tokens, lines): (usize, usize) = expanded.iter().fold((0, 0), |(t, l), (_, _, ts)| {
        (t + count(ts), l + pretty(ts).lines().count())
    });
    writeln!(out, "// size: {tokens} tokens, {lines} lines").unwrap();
    for (derive, ident, ts) in &expanded {
        let code = pretty(ts);
        writeln!(
            out,
            "\n// #[derive({derive})] on `{ident}`: {} tokens, {} lines\n",
            count(ts),
            code.lines().count()
        )
        .unwrap();
        out.push_str(&code);
    }
    out
}

fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut out: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/expand")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "rs")
                && !p.to_string_lossy().ends_with(".expanded.rs")
        })
        .collect();
    out.sort();
    out
}

#[test]
fn snapshots() {
    let bless = std::env::var_os("DYNAKEY_BLESS").is_some();
    let inputs = inputs();
    assert!(inputs.len() >= 5, "the representative inputs are missing");
    let mut stale = Vec::new();
    for input in inputs {
        let text = fs::read_to_string(&input).expect("the input");
        let got = snapshot(&text);
        let path = input.with_extension("expanded.rs");
        let want = fs::read_to_string(&path).unwrap_or_default();
        if got == want {
            continue;
        }
        if bless {
            fs::write(&path, &got).expect("writable snapshot");
        } else {
            let first = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            stale.push(format!(
                "{}: differs from line {} (got `{}`)",
                path.display(),
                first + 1,
                got.lines().nth(first).unwrap_or("<end>")
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "expansion snapshots differ (review, then rewrite with DYNAKEY_BLESS=1 cargo test -p dynakey-derive --lib expansion):\n{}",
        stale.join("\n")
    );
}

#[test]
fn printer_reads_like_code() {
    let ts: TokenStream = syn::parse_quote! {
        #[allow(dead_code)]
        impl<T: ::core::fmt::Debug> Foo<T> for Vec<T> {
            fn pk(&self, x: &mut u32) -> ::dynakey::Key<'_> { let a = self.b.c(x, 1)?; a }
        }
    };
    assert_eq!(
        pretty(&ts),
        "#[allow(dead_code)]\nimpl<T: ::core::fmt::Debug> Foo<T> for Vec<T> {\n    fn pk(&self, x: &mut u32) -> ::dynakey::Key<'_> {\n        let a = self.b.c(x, 1)?;\n        a\n    }\n}\n"
    );
}
