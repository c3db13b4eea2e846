//! The messages `gen` emits for rustc to show: those of the traits a typed
//! update is bounded by (DYNA226, DYNA228), as
//! `#[diagnostic::on_unimplemented]`, shown when a bound is not met, and a
//! vector field's length (DYNA601), as a `const` assertion.

use super::render::{carets, placeholder};
use super::Code;

/// The parts of `#[diagnostic::on_unimplemented]`.
pub struct TraitMessage {
    pub message: String,
    pub label: String,
    pub notes: Vec<String>,
}

/// An index key whose inputs an update must set together.
pub struct KeyInputs<'a> {
    pub entity: &'a str,
    /// The key's attribute and template.
    pub attr: &'a str,
    pub template: &'a str,
    pub index: &'a str,
    pub sparse: bool,
    /// The names of the inputs an update can change.
    pub inputs: &'a [String],
    /// The setter of all of them at once.
    pub setter: &'a str,
}

/// `a`, `b` and `c`.
fn listed(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// DYNA226: an update sets an input of `k` but not all of them.
pub fn key_inputs(k: &KeyInputs<'_>) -> TraitMessage {
    let names = listed(k.inputs);
    let message = Code::UpdateKeyInputs
        .msg(format!(
            "this update of `{}` sets an input of {} `{}` of {}index `{}` but not all of {names}, so the key cannot be rebuilt",
            k.entity,
            k.attr,
            k.template,
            if k.sparse { "sparse " } else { "" },
            k.index,
        ))
        .headline();
    let ranges: Vec<_> = k
        .inputs
        .iter()
        .filter_map(|n| placeholder(k.template, n))
        .collect();
    TraitMessage {
        message,
        label: format!(
            "set {names} in this update, or all at once with `.{}(..)`",
            k.setter
        ),
        notes: vec![
            carets(k.attr, k.template, &ranges, "set together"),
            format!("the states above are those of {names}, in this order: DynamoDB cannot rebuild a key from what the item holds, so an update sets every input of a key it changes (or removes one)"),
        ],
    }
}

/// DYNA228: an upsert of `entity` does not set every field of `required`.
pub fn new_item(entity: &str, required: &[String]) -> TraitMessage {
    let names = listed(required);
    TraitMessage {
        message: Code::UpsertMissingField
            .msg(format!(
                "this upsert of `{entity}` does not set every field a new item needs: {names}"
            ))
            .headline(),
        label: "an upsert creates the item when it is missing, so it sets each of them".into(),
        notes: vec![format!("the states above are those of {names}, in this order (an `Option`, `omit_empty`, defaulted or set field may be left out); to change an existing item only, use `{entity}::update(..)`")],
    }
}

/// DYNA601 at compile time: the length of an `[f32; N]` vector field
/// differs from its index's dimensions (a `const` assertion whose message
/// rustc prints).
pub fn vector_length(index: &str, dimensions: usize, field: &str) -> String {
    Code::VectorDimensions
        .msg(format!(
            "vector index `{index}` has {dimensions} dimensions, but field `{field}` holds another number of elements"
        ))
        .headline()
}
