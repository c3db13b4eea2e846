//! Unique values (DYNA117): a type whose stored text is one per value,
//! stored as its own attribute, and not part of the table key (which is
//! one item per value already).

use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use crate::model::{Entity, FieldRole};
use crate::render::placeholder;
use crate::types::TypeKind;

use super::diag;

pub fn role_name(r: FieldRole) -> &'static str {
    match r {
        FieldRole::Plain => "plain",
        FieldRole::OmitEmpty => "omit_empty",
        FieldRole::Skip => "skip",
        FieldRole::Serde => "serde",
        FieldRole::Ttl => "ttl",
        FieldRole::Version => "version",
    }
}

pub fn check_unique(cx: &Ctxt, e: &Entity) {
    for (_, f) in e.struct_fields().filter(|(_, f)| f.unique) {
        let name = &f.name.text;
        let ok_kind = matches!(
            f.kind,
            TypeKind::String
                | TypeKind::Int
                | TypeKind::Uuid
                | TypeKind::Date
                | TypeKind::DateTime
                | TypeKind::Bool
        );
        if !ok_kind {
            let ty = f.ty_text();
            cx.error(f.ty.span(), format!("DYNA117: #[dynamo(unique)] on `{name}` of type `{ty}`, whose stored text is not one per value\n  = help: a unique field is a string, an integer, a uuid, a date, an instant or a bool (or an Option of one); keep a normalized string beside it and mark that unique"));
        } else if !matches!(f.role, FieldRole::Plain | FieldRole::OmitEmpty) {
            let r = role_name(f.role);
            cx.error(f.span, format!("DYNA117: #[dynamo(unique)] on `{name}`, which is #[dynamo({r})]\n  = help: a unique value is stored as its own attribute; drop `{r}`"));
        }
        for k in std::iter::once(&e.pk).chain(e.sk.iter()) {
            if let Some(range) = placeholder(&k.tpl.text, name) {
                diag(cx, &k.tpl, "DYNA117", format!("`{name}` is #[dynamo(unique)] and part of the table key, which is one item per value already"), range, Some(format!("drop #[dynamo(unique)] from `{name}`")));
            }
        }
    }
}
