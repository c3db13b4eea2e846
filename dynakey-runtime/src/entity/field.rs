//! A stored field's metadata: its name, attribute, type, and how its value
//! is stored (what the schema snapshot records of it).

/// A stored field (see the example on [`EntityMeta`](super::EntityMeta)).
#[derive(Debug)]
pub struct FieldMeta {
    /// The Rust field name.
    pub name: &'static str,
    /// The attribute name.
    pub attr: &'static str,
    /// Whether the field may be absent (`Option` or `omit_empty`).
    pub optional: bool,
    /// The field's type as written, without spaces (`Option<String>`).
    pub ty: &'static str,
    /// Whether a missing attribute reads as a default (`#[dynamo(default)]`).
    pub default: bool,
    /// How the value is stored when its type alone does not say it.
    pub form: FieldForm,
    /// The snapshot's lines below the field's (see [`Shape`](crate::codec::Shape)).
    #[doc(hidden)]
    pub __shape: fn() -> Vec<dynakey_core::snapshot::Below>,
}

/// How a field's value is stored, where the field's attributes and not its
/// type decide it: the same `OffsetDateTime` is an RFC 3339 `S` of its own,
/// and an `N` of epoch seconds under `#[dynamo(ttl)]`. The schema snapshot
/// records it, so a change of it is drift (DYNA506).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "SESSION")]
/// # #[pk("SESSION#<id>")]
/// # struct Session { id: String, #[dynamo(ttl)] expires: time::OffsetDateTime, started: time::OffsetDateTime }
/// use dynakey_runtime::{entity::FieldForm, Entity};
/// let form = |name| Session::META.fields.iter().find(|f| f.name == name).unwrap().form;
/// assert_eq!(form("expires"), FieldForm::Ttl);
/// assert_eq!(form("started"), FieldForm::Own);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldForm {
    /// The type's own form (its `Attr` impl).
    Own,
    /// Epoch seconds in an `N` (`#[dynamo(ttl)]`).
    Ttl,
    /// serde's form of the value (`#[dynamo(serde)]`).
    Serde,
}

impl FieldForm {
    /// The word the schema snapshot writes after the field's type (none
    /// for [`FieldForm::Own`]).
    pub fn snapshot_word(self) -> Option<&'static str> {
        self.snapshot_form().word()
    }

    /// The form as the schema snapshot's model says it.
    pub fn snapshot_form(self) -> dynakey_core::snapshot::Form {
        use dynakey_core::snapshot::Form;
        match self {
            FieldForm::Own => Form::Own,
            FieldForm::Ttl => Form::Ttl,
            FieldForm::Serde => Form::Serde,
        }
    }
}

impl FieldMeta {
    /// A required field stored under its own name without a default: what
    /// the derive writes for most fields.
    #[doc(hidden)]
    pub const fn __plain(name: &'static str, ty: &'static str) -> Self {
        Self::__new(name, name, false, ty, false, FieldForm::Own, Vec::new)
    }

    /// [`__plain`](Self::__plain) of a type that stores names of its own
    /// (a nested struct's), which `shape` lists.
    #[doc(hidden)]
    pub const fn __shaped(
        name: &'static str,
        ty: &'static str,
        shape: fn() -> Vec<dynakey_core::snapshot::Below>,
    ) -> Self {
        Self::__new(name, name, false, ty, false, FieldForm::Own, shape)
    }

    /// What the derive writes, positionally.
    #[doc(hidden)]
    pub const fn __new(
        name: &'static str,
        attr: &'static str,
        optional: bool,
        ty: &'static str,
        default: bool,
        form: FieldForm,
        shape: fn() -> Vec<dynakey_core::snapshot::Below>,
    ) -> Self {
        FieldMeta {
            name,
            attr,
            optional,
            ty,
            default,
            form,
            __shape: shape,
        }
    }
}
