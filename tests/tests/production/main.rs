//! Production features: request spans (`tracing`), explain and write cost,
//! the stale-index fault mode and the request recorder. Each runs on the
//! embedded engine, or on the server `DYNAKEY_ENDPOINT` names.

mod capture;
mod cost;
mod explain;
mod send_path;
mod spy;
mod stale;
mod tracing_spans;
mod verify;
mod verify_settings;

use dynakey::local;
use dynakey_tests::notes::Note;

pub use dynakey_tests::fixture::{fixture, Fixture};

/// Whether the tests run on a server (moto) rather than the embedded engine.
pub fn on_server() -> bool {
    std::env::var(local::ENDPOINT_VAR).is_ok_and(|v| !v.is_empty())
}

pub fn note(user: &str, id: u32, tag: Option<&str>) -> Note {
    Note {
        user: user.into(),
        id,
        tag: tag.map(str::to_owned),
        text: format!("note {id}"),
    }
}
