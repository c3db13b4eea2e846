//! What the derive can tell about a field's type from its syntax. Types it
//! cannot classify are checked by trait bounds in the generated code instead.

use syn::{GenericArgument, PathArguments, Type};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    Int,
    Float,
    Decimal,
    String,
    Uuid,
    Date,
    DateTime,
    Bool,
    Other,
}

impl TypeKind {
    pub fn is_number(self) -> bool {
        matches!(self, TypeKind::Int | TypeKind::Float | TypeKind::Decimal)
    }
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        Type::Group(g) => last_segment(&g.elem),
        Type::Paren(p) => last_segment(&p.elem),
        _ => None,
    }
}

/// `Option<T>` → `T`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let seg = last_segment(ty)?;
    if seg.ident != "Option" {
        return None;
    }
    match &seg.arguments {
        PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first() {
            Some(GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

pub fn kind(ty: &Type) -> TypeKind {
    let Some(seg) = last_segment(ty) else {
        return TypeKind::Other;
    };
    match seg.ident.to_string().as_str() {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" => TypeKind::Int,
        "f32" | "f64" => TypeKind::Float,
        "Decimal" => TypeKind::Decimal,
        "String" => TypeKind::String,
        "Uuid" => TypeKind::Uuid,
        "Date" => TypeKind::Date,
        "OffsetDateTime" => TypeKind::DateTime,
        "bool" => TypeKind::Bool,
        _ => TypeKind::Other,
    }
}

/// A set type (`HashSet`, `BTreeSet`): an absent attribute reads as empty.
pub fn is_set(ty: &Type) -> bool {
    matches!(
        last_segment(ty).map(|s| s.ident.to_string()).as_deref(),
        Some("HashSet" | "BTreeSet")
    )
}

/// A list (`Vec`).
pub fn is_list(ty: &Type) -> bool {
    matches!(
        last_segment(ty).map(|s| s.ident.to_string()).as_deref(),
        Some("Vec")
    )
}

/// Bytes (`Blob`), stored as B.
pub fn is_blob(ty: &Type) -> bool {
    matches!(
        last_segment(ty).map(|s| s.ident.to_string()).as_deref(),
        Some("Blob")
    )
}

/// A type whose stored form holds no names of its own (a number, a string,
/// a uuid, a time, bytes, a set, or an `Option` of one), so the schema
/// snapshot has nothing to write below its field: the derive then names no
/// shape function for it, one generic instance fewer per field.
pub fn holds_no_names(ty: &Type) -> bool {
    if let Some(inner) = option_inner(ty) {
        return holds_no_names(inner);
    }
    kind(ty) != TypeKind::Other || is_blob(ty) || is_set(ty)
}
