//! Derive macros of dynakey. Use them through the `dynakey` crate.
//!
//! The structure follows serde_derive: attributes are parsed (`attr`),
//! checked into a valid model with every error collected (`check`,
//! `ctxt`, `model`), and only then generated (`gen`). Codegen never reports
//! user errors; when a derive fails, a fallback impl keeps call sites quiet
//! so one mistake is one error.

mod attr;
mod check;
mod ctxt;
mod gen;
mod model;
mod render;
mod template;
mod types;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Runs one derive: check, then generate, or report the errors with the
/// fallback impl.
fn derive<M>(
    input: &DeriveInput,
    check: fn(&ctxt::Ctxt, &DeriveInput) -> Option<M>,
    generate: fn(&M, &DeriveInput) -> proc_macro2::TokenStream,
    fallback: fn(&DeriveInput) -> proc_macro2::TokenStream,
) -> TokenStream {
    let _scope = gen::CrateScope::enter(attr::crate_path(&input.attrs));
    let cx = ctxt::Ctxt::new();
    match check(&cx, input) {
        Some(model) if !cx.has_errors() => generate(&model, input).into(),
        _ => {
            let mut out = cx.into_compile_errors();
            out.extend(gen::scoped(fallback(input)));
            out.into()
        }
    }
}

/// Derives `dynakey::Entity`, typed keys, sort-key conditions, key
/// parsers and typed updates from `#[pk]`, `#[sk]`, `#[gsi]` and `#[lsi]`
/// templates. See the `dynakey` crate for the attribute reference.
#[proc_macro_derive(DynamoEntity, attributes(dynamo, pk, sk, gsi, lsi))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(
        &input,
        check::entity,
        |m, i| gen::entity::expand(m, &i.vis),
        gen::entity::fallback,
    )
}

/// Derives `dynakey::Attr` for a nested struct (stored as a map) or a unit
/// enum (stored by variant name, usable as a key part).
#[proc_macro_derive(DynamoValue, attributes(dynamo))]
pub fn derive_value(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(
        &input,
        check::value,
        |m, _| gen::scoped(gen::value::expand(m)),
        gen::value::fallback,
    )
}

/// Derives `dynakey::EntityUnion` for an enum whose variants each hold one
/// entity type, so one query decodes every item of a shared partition into
/// its own type: `enum UserPartition { Member(Member), Membership(Membership) }`.
#[proc_macro_derive(DynamoUnion, attributes(dynamo))]
pub fn derive_union(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(
        &input,
        check::union,
        |m, _| gen::scoped(gen::union::expand(m)),
        gen::union::fallback,
    )
}

/// Derives `dynakey::query::Projection`: some fields of an entity
/// (`#[dynamo(of = Task)]`), read with `db.query(..).project::<P>()`. Each
/// field names a field of the entity, of the same type or an `Option` of
/// it; another name or type does not compile (DYNA119).
#[proc_macro_derive(DynamoProjection, attributes(dynamo))]
pub fn derive_projection(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(
        &input,
        check::projection,
        |m, _| gen::scoped(gen::projection::expand(m)),
        |_| proc_macro2::TokenStream::new(),
    )
}

/// Derives the entity list of one table: `#[derive(DynamoTable)]
/// #[dynamo(entities(Member, Membership, Team))] struct Shop;`. The compiler
/// checks the entities against each other (unique discriminators, one
/// discriminator attribute, one table key, agreeing indexes, no sort-key
/// prefix swallowing another's unless allowed with `overlap(A, B)`:
/// DYNA301–DYNA305), and `Shop::ENTITIES` is what `db.create_table(..)`
/// takes.
#[proc_macro_derive(DynamoTable, attributes(dynamo))]
pub fn derive_table(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(
        &input,
        check::table,
        |m, _| gen::scoped(gen::table::expand(m)),
        gen::table::fallback,
    )
}
