//! Unique values (DYNA117): a type whose stored text is one per value,
//! stored as its own attribute, and not part of the table key (which is
//! one item per value already). A scope (`unique(scope = field)`, DYNA123)
//! names another stored field of the entity whose text is one per value.

use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use crate::diag::render::{did_you_mean, placeholder};
use crate::diag::Code;
use crate::model::{Entity, FieldRole};
use crate::types::TypeKind;

/// Whether a value of `kind` is stored as one text per value.
fn one_text(kind: &TypeKind) -> bool {
    matches!(
        kind,
        TypeKind::String
            | TypeKind::Int
            | TypeKind::Uuid
            | TypeKind::Date
            | TypeKind::DateTime
            | TypeKind::Bool
    )
}

/// A path as written (`crate::tenant`).
fn path_text(p: &syn::Path) -> String {
    let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
    let lead = if p.leading_colon.is_some() { "::" } else { "" };
    format!("{lead}{}", segs.join("::"))
}

/// DYNA123: the scope of `f`'s unique value names another stored field of
/// the entity whose stored text is one per value.
fn check_scope(cx: &Ctxt, e: &Entity, f: &crate::model::Field, scope: &syn::Path) {
    let name = &f.name.text;
    let fields = || e.struct_fields().map(|(_, g)| g);
    let Some(ident) = scope.get_ident() else {
        cx.report(scope.span(), Code::UniqueScope.msg(format!("#[dynamo(unique(scope = ..))] on `{name}` names `{}`, which is not a field name", path_text(scope))).help(format!("write the name of the field whose value scopes `{name}`: `unique(scope = tenant)`")));
        return;
    };
    let wanted = ident.to_string();
    let Some(g) = fields().find(|g| g.name.text == wanted) else {
        let names: Vec<&str> = fields()
            .filter(|g| g.name.text != *name)
            .map(|g| g.name.text.as_str())
            .collect();
        let hint = match did_you_mean(&wanted, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`? "),
            None => String::new(),
        };
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        cx.report(ident.span(), Code::UniqueScope.msg(format!("#[dynamo(unique(scope = {wanted}))] on `{name}`: `{wanted}` is not a field of `{}`", e.ident)).help(format!("{hint}the scope is one of the entity's fields: {list}")));
        return;
    };
    if g.name.text == *name {
        cx.report(ident.span(), Code::UniqueScope.msg(format!("#[dynamo(unique(scope = {wanted}))] scopes `{name}` by itself")).help(format!("name the field whose value scopes `{name}` (one `{name}` per value of it), or write `unique` for one per table")));
    } else if !one_text(&g.kind) || !matches!(g.role, FieldRole::Plain | FieldRole::OmitEmpty) {
        cx.report(ident.span(), Code::UniqueScope.msg(format!("#[dynamo(unique(scope = {wanted}))] on `{name}`: `{wanted}` is not stored as one text per value")).help("a scope is a stored string, integer, uuid, date, instant or bool field (or an Option of one), not `serde`, `skip` or `ttl`"));
    }
}

pub fn check_unique(cx: &Ctxt, e: &Entity) {
    for (_, f) in e.struct_fields().filter(|(_, f)| f.unique) {
        let name = &f.name.text;
        if let Some(scope) = &f.unique_scope {
            check_scope(cx, e, f, scope);
        }
        let ok_kind = one_text(&f.kind);
        if !ok_kind {
            let ty = f.ty_text.clone();
            cx.report(f.ty.span(), Code::Unique.msg(format!("#[dynamo(unique)] on `{name}` of type `{ty}`, whose stored text is not one per value")).help("a unique field is a string, an integer, a uuid, a date, an instant or a bool (or an Option of one); keep a normalized string beside it and mark that unique"));
        } else if !matches!(f.role, FieldRole::Plain | FieldRole::OmitEmpty) {
            let r = f.role.word();
            cx.report(
                f.span,
                Code::Unique
                    .msg(format!(
                        "#[dynamo(unique)] on `{name}`, which is #[dynamo({r})]"
                    ))
                    .help(format!(
                        "a unique value is stored as its own attribute; drop `{r}`"
                    )),
            );
        }
        for k in std::iter::once(&e.pk).chain(e.sk.iter()) {
            if let Some(range) = placeholder(&k.tpl.text, name) {
                k.tpl.report(cx, Code::Unique.msg(format!("`{name}` is #[dynamo(unique)] and part of the table key, which is one item per value already")).help(format!("drop #[dynamo(unique)] from `{name}`")), range);
            }
        }
    }
}
