//! The checked model codegen works from. Everything here is valid: codegen
//! never reports user errors.

use proc_macro2::Span;
use syn::{Ident, Type};

use crate::template::Format;
use crate::types::TypeKind;

pub struct Field {
    pub ident: Ident,
    pub ty: Type,
    /// The type inside `Option`, or the type itself.
    pub inner: Type,
    pub optional: bool,
    pub kind: TypeKind,
    pub attr: String,
    pub omit_empty: bool,
    pub skip: bool,
    pub serde: bool,
    pub ttl: bool,
    pub version: bool,
    pub span: Span,
}

impl Field {
    /// May be absent: `Option`, or an `omit_empty` value.
    pub fn may_be_absent(&self) -> bool {
        self.optional || self.omit_empty
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Table,
    Global,
    Local,
}

#[derive(Clone)]
pub enum Part {
    Lit(String),
    Field { field: usize, format: Format },
}

/// Which key of the item a template fills.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    /// A partition key (the table's or an index's): typed by `pk(..)`.
    Partition,
    /// A sort key: queried through a condition chain.
    Sort,
}

#[derive(Clone)]
pub struct KeyModel {
    pub attr: String,
    pub template: String,
    pub parts: Vec<Part>,
    /// `pk`, `sk`, `gsi1_pk`, …: the name of the generated functions.
    pub fn_name: String,
    pub kind: KeyKind,
    pub role: KeyRole,
    pub index: Option<String>,
}

impl KeyModel {
    pub fn fields(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().filter_map(|p| match p {
            Part::Field { field, .. } => Some(*field),
            Part::Lit(_) => None,
        })
    }

    pub fn prefix(&self) -> String {
        match self.parts.first() {
            Some(Part::Lit(l)) => l.clone(),
            _ => String::new(),
        }
    }
}

pub struct IndexModel {
    pub name: String,
    pub kind: KeyKind,
    pub pk: KeyModel,
    pub sk: Option<KeyModel>,
    pub sparse: bool,
    pub snake: String,
}

pub struct Entity {
    pub ident: Ident,
    pub discriminator: String,
    pub disc_attr: String,
    pub pk: KeyModel,
    pub sk: Option<KeyModel>,
    pub indexes: Vec<IndexModel>,
    pub fields: Vec<Field>,
    pub ttl_attr: Option<String>,
}
