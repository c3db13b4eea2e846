//! Key templates: syntax (DYNA100), fields (DYNA101, DYNA102), formats
//! against types (DYNA103, DYNA104, DYNA107), delimiters (DYNA105, DYNA115),
//! and `Option` inputs (DYNA106).

use std::ops::Range;

use crate::attr::TemplateLit;
use crate::ctxt::Ctxt;
use crate::model::{Field, KeyKind, KeyModel, KeyRole, Part};
use crate::render::{field_help, placeholder};
use crate::template::{scan, Format, Segment};
use crate::types::TypeKind;

use super::diag;

pub struct KeyCtx<'a> {
    pub cx: &'a Ctxt,
    pub fields: &'a [Field],
    pub ident: &'a syn::Ident,
}

impl KeyCtx<'_> {
    /// Scans and checks one template; `None` if it has errors.
    pub fn key(
        &self,
        tpl: &TemplateLit,
        is_sort: bool,
        kind: KeyKind,
        attr: String,
        fn_name: String,
        index: Option<String>,
    ) -> Option<KeyModel> {
        let cx = self.cx;
        let (segments, syntax) = scan(&tpl.text);
        let mut ok = syntax.is_empty();
        for e in syntax {
            diag(
                cx,
                tpl,
                "DYNA100",
                format!("{} in template", e.message),
                e.range,
                e.help,
            );
        }
        // Byte ranges of every segment, for carets.
        let mut ranges = Vec::with_capacity(segments.len());
        let mut pos = 0;
        for s in &segments {
            let r = match s {
                Segment::Lit(l) => pos..pos + l.len(),
                Segment::Field(p) => p.range.clone(),
            };
            pos = r.end;
            ranges.push(r);
        }
        let mut parts = Vec::new();
        let mut prev_field: Option<&str> = None;
        for (i, seg) in segments.iter().enumerate() {
            match seg {
                Segment::Lit(l) => {
                    prev_field = None;
                    parts.push(Part::Lit(l.clone()));
                }
                Segment::Field(p) => {
                    if let Some(prev) = prev_field {
                        diag(
                            cx,
                            tpl,
                            "DYNA105",
                            format!("`<{prev}>` and `<{}>` have no literal between them, so the key cannot be parsed back", p.name),
                            p.range.clone(),
                            Some(format!("put a delimiter between them, as in `<{prev}>#<{}>`", p.name)),
                        );
                        ok = false;
                    }
                    prev_field = Some(&p.name);
                    if !p.valid {
                        continue;
                    }
                    let Some(idx) = self.fields.iter().position(|f| f.ident == p.name.as_str())
                    else {
                        let help = field_help(&p.name, self.fields);
                        diag(
                            cx,
                            tpl,
                            "DYNA101",
                            format!("`<{}>` names no field of `{}`", p.name, self.ident),
                            p.range.clone(),
                            Some(help),
                        );
                        ok = false;
                        continue;
                    };
                    let f = &self.fields[idx];
                    let why = match f.role {
                        crate::model::FieldRole::Skip => Some("skip"),
                        crate::model::FieldRole::Serde => Some("serde"),
                        crate::model::FieldRole::Ttl => Some("ttl"),
                        crate::model::FieldRole::Version => Some("version"),
                        _ => None,
                    };
                    if let Some(why) = why {
                        diag(
                            cx,
                            tpl,
                            "DYNA102",
                            format!("`{}` is #[dynamo({why})] and cannot be part of a key", p.name),
                            p.range.clone(),
                            Some("a key part is stored in the key attribute; drop the option or the placeholder".into()),
                        );
                        ok = false;
                    }
                    ok &= self.check_format(
                        tpl,
                        p.format,
                        f,
                        &p.name,
                        p.format_range.clone().unwrap_or(p.range.clone()),
                        p.range.clone(),
                        is_sort,
                    );
                    if p.format == Format::Path && i + 1 < segments.len() {
                        diag(
                            cx,
                            tpl,
                            "DYNA105",
                            format!("`<{}:path>` is followed by more of the template, so the key cannot be parsed back: a path may hold any text", p.name),
                            p.range.clone(),
                            Some("end the template with the `path` field, or drop `:path` so the value is escaped".into()),
                        );
                        ok = false;
                    }
                    parts.push(Part::Field {
                        field: idx,
                        format: p.format,
                    });
                }
            }
        }
        ok &= self.check_delimiters(tpl, &segments, &ranges);
        ok.then(|| KeyModel {
            attr,
            template: tpl.text.clone(),
            parts,
            fn_name,
            kind,
            role: if is_sort {
                KeyRole::Sort
            } else {
                KeyRole::Partition
            },
            index,
            partial: false,
        })
    }

    /// DYNA103, DYNA104, DYNA107: the format against the field's type, as far
    /// as the syntax tells; the generated trait bounds catch the rest.
    #[allow(clippy::too_many_arguments)]
    fn check_format(
        &self,
        tpl: &TemplateLit,
        format: Format,
        f: &Field,
        name: &str,
        frange: Range<usize>,
        prange: Range<usize>,
        is_sort: bool,
    ) -> bool {
        let cx = self.cx;
        let k = f.kind;
        let numeric_help = |k: TypeKind| {
            match k {
            TypeKind::Int => format!("write `<{name}:d6>` for a value that is never negative, or `<{name}:n6>` for a signed one"),
            _ => format!("write `<{name}:n8.2>`: a sign, 8 integer digits and 2 decimal places"),
        }
        };
        match format {
            Format::Path if !matches!(k, TypeKind::String | TypeKind::Other) => {
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `path` keeps text as it is, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some(format!("drop the format: `<{name}>`")),
                );
                false
            }
            Format::Text if is_sort && k.is_number() => {
                diag(
                    cx,
                    tpl,
                    "DYNA103",
                    format!("`<{name}>` is a number in a sort key without a fixed width: `10` would sort before `2`"),
                    prange,
                    Some(numeric_help(k)),
                );
                false
            }
            Format::Padded(w) if matches!(k, TypeKind::Float | TypeKind::Decimal) => {
                diag(
                    cx,
                    tpl,
                    "DYNA104",
                    format!(
                        "`d{w}` zero-pads integers, but `{name}` is a {}",
                        if k == TypeKind::Float {
                            "float"
                        } else {
                            "decimal"
                        }
                    ),
                    frange,
                    Some(format!(
                        "use a signed decimal format, as in `<{name}:n{w}.2>`"
                    )),
                );
                false
            }
            Format::Padded(w) | Format::Signed(w)
                if !matches!(
                    k,
                    TypeKind::Int | TypeKind::Other | TypeKind::Float | TypeKind::Decimal
                ) =>
            {
                let fmt = if matches!(format, Format::Padded(_)) {
                    format!("d{w}")
                } else {
                    format!("n{w}")
                };
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!("format `{fmt}` does not fit `{name}`: it writes integers, and `{name}` is {}", describe(k)),
                    frange,
                    Some(format!("drop the format: `<{name}>`")),
                );
                false
            }
            Format::Signed(w) if matches!(k, TypeKind::Float | TypeKind::Decimal) => {
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `n{w}` writes integers, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some(format!("give it decimal places: `<{name}:n{w}.2>`")),
                );
                false
            }
            Format::Decimal(w, p)
                if !matches!(k, TypeKind::Float | TypeKind::Decimal | TypeKind::Other) =>
            {
                let help = if k == TypeKind::Int {
                    format!("an integer takes `<{name}:n{w}>`")
                } else {
                    format!("drop the format: `<{name}>`")
                };
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `n{w}.{p}` writes decimals, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some(help),
                );
                false
            }
            Format::Reverse
                if !matches!(k, TypeKind::DateTime | TypeKind::Int | TypeKind::Other) =>
            {
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `rev` reverses instants, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some("use `rev` on a time::OffsetDateTime (or epoch milliseconds)".into()),
                );
                false
            }
            _ => true,
        }
    }

    /// Whether the text of `<name:format>` varies in width (and so is
    /// escaped and ended by its delimiter). Types the derive cannot classify
    /// count as varying: the stricter rule.
    fn varies(&self, name: &str, format: Format) -> bool {
        let kind = self
            .fields
            .iter()
            .find(|f| f.ident == name)
            .map_or(TypeKind::Other, |f| f.kind);
        !format.fixed_width()
            && !matches!(kind, TypeKind::Uuid | TypeKind::Date | TypeKind::DateTime)
    }

    /// DYNA115 and the literal rules. The literal after a field of varying
    /// width starts with its delimiter, which must sort below digits and
    /// letters (`#`, `-`, `.`, `/`, `!`, a space…): escaping then keeps
    /// every character of a value above it, so keys sort as their values.
    /// After a fixed-width field any character may follow. Literals hold
    /// no control characters and no U+10FFFF.
    fn check_delimiters(
        &self,
        tpl: &TemplateLit,
        segments: &[Segment],
        ranges: &[Range<usize>],
    ) -> bool {
        let mut ok = true;
        let mut delims = Vec::new();
        for (i, s) in segments.iter().enumerate() {
            if let (Segment::Field(p), Some(Segment::Lit(l))) = (s, segments.get(i + 1)) {
                if !self.varies(&p.name, p.format) {
                    continue;
                }
                if let Some(d) = l.chars().next() {
                    delims.push((d, ranges[i + 1].start, p.name.clone()));
                }
            }
        }
        for (d, at, name) in &delims {
            if *d >= '0' {
                diag(
                    self.cx,
                    tpl,
                    "DYNA115",
                    format!("the delimiter `{d}` after `<{name}>` sorts above digits, so values holding digits (or letters) sort out of the order of the fields"),
                    *at..*at + d.len_utf8(),
                    Some("start the literal after a text field with a character below `0`, such as `#`; any character may follow a fixed-width field (`d6`, `n4`, a date, a uuid)".into()),
                );
                ok = false;
            }
        }
        for (i, s) in segments.iter().enumerate() {
            if let Segment::Lit(l) = s {
                for (off, c) in l.char_indices() {
                    if c < ' ' || c == '\u{10FFFF}' {
                        let at = ranges[i].start + off;
                        diag(
                            self.cx,
                            tpl,
                            "DYNA100",
                            format!("the literal holds {c:?}, which a key cannot hold"),
                            at..at + c.len_utf8(),
                            Some("use printable characters in key literals".into()),
                        );
                        ok = false;
                    }
                }
            }
        }
        let Some(&(lowest, _, _)) = delims.iter().min_by_key(|(d, _, _)| *d) else {
            return ok;
        };
        for (i, s) in segments.iter().enumerate() {
            if let Segment::Lit(l) = s {
                for (off, c) in l.char_indices() {
                    if c >= ' ' && c < lowest {
                        let at = ranges[i].start + off;
                        diag(
                            self.cx,
                            tpl,
                            "DYNA115",
                            format!("the literal holds {c:?}, which sorts below the delimiter `{lowest}`, so keys sort out of the order of their fields"),
                            at..at + c.len_utf8(),
                            Some(format!("use only characters above `{lowest}` in literals, or a lower delimiter")),
                        );
                        ok = false;
                    }
                }
            }
        }
        ok
    }

    /// DYNA106: `Option` inputs are for sparse indexes only.
    pub fn no_optional(&self, tpl: &TemplateLit, key: &KeyModel, what: &str) {
        for part in &key.parts {
            if let Part::Field { field, .. } = part {
                let f = &self.fields[*field];
                if f.optional {
                    let name = f.ident.to_string();
                    let range = placeholder(&tpl.text, &name).unwrap_or(0..tpl.text.len());
                    let help = if key.kind == KeyKind::Global {
                        "mark the index `sparse` so an item with no value stays out of it, or make the field required".to_owned()
                    } else {
                        format!("a table key needs every input: make `{name}` a plain (non-Option) field")
                    };
                    diag(
                        self.cx,
                        tpl,
                        "DYNA106",
                        format!("`{name}` is an Option, but {what} needs a value for every item"),
                        range,
                        Some(help),
                    );
                }
            }
        }
    }
}

fn describe(k: TypeKind) -> &'static str {
    match k {
        TypeKind::String => "a string",
        TypeKind::Uuid => "a uuid",
        TypeKind::Date => "a date",
        TypeKind::DateTime => "an instant",
        TypeKind::Bool => "a bool",
        TypeKind::Int => "an integer",
        TypeKind::Float => "a float",
        TypeKind::Decimal => "a decimal",
        TypeKind::Other => "of another type",
    }
}
