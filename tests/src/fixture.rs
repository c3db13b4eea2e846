//! A fresh table on the test backend, and a client on it with faults.

use std::time::Duration;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::Client;
use dynakey::fault::{FaultConfig, FaultInjector};
use dynakey::local::{self, Backend};
use dynakey::{Db, Entity, RetryPolicy};

use crate::notes::{Note, Profile};

/// A fresh table on the backend (the embedded engine, or the server
/// `DYNAKEY_ENDPOINT` names) holding notes and profiles; keep it alive for
/// the test (dropping it stops the embedded engine).
pub struct Fixture {
    pub local: Backend,
    pub db: Db,
}

/// A new [`Fixture`] with a uniquely named table.
pub async fn fixture() -> Fixture {
    let local = local::from_env().expect("backend");
    let name = format!("t_{}", uuid::Uuid::new_v4().simple());
    let db = local.db(name);
    db.create_table(&[Note::META, Profile::META])
        .await
        .expect("create table");
    Fixture { local, db }
}

/// The fixture's table through a client with faults, the SDK's own retries
/// off so the batch retry loop does all the work.
pub fn faulty(f: &Fixture, config: FaultConfig, max_attempts: u32) -> (Db, FaultInjector) {
    let inj = FaultInjector::new(config);
    (faulty_with(f, &inj, max_attempts), inj)
}

/// [`faulty`] with an injector made by the caller (a throttle of its own,
/// a stale index).
pub fn faulty_with(f: &Fixture, inj: &FaultInjector, max_attempts: u32) -> Db {
    let conf = f
        .local
        .config_builder()
        .http_client(inj.wrap(f.local.http_client()))
        .retry_config(RetryConfig::disabled())
        .build();
    Db::new(Client::from_conf(conf), f.db.table_name()).with_retry(RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(20),
    })
}

/// Moves `clock` on 2 s every 10 ms until the handle is aborted: the
/// embedded engine's index lifecycle (backfill, deletion) reads its clock,
/// so a test waiting through it (`sync_table`) keeps the clock going.
pub fn keep_ticking(clock: &local::ManualClock) -> tokio::task::JoinHandle<()> {
    let clock = clock.clone();
    tokio::spawn(async move {
        loop {
            clock.tick(Duration::from_secs(2));
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
}
