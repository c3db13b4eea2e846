//! Key templates into key models: template syntax (DYNA100) and
//! placeholders that name no field (DYNA101). A placeholder naming no field
//! becomes a synthetic field, so a failed derive's stubs still take the
//! argument the user passes for it; a placeholder with a syntax error is
//! left out (it names nothing the user could pass).

use super::stored_field_help;
use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Field, FieldRole, KeyKind, KeyModel, KeyRole, Part, TemplateLit};
use crate::template::{scan, Segment};
use crate::types::TypeKind;
use crate::unraw::Name;

/// What a key is, besides its template.
pub struct KeySpec {
    pub role: KeyRole,
    pub kind: KeyKind,
    pub attr: String,
    pub fn_name: String,
    pub index: Option<String>,
}

/// Scans one template into a key model, reporting its syntax errors and
/// unknown placeholders.
pub fn key(
    cx: &Ctxt,
    entity: &syn::Ident,
    fields: &mut Vec<Field>,
    tpl: &TemplateLit,
    spec: KeySpec,
) -> KeyModel {
    let (segments, syntax) = scan(&tpl.text);
    for e in syntax {
        tpl.report(
            cx,
            Code::TemplateSyntax
                .msg(format!("{} in template", e.message))
                .help_opt(e.help),
            e.range,
        );
    }
    let mut parts = Vec::new();
    let mut pos = 0;
    for seg in segments {
        match seg {
            Segment::Lit(text) => {
                let range = pos..pos + text.len();
                pos = range.end;
                parts.push(Part::Lit { text, range });
            }
            Segment::Field(p) => {
                pos = p.range.end;
                if !p.valid {
                    continue;
                }
                let idx = match fields.iter().position(|f| f.name.text == p.name) {
                    Some(i) => i,
                    None => {
                        let help = stored_field_help(&p.name, fields);
                        tpl.report(
                            cx,
                            Code::UnknownField
                                .msg(format!("`<{}>` names no field of `{entity}`", p.name))
                                .help(help),
                            p.range.clone(),
                        );
                        fields.push(synthetic(&p.name, tpl.span));
                        fields.len() - 1
                    }
                };
                parts.push(Part::Field {
                    field: idx,
                    format: p.format,
                    range: p.range,
                    format_range: p.format_range,
                });
            }
        }
    }
    KeyModel {
        attr: spec.attr,
        tpl: tpl.clone(),
        parts,
        fn_name: spec.fn_name,
        kind: spec.kind,
        role: spec.role,
        index: spec.index,
        partial: false,
    }
}

/// The stand-in for a placeholder that names no field (or a second
/// mention of the same unknown name).
pub fn synthetic(name: &str, span: proc_macro2::Span) -> Field {
    let unit: syn::Type = syn::parse_quote!(());
    Field {
        name: Name::synthetic(name),
        ty_span: span,
        inner_span: span,
        ty_text: "()".to_owned(),
        ty: unit.clone(),
        inner: unit,
        optional: false,
        kind: TypeKind::Other,
        role: FieldRole::Plain,
        default: None,
        default_span: None,
        rename_span: None,
        attr: name.to_owned(),
        validate: None,
        stamp: None,
        unique: false,
        unique_scope: None,
        span,
        synthetic: true,
    }
}
