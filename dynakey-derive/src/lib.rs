//! Derive macros of dynakey. Use them through the `dynakey` crate.
//!
//! The structure follows serde_derive: attributes are parsed into a raw
//! model (`attr`), checked into a valid one (`check` → `model`) with every
//! error collected (`ctxt`), and only then generated (`gen`). Codegen never
//! reports user errors; on error a fallback impl keeps call sites quiet.

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

/// Derives `dynakey::Entity`, typed keys, sort-key conditions and key
/// parsers from `#[pk]`, `#[sk]`, `#[gsi]` and `#[lsi]` templates.
/// See the `dynakey` crate for the attribute reference.
#[proc_macro_derive(DynamoEntity, attributes(dynamo, pk, sk, gsi, lsi))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::new();
    let _scope = gen::CrateScope::enter(attr::crate_path(&cx, &input.attrs));
    match check::entity(&cx, &input) {
        Some(model) if !cx.has_errors() => gen::entity::expand(&model, &input.vis).into(),
        _ => {
            let mut out = cx.into_compile_errors();
            out.extend(gen::entity::fallback(&input.ident));
            out.into()
        }
    }
}

/// Derives `dynakey::Attr` for a nested struct (stored as a map) or a unit
/// enum (stored by variant name, usable as a key part).
#[proc_macro_derive(DynamoValue, attributes(dynamo))]
pub fn derive_value(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::new();
    let _scope = gen::CrateScope::enter(attr::crate_path(&cx, &input.attrs));
    match gen::value::expand(&cx, &input) {
        Some(ts) if !cx.has_errors() => ts.into(),
        _ => cx.into_compile_errors().into(),
    }
}

/// Derives `dynakey::EntityUnion` for an enum whose variants each hold one
/// entity type, so one query decodes every item of a shared partition into
/// its own type: `enum UserPartition { Member(Member), Membership(Membership) }`.
#[proc_macro_derive(DynamoUnion, attributes(dynamo))]
pub fn derive_union(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::new();
    let _scope = gen::CrateScope::enter(attr::crate_path(&cx, &input.attrs));
    match gen::union::expand(&cx, &input) {
        Some(ts) if !cx.has_errors() => ts.into(),
        _ => cx.into_compile_errors().into(),
    }
}

/// Derives the entity list of one table: `#[derive(DynamoTable)]
/// #[dynamo(entities(Member, Membership, Team))] struct Shop;`. The compiler
/// checks the entities against each other (unique discriminators, one
/// discriminator attribute, one table key, agreeing indexes, no sort-key
/// prefix swallowing another's: DYNA301–DYNA305), and `Shop::ENTITIES` is
/// what `db.create_table(..)` takes.
#[proc_macro_derive(DynamoTable, attributes(dynamo))]
pub fn derive_table(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::new();
    let _scope = gen::CrateScope::enter(attr::crate_path(&cx, &input.attrs));
    match gen::table::expand(&cx, &input) {
        Some(ts) if !cx.has_errors() => ts.into(),
        _ => cx.into_compile_errors().into(),
    }
}
