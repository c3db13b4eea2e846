//! A placeholder's format against its field: a field that is not stored
//! as itself (DYNA102), a number in a sort key without a fixed width
//! (DYNA103), `d<w>` on a decimal (DYNA104), and a format that does not fit
//! the type (DYNA107), as far as the syntax of the type tells; the trait
//! bounds of the generated code catch the rest.

use std::ops::Range;

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, Field, FieldRole, KeyModel, KeyRole, Part};
use crate::template::Format;
use crate::types::TypeKind;

pub fn check_formats(cx: &Ctxt, e: &Entity) {
    for k in e.templates() {
        for part in &k.parts {
            let Part::Field {
                field,
                format,
                range,
                format_range,
            } = part
            else {
                continue;
            };
            let f = &e.fields[*field];
            if f.synthetic {
                continue;
            }
            if let Some(why) = not_a_key_part(f.role) {
                k.tpl.report(cx, Code::NotAKeyType.msg(format!("`{}` is #[dynamo({why})] and cannot be part of a key", f.name.text)).help("a key part is stored in the key attribute; drop the option or the placeholder"), range.clone());
                continue;
            }
            let frange = format_range.clone().unwrap_or(range.clone());
            format_fits(cx, k, *format, f, frange, range.clone());
        }
    }
}

fn not_a_key_part(role: FieldRole) -> Option<&'static str> {
    match role {
        FieldRole::Skip => Some("skip"),
        FieldRole::Serde => Some("serde"),
        FieldRole::Ttl => Some("ttl"),
        FieldRole::Version => Some("version"),
        FieldRole::Plain | FieldRole::OmitEmpty => None,
    }
}

fn format_fits(
    cx: &Ctxt,
    k: &KeyModel,
    format: Format,
    f: &Field,
    frange: Range<usize>,
    prange: Range<usize>,
) {
    let name = &f.name.text;
    let kind = f.kind;
    let tpl = &k.tpl;
    let numeric_help = match kind {
        TypeKind::Int => format!("write `<{name}:d6>` for a value that is never negative, or `<{name}:n6>` for a signed one"),
        _ => format!("write `<{name}:n8.2>`: a sign, 8 integer digits and 2 decimal places"),
    };
    let (code, message, range, help) = match format {
        Format::Path if !matches!(kind, TypeKind::String | TypeKind::Other) => (
            Code::FormatForType,
            format!("format `path` keeps text as it is, and `{name}` is {}", describe(kind)),
            frange,
            format!("drop the format: `<{name}>`"),
        ),
        Format::Text if k.role == KeyRole::Sort && kind.is_number() => (
            Code::UnpaddedNumber,
            format!("`<{name}>` is a number in a sort key without a fixed width: `10` would sort before `2`"),
            prange,
            numeric_help,
        ),
        Format::Padded(w) if matches!(kind, TypeKind::Float | TypeKind::Decimal) => (
            Code::PaddedDecimal,
            format!(
                "`d{w}` zero-pads integers, but `{name}` is a {}",
                if kind == TypeKind::Float { "float" } else { "decimal" }
            ),
            frange,
            format!("use a signed decimal format, as in `<{name}:n{w}.2>`"),
        ),
        Format::Padded(w) | Format::Signed(w)
            if !matches!(
                kind,
                TypeKind::Int | TypeKind::Other | TypeKind::Float | TypeKind::Decimal
            ) =>
        {
            let fmt = match format {
                Format::Padded(_) => format!("d{w}"),
                _ => format!("n{w}"),
            };
            (
                Code::FormatForType,
                format!("format `{fmt}` does not fit `{name}`: it writes integers, and `{name}` is {}", describe(kind)),
                frange,
                format!("drop the format: `<{name}>`"),
            )
        }
        Format::Signed(w) if matches!(kind, TypeKind::Float | TypeKind::Decimal) => (
            Code::FormatForType,
            format!("format `n{w}` writes integers, and `{name}` is {}", describe(kind)),
            frange,
            format!("give it decimal places: `<{name}:n{w}.2>`"),
        ),
        Format::Decimal(w, p)
            if !matches!(kind, TypeKind::Float | TypeKind::Decimal | TypeKind::Other) =>
        {
            let help = if kind == TypeKind::Int {
                format!("an integer takes `<{name}:n{w}>`")
            } else {
                format!("drop the format: `<{name}>`")
            };
            (
                Code::FormatForType,
                format!("format `n{w}.{p}` writes decimals, and `{name}` is {}", describe(kind)),
                frange,
                help,
            )
        }
        Format::Reverse if !matches!(kind, TypeKind::DateTime | TypeKind::Int | TypeKind::Other) => (
            Code::FormatForType,
            format!("format `rev` reverses instants, and `{name}` is {}", describe(kind)),
            frange,
            "use `rev` on a time::OffsetDateTime (or epoch milliseconds)".into(),
        ),
        _ => return,
    };
    tpl.report(cx, code.msg(message).help(help), range);
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
