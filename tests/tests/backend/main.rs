//! The runtime's operations against a backend: the embedded engine by
//! default, or the server at `DYNAKEY_ENDPOINT` (same code, run twice by
//! `scripts/test`).

mod batch;
mod errors;
mod faults;
mod items;
mod queries;
mod rates;
mod transactions;

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

pub fn note(user: &str, id: u32) -> Note {
    Note {
        user: user.into(),
        id,
        tag: None,
        text: format!("note {id}"),
    }
}
