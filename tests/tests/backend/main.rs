//! The runtime's operations against a backend: the embedded engine by
//! default, or the server at `DYNAKEY_ENDPOINT` (same code, run twice by
//! `scripts/test`).

mod batch;
mod errors;
mod faults;
mod in_process;
mod items;
mod queries;
mod rates;
mod throttles;
mod transactions;

use dynakey_tests::notes::Note;

pub use dynakey_tests::fixture::{fixture, Fixture};

pub fn note(user: &str, id: u32) -> Note {
    Note {
        user: user.into(),
        id,
        tag: None,
        text: format!("note {id}"),
    }
}
