//! Formats that outlive a release: a schema snapshot as an earlier
//! release wrote it still compiles against the same code with no DYNA5xx,
//! and `check_schema()` names the format and the rewrite instead of calling
//! it stale. The fixtures are `dynakey-core/fixtures/snapshot/v*/`.
//!
//! | format | first line | what it added | fixtures |
//! |---|---|---|---|
//! | 1 | none | | `v1/Helpdesk.schema` |
//! | 2 | `dynakey-schema 2` | stored forms, enum values, members, native indexes | `v2/Helpdesk.schema`, `v2/Desk.schema` |
//! | 3 | `dynakey-schema 3` | a `vector` line per vector index | `v3/Helpdesk.schema`, `v3/Desk.schema` |

use dynakey::{DynamoEntity, DynamoTable, DynamoValue};
use time::OffsetDateTime;

#[derive(DynamoValue, Clone, Copy, Debug, PartialEq)]
pub enum Status {
    Open,
    Pending,
    Closed,
}

/// A helpdesk ticket: an enum field (whose values format 1 did not record)
/// and a `ttl` field (whose stored form format 1 did not record).
#[derive(DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("DESK#<desk>")]
#[sk("TICKET#<number:d6>")]
#[gsi("GSI1", pk = "STATUS#<status>", sk = "OPENED#<opened_at>")]
pub struct Ticket {
    pub desk: String,
    pub number: u32,
    pub status: Status,
    pub subject: String,
    pub assignee: Option<String>,
    pub opened_at: OffsetDateTime,
    #[dynamo(ttl)]
    pub expires_at: OffsetDateTime,
}

#[derive(DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "AGENT")]
#[pk("DESK#<desk>")]
#[sk("AGENT#<email>")]
pub struct Agent {
    pub desk: String,
    pub email: String,
    pub name: String,
    #[dynamo(default)]
    pub on_call: bool,
}

/// The table on the snapshot the previous release wrote: that this file
/// compiles is the first assertion (it failed with DYNA506 on
/// `expires_at`).
#[derive(DynamoTable)]
#[dynamo(
    entities(Ticket, Agent),
    schema = "../../dynakey-core/fixtures/snapshot/v1/Helpdesk.schema"
)]
pub struct Helpdesk;

/// The same table on the current format's fixture (a table is named
/// after its type, so another module's).
mod now {
    use super::{Agent, Ticket};
    use dynakey::DynamoTable;

    #[derive(DynamoTable)]
    #[dynamo(
        entities(Ticket, Agent),
        schema = "../../dynakey-core/fixtures/snapshot/v3/Helpdesk.schema"
    )]
    pub struct Helpdesk;
}

/// The same table on format 2's fixture.
mod v2 {
    use super::{Agent, Ticket};
    use dynakey::DynamoTable;

    #[derive(DynamoTable)]
    #[dynamo(
        entities(Ticket, Agent),
        schema = "../../dynakey-core/fixtures/snapshot/v2/Helpdesk.schema"
    )]
    pub struct Helpdesk;
}

/// A support case with two vector indexes, which format 2 did not record.
#[derive(DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "CASE")]
#[pk("TENANT#<tenant>")]
#[sk("CASE#<id>")]
#[vector_index(
    "BySimilar",
    vector = embedding,
    dimensions = 4,
    distance = "COSINE",
    scope(tenant),
    filter(status),
    projection = "INCLUDE(title)"
)]
#[vector_index(
    "Triage",
    vector = embedding,
    dimensions = 4,
    distance = "DOT_PRODUCT",
    projection = "KEYS_ONLY"
)]
pub struct Case {
    pub tenant: String,
    pub id: String,
    pub title: String,
    pub status: String,
    pub embedding: [f32; 4],
}

/// The table on format 2's snapshot, which holds no `vector` line: that
/// this compiles (no DYNA507, the file's silence is no change of the
/// indexes) is the first assertion.
#[derive(DynamoTable)]
#[dynamo(
    entities(Case),
    schema = "../../dynakey-core/fixtures/snapshot/v2/Desk.schema"
)]
pub struct Desk;

/// The same table on format 3's snapshot, which records both indexes.
mod desk_now {
    use super::Case;
    use dynakey::DynamoTable;

    #[derive(DynamoTable)]
    #[dynamo(
        entities(Case),
        schema = "../../dynakey-core/fixtures/snapshot/v3/Desk.schema"
    )]
    pub struct Desk;
}

/// `DYNAKEY_SCHEMA=overwrite` would rewrite the fixtures: these tests read
/// them only when it is not set.
fn rewriting() -> bool {
    std::env::var_os("DYNAKEY_SCHEMA").is_some()
}

#[test]
fn a_format_1_snapshot_is_an_older_format_not_a_stale_one() {
    if rewriting() {
        return;
    }
    let err = Helpdesk::check_schema().unwrap_err();
    assert!(
        err.contains("is in format 1 of an earlier dynakey"),
        "{err}"
    );
    assert!(err.contains("DYNAKEY_SCHEMA=overwrite cargo test"), "{err}");
    assert!(!err.contains("stale") && !err.contains("line "), "{err}");
    // One sentence.
    assert_eq!(
        err.matches(". ").count() + err.matches(":\n").count(),
        0,
        "{err}"
    );
    assert!(!err.contains('\n') && err.ends_with('.'), "{err}");
}

#[test]
fn the_current_fixture_is_what_the_code_writes() {
    if rewriting() {
        return;
    }
    now::Helpdesk::check_schema().unwrap();
    let v3 = include_str!("../../dynakey-core/fixtures/snapshot/v3/Helpdesk.schema");
    assert_eq!(Helpdesk::schema(), v3);
    desk_now::Desk::check_schema().unwrap();
    let v3 = include_str!("../../dynakey-core/fixtures/snapshot/v3/Desk.schema");
    assert_eq!(Desk::schema(), v3);
}

/// Format 2, the format before vector indexes were recorded, is an older
/// format: `check_schema()` says to rewrite it, and finds no difference in
/// what it recorded, though the code now declares two vector indexes the
/// file does not list.
#[test]
fn a_format_2_snapshot_without_vector_indexes_is_an_older_format_not_drift() {
    if rewriting() {
        return;
    }
    for err in [
        v2::Helpdesk::check_schema().unwrap_err(),
        Desk::check_schema().unwrap_err(),
    ] {
        assert!(
            err.contains("is in format 2 of an earlier dynakey"),
            "{err}"
        );
        assert!(!err.contains('\n') && err.ends_with('.'), "{err}");
        assert!(!err.contains("differs") && !err.contains("vector"), "{err}");
    }
    use dynakey::schema::format;
    let v2 = format::parse(include_str!(
        "../../dynakey-core/fixtures/snapshot/v2/Desk.schema"
    ))
    .unwrap();
    let code = dynakey::schema::snapshot("Desk", Desk::ENTITIES);
    assert_eq!(code.entities[0].vectors.as_ref().map(Vec::len), Some(2));
    assert_eq!(v2.entities[0].vectors, None);
    assert_eq!(code.as_known_by(&v2), v2);
}

/// A format 3 snapshot records the vector indexes: one whose dimensions
/// differ from the code's is a change `check_schema()` reports, naming the
/// line (at compile time it is DYNA507: `ui-tests/ui/fail/dyna507_*`).
#[test]
fn a_format_3_snapshot_sees_a_changed_vector_index() {
    if rewriting() {
        return;
    }
    let v3 = include_str!("../../dynakey-core/fixtures/snapshot/v3/Desk.schema");
    let dir = std::env::temp_dir().join(format!("dynakey-formats-v3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Desk.schema");
    let eight = v3.replacen("\"embedding\" 4 COSINE", "\"embedding\" 8 COSINE", 1);
    assert_ne!(eight, v3);
    std::fs::write(&path, &eight).unwrap();
    let err = dynakey::schema::check_file(&path, &Desk::schema()).unwrap_err();
    assert!(err.contains("stale"), "{err}");
    // Both lines as `{:?}` writes them.
    assert!(
        err.contains(r#"vector BySimilar \"embedding\" 8 COSINE"#),
        "{err}"
    );
    assert!(
        err.contains(r#"vector BySimilar \"embedding\" 4 COSINE"#),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A format 1 snapshot whose recorded facts differ from the code: the
/// notice, and the first line that differs.
#[test]
fn a_format_1_snapshot_that_differs_says_both() {
    let v1 = include_str!("../../dynakey-core/fixtures/snapshot/v1/Helpdesk.schema");
    let dir = std::env::temp_dir().join(format!("dynakey-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Helpdesk.schema");
    std::fs::write(
        &path,
        v1.replace("field subject \"subject\"", "field subject \"title\""),
    )
    .unwrap();
    let err = dynakey::schema::check_file(&path, &Helpdesk::schema()).unwrap_err();
    assert!(
        err.contains("is in format 1 of an earlier dynakey"),
        "{err}"
    );
    assert!(
        err.contains("line 16 reads \"  field subject \\\"title\\\" String\""),
        "{err}"
    );
    assert!(
        err.contains("the code says \"  field subject \\\"subject\\\" String\""),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What format 1 did not record is unknown: the v2 facts as format 1 knew
/// them are the fixture's.
#[test]
fn format_1_facts_are_the_codes_as_format_1_knew_them() {
    use dynakey::schema::format::{self, Form};
    let v1 = format::parse(include_str!(
        "../../dynakey-core/fixtures/snapshot/v1/Helpdesk.schema"
    ))
    .unwrap();
    let code = dynakey::schema::snapshot("Helpdesk", Helpdesk::ENTITIES);
    let expires = |s: &format::Snapshot| {
        s.entities[0]
            .fields
            .iter()
            .find(|f| f.name == "expires_at")
            .map(|f| f.form)
    };
    assert_eq!(expires(&v1), Some(None));
    assert_eq!(expires(&code), Some(Some(Form::Ttl)));
    assert_eq!(code.as_known_by(&v1), v1);
}
