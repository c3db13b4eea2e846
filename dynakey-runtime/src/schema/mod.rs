//! Schema evolution: a committed snapshot of a table's schema, drift checked
//! against it at compile time, and migrations that move stored items.
//!
//! 1. **Defaults.** `#[dynamo(default)]` (or `default = "path"`) on a field
//!    reads an item without the attribute as the default, so a field added
//!    later does not break reading old items.
//! 2. **A snapshot.** A `#[derive(DynamoTable)]` keeps its schema in
//!    `dynakey/<Table>.schema` in the crate (or `#[dynamo(schema = "path")]`):
//!    every entity's discriminator, key templates with formats, indexes and
//!    fields. `Table::check_schema()` compares it with the code, and writes
//!    it instead with `DYNAKEY_SCHEMA=overwrite` in the environment; put it
//!    in a test to flag a stale snapshot in CI.
//! 3. **Drift is a compile error.** The derive reads the snapshot, and a
//!    change that strands stored items fails the build (DYNA501–DYNA507,
//!    pointing at the entity in `entities(..)`) unless a migration in the
//!    table's `#[dynamo(migrations = PATH)]` covers it. A `schema = ".."`
//!    that names no file is DYNA500; a missing default snapshot compiles
//!    (a new table has none yet) and `check_schema()` fails until it is
//!    written.
//! 4. **Migrations.** [`Migration`]s, run by `db.migrate(PATH)`: parallel
//!    scans, resumable, idempotent, safe beside live writers, with a dry run
//!    and progress.
//! 5. **New indexes on a live table.** `db.sync_table(..)` adds the missing
//!    global indexes; a backfill migration writes their keys into the items
//!    already stored.

// Declaring migrations (`Migration`, which the derive's drift check
// names through `__private::schema`) and the snapshot need no feature:
// derived code cannot know the features. Running them does (`migrate`).
mod cover;
#[cfg(feature = "migrate")]
mod dry_run;
#[cfg(feature = "migrate")]
mod marks;
mod migration;
#[cfg(feature = "migrate")]
mod plan;
#[cfg(feature = "migrate")]
mod runner;
mod snapshot;
#[cfg(feature = "migrate")]
mod sync;
#[cfg(feature = "migrate")]
mod sync_vector;

#[doc(hidden)]
pub use cover::{backfilled, dropped, rekeyed, renamed, Covered};
pub use migration::Migration;
#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
pub use runner::{Migrate, MigrationReport, Progress, StepReport};
pub use snapshot::{check_file, render, snapshot};

/// The schema snapshot's format: its facts, writer and parser, of every
/// version (the crate `dynakey-core`, which the derive reads it with).
pub use dynakey_core::snapshot as format;
