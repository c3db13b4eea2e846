//! The rules over a built model, after serde_derive's `check.rs`: each
//! `check_*` function reads the whole model and reports one family of
//! codes (the list is `diag/codes.rs`), one file per family, and
//! [`entity`], [`value`] and [`table`] run their list in order. The other
//! user errors are syntax, reported while parsing (`attr`), and what keeps
//! a part of the model from being built, reported while building it
//! (`model`); the errors across a table's entities are found at
//! `table_step!` (`tablecheck`), and those rustc finds in generated code
//! carry the runtime's trait messages. A model with mistakes is still
//! generated, as stubs (see `model`).

mod attr_names;
mod delimiters;
mod formats;
mod limits;
mod native;
mod optional;
mod options;
mod parse_back;
mod tables;
mod timestamps;
mod unique;
mod variants;

use crate::ctxt::Ctxt;
use crate::model::{Entity, Table, Value};

/// The checks of an entity, one per family of codes, in the order their
/// errors are reported.
const ENTITY: &[fn(&Ctxt, &Entity)] = &[
    formats::check_formats,
    parse_back::check_parse_back,
    optional::check_optional,
    attr_names::check_attr_names,
    limits::check_limits,
    options::check_options,
    timestamps::check_timestamps,
    delimiters::check_delimiters,
    unique::check_unique,
    native::check_native,
];

/// The checks of a `DynamoValue`.
const VALUE: &[fn(&Ctxt, &Value)] = &[
    variants::check_variant_names,
    attr_names::check_value_names,
    options::check_value_options,
];

/// The checks of a `DynamoTable`'s own lists (its entities are checked
/// against each other at `table_step!`, in `tablecheck`).
const TABLE: &[fn(&Ctxt, &Table)] = &[tables::check_lists, tables::check_snapshot];

/// Every check of an entity, in order.
pub fn entity(cx: &Ctxt, e: &Entity) {
    for check in ENTITY {
        check(cx, e);
    }
}

/// Every check of a `DynamoValue`, in order.
pub fn value(cx: &Ctxt, v: &Value) {
    for check in VALUE {
        check(cx, v);
    }
}

/// Every check of a `DynamoTable`, in order.
pub fn table(cx: &Ctxt, t: &Table) {
    for check in TABLE {
        check(cx, t);
    }
}

/// A derive whose model has no rules beyond its shape (`DynamoUnion`,
/// `DynamoProjection`).
pub fn none<M>(_: &Ctxt, _: &M) {}
