//! `#[dynamo(..)]` options, through darling.

use darling::util::{Flag, Override, PathList, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant};
use syn::{Attribute, DeriveInput};

use super::parse;
use crate::ctxt::Ctxt;

/// `#[dynamo(crate = "path")]`: where generated code finds the runtime
/// (`::dynakey` by default). Read before anything else, since every
/// generator needs it; the option parsers below accept and ignore it.
pub fn crate_path(attrs: &[Attribute]) -> Option<syn::Path> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynamo")) {
        // Only `crate` is read here; other options (and their errors) are
        // the option parsers'.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                if let Ok(p) = meta
                    .value()
                    .and_then(|v| v.parse::<syn::LitStr>())
                    .and_then(|l| l.parse::<syn::Path>())
                {
                    out = Some(p);
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let _: proc_macro2::TokenStream = content.parse()?;
            }
            Ok(())
        });
    }
    out
}

/// The container options of an entity.
#[derive(FromDeriveInput, Default)]
#[darling(attributes(dynamo), default)]
pub struct EntityOpts {
    /// The discriminator value.
    pub entity: Option<SpannedValue<String>>,
    pub discriminator_attr: Option<SpannedValue<String>>,
    pub pk_attr: Option<SpannedValue<String>>,
    pub sk_attr: Option<SpannedValue<String>>,
    /// `validate = path`: called as `path(&entity)`, returning
    /// `Result<(), impl Display>`, before every put.
    pub validate: Option<syn::Path>,
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

/// The entity's options; `None` when they did not parse (the errors are
/// reported, and checks that need the options skip theirs).
pub fn entity(cx: &Ctxt, input: &DeriveInput) -> Option<EntityOpts> {
    parse(
        cx,
        input,
        "an entity",
        &[
            "entity",
            "discriminator_attr",
            "pk_attr",
            "sk_attr",
            "validate",
            "crate",
        ],
        EntityOpts::from_derive_input,
    )
}

/// The container options of a `DynamoValue` or a `DynamoUnion`.
#[derive(FromDeriveInput, Default)]
#[darling(attributes(dynamo), default)]
pub struct ValueOpts {
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

pub fn value_container(cx: &Ctxt, input: &DeriveInput, what: &str) {
    parse(cx, input, what, &["crate"], ValueOpts::from_derive_input);
}

/// The options of a `DynamoProjection`.
#[derive(FromDeriveInput, Default)]
#[darling(attributes(dynamo), default)]
pub struct ProjectionOpts {
    /// The entity whose fields the projection holds.
    pub of: Option<syn::Path>,
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

pub fn projection(cx: &Ctxt, input: &DeriveInput) -> ProjectionOpts {
    parse(
        cx,
        input,
        "a projection",
        &["of", "crate"],
        ProjectionOpts::from_derive_input,
    )
    .unwrap_or_default()
}

/// The options of a `DynamoTable`.
#[derive(FromDeriveInput, Default)]
#[darling(attributes(dynamo), default)]
pub struct TableOpts {
    /// The entities of the table.
    pub entities: Option<SpannedValue<PathList>>,
    /// Pairs whose sort-key prefixes may overlap (DYNA305 allowed, at a
    /// cost): `#[dynamo(overlap(Task, Comment))]`.
    #[darling(multiple)]
    pub overlap: Vec<SpannedValue<PathList>>,
    /// The schema snapshot, relative to the crate (`dynakey/<Table>.schema`
    /// by default).
    pub schema: Option<SpannedValue<String>>,
    /// A `const` of `&[Migration]`: the migrations that cover drift.
    pub migrations: Option<syn::Path>,
    /// The stream view the code consumes (`stream = "NEW_AND_OLD_IMAGES"`).
    pub stream: Option<SpannedValue<String>>,
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

pub fn table(cx: &Ctxt, input: &DeriveInput) -> TableOpts {
    parse(
        cx,
        input,
        "a table",
        &[
            "entities",
            "overlap",
            "schema",
            "migrations",
            "stream",
            "crate",
        ],
        TableOpts::from_derive_input,
    )
    .unwrap_or_default()
}

/// The options of one field.
#[derive(FromField, Default)]
#[darling(attributes(dynamo), default)]
pub struct FieldOpts {
    /// The attribute name.
    pub rename: Option<SpannedValue<String>>,
    pub omit_empty: Flag,
    pub skip: Flag,
    pub serde: Flag,
    pub ttl: Flag,
    pub version: Flag,
    /// `default` (the type's `Default`) or `default = "path::to::fn"`: what
    /// an item without the attribute reads as.
    pub default: Option<SpannedValue<Override<syn::Path>>>,
    /// `validate = path`: called as `path(&value)` (the inner value of an
    /// `Option`), returning `Result<(), impl Display>`, before every write.
    pub validate: Option<syn::Path>,
    /// Set by the runtime when the item is created.
    pub created_at: Flag,
    /// Set by the runtime on every write.
    pub updated_at: Flag,
    /// One item per value, enforced with guard items: `unique` (one per
    /// table) or `unique(scope = field)` (one per value of `field`).
    pub unique: Option<Override<UniqueOpts>>,
}

/// The options of `unique(..)`.
#[derive(FromMeta, Default, Clone)]
pub struct UniqueOpts {
    /// The field whose value scopes the unique value (`scope = tenant`:
    /// one per tenant).
    pub scope: Option<syn::Path>,
}

pub fn field(cx: &Ctxt, f: &syn::Field) -> FieldOpts {
    parse(
        cx,
        f,
        "a field",
        &[
            "rename",
            "omit_empty",
            "skip",
            "serde",
            "ttl",
            "version",
            "default",
            "validate",
            "created_at",
            "updated_at",
            "unique",
        ],
        FieldOpts::from_field,
    )
    .unwrap_or_default()
}

/// The options of one enum variant.
#[derive(FromVariant, Default)]
#[darling(attributes(dynamo), default)]
pub struct VariantOpts {
    /// The stored name.
    pub rename: Option<SpannedValue<String>>,
}

pub fn variant(cx: &Ctxt, v: &syn::Variant) -> Option<SpannedValue<String>> {
    parse(cx, v, "a variant", &["rename"], VariantOpts::from_variant).and_then(|o| o.rename)
}
