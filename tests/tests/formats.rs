//! Formats that outlive a release: a schema snapshot as the previous
//! release wrote it (format 1: no version line, no stored forms, no enum
//! values) still compiles against the same code with no DYNA5xx, and
//! `check_schema()` names the format and the rewrite instead of calling it
//! stale. The fixtures are `dynakey-core/fixtures/snapshot/v*/`.

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
        schema = "../../dynakey-core/fixtures/snapshot/v2/Helpdesk.schema"
    )]
    pub struct Helpdesk;
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
    let v2 = include_str!("../../dynakey-core/fixtures/snapshot/v2/Helpdesk.schema");
    assert_eq!(Helpdesk::schema(), v2);
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
