//! Derive macros of dynakey. Use them through the `dynakey` crate.
//!
//! The phases follow serde_derive's: `attr` parses the attributes (syntax
//! only), `model` builds the model from them (reporting what keeps a part
//! of it from being built), `check` runs every rule over the model, and
//! `gen` emits tokens from it, with the path of the runtime
//! (`#[dynamo(crate = "..")]`) passed to the generators. Errors are
//! collected in the `ctxt`; every message comes from `diag`: its code from
//! the one list of diagnostics (`diag/codes.rs`, which the guide's
//! catalogue is generated from), drawn by its one caret renderer. Codegen
//! never reports user errors; when an entity has mistakes, it is generated
//! as stubs (the whole API, bodies that never run) so that one mistake is
//! its own errors only. The checks across a table's entities run when the
//! table's derive has collected every entity's metadata (`tablecheck`).

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
#[cfg(test)]
mod phases;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use syn::{parse_macro_input, DeriveInput};

use ctxt::Ctxt;
use model::Checked;

/// The phases of one derive, in order.
struct Phases<M> {
    /// Builds the model (`model`); `None` when nothing of it can be built.
    model: fn(&Ctxt, &DeriveInput) -> Option<M>,
    /// Runs every rule over the model (`check`).
    check: fn(&Ctxt, &M),
    /// Emits the model (`gen`).
    generate: fn(&M, &Tokens) -> Tokens,
    /// Emits what stands in for a model that could not be built.
    fallback: fn(&DeriveInput, &Tokens) -> Tokens,
}

impl<M: Checked> Phases<M> {
    /// The model, built and checked, and the runtime's path.
    fn run(&self, cx: &Ctxt, input: &DeriveInput) -> (Option<M>, Tokens) {
        let krate = gen::crate_path(attr::crate_path(&input.attrs).as_ref());
        let mut model = (self.model)(cx, input);
        if let Some(m) = &mut model {
            (self.check)(cx, m);
            m.checked(cx.has_errors());
        }
        (model, krate)
    }
}

/// Runs one derive: the errors, beside the model generated (as stubs when
/// it has mistakes), or the fallback when there is no model at all.
fn derive<M: Checked>(input: &DeriveInput, phases: Phases<M>) -> Tokens {
    let cx = Ctxt::new();
    let (model, krate) = phases.run(&cx, input);
    let mut out = cx.check().err().unwrap_or_default();
    out.extend(match &model {
        Some(m) => (phases.generate)(m, &krate),
        None => (phases.fallback)(input, &krate),
    });
    out
}

/// Generates only a model without mistakes; for the derives that have no
/// stubs, a model with mistakes is the fallback.
fn strict<M: Checked>(input: &DeriveInput, phases: Phases<M>) -> Tokens {
    let cx = Ctxt::new();
    let (model, krate) = phases.run(&cx, input);
    match cx.check() {
        Ok(()) => match &model {
            Some(m) => (phases.generate)(m, &krate),
            None => (phases.fallback)(input, &krate),
        },
        Err(mut errors) => {
            errors.extend((phases.fallback)(input, &krate));
            errors
        }
    }
}

/// Derives `dynakey::Entity`, typed keys, sort-key conditions, key
/// parsers and typed updates from `#[pk]`, `#[sk]`, `#[gsi]` and `#[lsi]`
/// templates. See the `dynakey` crate for the attribute reference.
#[proc_macro_derive(DynamoEntity, attributes(dynamo, pk, sk, gsi, lsi, vector_index))]
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

// The derives on `proc_macro2` tokens (the unit tests call them outside
// the compiler).

fn expand_entity(input: &DeriveInput) -> Tokens {
    let phases = Phases {
        model: model::entity,
        check: check::entity,
        generate: gen::entity::expand,
        fallback: gen::entity::fallback,
    };
    derive(input, phases)
}

fn expand_value(input: &DeriveInput) -> Tokens {
    let phases = Phases {
        model: model::value,
        check: check::value,
        generate: gen::value::expand,
        fallback: gen::value::fallback,
    };
    strict(input, phases)
}

fn expand_union(input: &DeriveInput) -> Tokens {
    let phases = Phases {
        model: model::union,
        check: check::none,
        generate: gen::union::expand,
        fallback: gen::union::fallback,
    };
    strict(input, phases)
}

fn expand_projection(input: &DeriveInput) -> Tokens {
    let phases = Phases {
        model: model::projection,
        check: check::none,
        generate: gen::projection::expand,
        fallback: |_, _| Tokens::new(),
    };
    strict(input, phases)
}

fn expand_table(input: &DeriveInput) -> Tokens {
    let phases = Phases {
        model: model::table,
        check: check::table,
        generate: gen::table::expand,
        fallback: gen::table::fallback,
    };
    strict(input, phases)
}
