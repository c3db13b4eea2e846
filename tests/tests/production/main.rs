//! Production features: request spans (`tracing`), explain and write cost,
//! the stale-index fault mode and the request recorder. Each runs on the
//! embedded engine, or on the server `DYNAKEY_ENDPOINT` names.

mod capture;
mod cost;
mod explain;
mod readme;
mod spy;
mod stale;
mod tracing_spans;

use dynakey::local::{self, Backend};
use dynakey::{Db, Entity};
use dynakey_tests::notes::{Note, Profile};

/// A fresh table on the backend; keep it alive for the test (dropping it
/// stops the embedded engine).
pub struct Fixture {
    pub local: Backend,
    pub db: Db,
}

pub async fn fixture() -> Fixture {
    let local = local::from_env().expect("backend");
    let name = format!("t_{}", uuid::Uuid::new_v4().simple());
    let db = local.db(name);
    db.create_table(&[Note::META, Profile::META])
        .await
        .expect("create table");
    Fixture { local, db }
}

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
