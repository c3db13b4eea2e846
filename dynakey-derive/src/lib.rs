//! Derive macros of dynakey. Use them through the `dynakey` crate.
//!
//! The structure follows serde_derive: attributes are parsed (`attr`) and
//! built into a model that every check reads (`check`, `ctxt`, `model`),
//! and only then generated, in tokens (`gen`), with the path of the
//! runtime (`#[dynamo(crate = "..")]`) passed to the generators. Every
//! message comes from `diag`: its code from the one list of diagnostics
//! (`diag/codes.rs`, which the guide's catalogue is generated from), drawn
//! by its one caret renderer. Codegen never reports user
//! errors; when an entity has mistakes, it is generated as stubs (the whole
//! API, bodies that never run) so that one mistake is its own errors only.
//! The checks across a table's entities run when the table's derive has
//! collected every entity's metadata (`tablecheck`).

mod attr;
mod check;
mod ctxt;
mod diag;
mod gen;
mod model;
mod respan;
mod tablecheck;
mod template;
mod types;
mod unraw;

#[cfg(test)]
mod expansion;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Runs one derive: build and check the model, then generate it (stubs
/// when it has mistakes, beside the errors), or the fallback when there is
/// no model at all.
fn derive<M>(
    input: &DeriveInput,
    check: fn(&ctxt::Ctxt, &DeriveInput) -> Option<M>,
    generate: fn(&M, &proc_macro2::TokenStream) -> proc_macro2::TokenStream,
    fallback: fn(&DeriveInput, &proc_macro2::TokenStream) -> proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let krate = gen::crate_path(attr::crate_path(&input.attrs).as_ref());
    let cx = ctxt::Ctxt::new();
    let model = check(&cx, input);
    let errors = cx.check().err().unwrap_or_default();
    let mut out = errors;
    out.extend(match &model {
        Some(m) => generate(m, &krate),
        None => fallback(input, &krate),
    });
    out
}

/// Generates only a model without mistakes; for the derives that have no
/// stubs, a model with mistakes is the fallback.
fn strict<M>(
    input: &DeriveInput,
    check: fn(&ctxt::Ctxt, &DeriveInput) -> Option<M>,
    generate: fn(&M, &proc_macro2::TokenStream) -> proc_macro2::TokenStream,
    fallback: fn(&DeriveInput, &proc_macro2::TokenStream) -> proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let krate = gen::crate_path(attr::crate_path(&input.attrs).as_ref());
    let cx = ctxt::Ctxt::new();
    let model = check(&cx, input);
    match cx.check() {
        Ok(()) => match &model {
            Some(m) => generate(m, &krate),
            None => fallback(input, &krate),
        },
        Err(mut errors) => {
            errors.extend(fallback(input, &krate));
            errors
        }
    }
}

/// Derives `dynakey::Entity`, typed keys, sort-key conditions, key
/// parsers and typed updates from `#[pk]`, `#[sk]`, `#[gsi]` and `#[lsi]`
/// templates. See the `dynakey` crate for the attribute reference.
#[proc_macro_derive(DynamoEntity, attributes(dynamo, pk, sk, gsi, lsi))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_entity(&input).into()
}

/// Derives `dynakey::Attr` for a nested struct (stored as a map) or a unit
/// enum (stored by variant name, usable as a key part).
#[proc_macro_derive(DynamoValue, attributes(dynamo))]
pub fn derive_value(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_value(&input).into()
}

/// Derives `dynakey::EntityUnion` for an enum whose variants each hold one
/// entity type, so one query decodes every item of a shared partition into
/// its own type: `enum UserPartition { Member(Member), Membership(Membership) }`.
/// The variants are checked against each other (DYNA301, DYNA302).
#[proc_macro_derive(DynamoUnion, attributes(dynamo))]
pub fn derive_union(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_union(&input).into()
}

/// Derives `dynakey::query::Projection`: some fields of an entity
/// (`#[dynamo(of = Task)]`), read with `db.query(..).project::<P>()`. Each
/// field names a field of the entity, of the same type or an `Option` of
/// it; another name or type does not compile (DYNA119).
#[proc_macro_derive(DynamoProjection, attributes(dynamo))]
pub fn derive_projection(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_projection(&input).into()
}

/// Derives the entity list of one table: `#[derive(DynamoTable)]
/// #[dynamo(entities(Member, Membership, Team))] struct Shop;`. The
/// entities are checked against each other (unique discriminators, one
/// discriminator attribute, one table key, agreeing indexes, no sort-key
/// prefix swallowing another's unless allowed with `overlap(A, B)`:
/// DYNA301–DYNA305) and against the table's schema snapshot
/// (DYNA500–DYNA506), and `Shop::ENTITIES` is what `db.create_table(..)`
/// takes. The entities are those of this crate.
#[proc_macro_derive(DynamoTable, attributes(dynamo))]
pub fn derive_table(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_table(&input).into()
}

/// One step of the checks of a table's or a union's entities (generated
/// code calls it; see `DynamoTable`).
#[doc(hidden)]
#[proc_macro]
pub fn __table_step(input: TokenStream) -> TokenStream {
    tablecheck::step(input.into()).into()
}

/// `#[derive(DynamoEntity)]` on `input`, in `proc_macro2` tokens (the unit tests
/// call it outside the compiler).
fn expand_entity(input: &DeriveInput) -> proc_macro2::TokenStream {
    derive(
        input,
        check::entity,
        gen::entity::expand,
        gen::entity::fallback,
    )
}

/// `#[derive(DynamoValue)]` on `input`, in `proc_macro2` tokens (the unit tests
/// call it outside the compiler).
fn expand_value(input: &DeriveInput) -> proc_macro2::TokenStream {
    strict(
        input,
        check::value,
        gen::value::expand,
        gen::value::fallback,
    )
}

/// `#[derive(DynamoUnion)]` on `input`, in `proc_macro2` tokens (the unit tests
/// call it outside the compiler).
fn expand_union(input: &DeriveInput) -> proc_macro2::TokenStream {
    strict(
        input,
        check::union,
        gen::union::expand,
        gen::union::fallback,
    )
}

/// `#[derive(DynamoProjection)]` on `input`, in `proc_macro2` tokens (the unit tests
/// call it outside the compiler).
fn expand_projection(input: &DeriveInput) -> proc_macro2::TokenStream {
    strict(input, check::projection, gen::projection::expand, |_, _| {
        proc_macro2::TokenStream::new()
    })
}

/// `#[derive(DynamoTable)]` on `input`, in `proc_macro2` tokens (the unit tests
/// call it outside the compiler).
fn expand_table(input: &DeriveInput) -> proc_macro2::TokenStream {
    strict(
        input,
        check::table,
        gen::table::expand,
        gen::table::fallback,
    )
}
