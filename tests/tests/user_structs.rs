//! The derive on structs as users write them, against every backend (the
//! embedded engine, and the server at `DYNAKEY_ENDPOINT`): raw-identifier
//! fields stored under their plain names and found through their indexes,
//! and a PATCH handler that applies whichever fields a request carries,
//! checked against a model after every request.

use dynakey::{Db, DynamoEntity, DynamoTable, DynamoValue, Entity, Item};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use time::macros::date;
use time::Date;

#[derive(DynamoValue, Clone, Copy, Debug, PartialEq)]
enum Kind {
    Bug,
    Idea,
}

/// Fields named by Rust keywords, as attributes often are.
#[derive(DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<ref>")]
#[sk("T")]
#[gsi("GSI1", pk = "TYPE#<type>", sk = "<match>#<loop:d4>")]
struct Ticket {
    r#ref: String,
    r#type: Kind,
    r#match: String,
    r#loop: u32,
    r#async: Option<String>,
}

/// A task a PATCH endpoint edits: `owner` and `status` feed the first
/// index's keys, `team` the sparse second index's.
#[derive(DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "TASK")]
#[pk("ORG#<org>")]
#[sk("TASK#<n:d6>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#TASK#<n:d6>")]
#[gsi("GSI2", pk = "TEAM#<team>", sk = "TASK#<n:d6>", sparse)]
struct Task {
    org: String,
    n: u32,
    owner: String,
    status: String,
    team: Option<String>,
    title: String,
    body: Option<String>,
    due: Option<Date>,
    #[dynamo(default)]
    points: u32,
    estimate: Option<u16>,
}

/// A table whose snapshot nobody has written yet.
#[derive(DynamoTable)]
#[dynamo(entities(Ticket, Task))]
struct Unsnapped;

/// What a PATCH request carries: each field is applied when present.
#[derive(Clone, Debug, Default)]
struct TaskPatch {
    owner: Option<String>,
    status: Option<String>,
    team: Option<String>,
    title: Option<String>,
    body: Option<String>,
    due: Option<Date>,
    points: Option<u32>,
    estimate: Option<u16>,
}

impl TaskPatch {
    fn is_empty(&self) -> bool {
        let TaskPatch {
            owner,
            status,
            team,
            title,
            body,
            due,
            points,
            estimate,
        } = self;
        owner.is_none()
            && status.is_none()
            && team.is_none()
            && title.is_none()
            && body.is_none()
            && due.is_none()
            && points.is_none()
            && estimate.is_none()
    }
}

/// The handler as a web backend writes it: no type annotations, one `if let`
/// per field.
async fn apply(db: &Db, org: &str, n: u32, p: TaskPatch) -> Result<(), dynakey::Error> {
    // An update without an action is refused; an empty PATCH is a no-op.
    if p.is_empty() {
        return Ok(());
    }
    let mut u = Task::update(org, n);
    if let Some(v) = p.owner {
        u = u.set_owner(v);
    }
    if let Some(v) = p.status {
        u = u.set_status(v);
    }
    if let Some(v) = p.team {
        u = u.set_team(v);
    }
    if let Some(v) = p.title {
        u = u.set_title(v);
    }
    if let Some(v) = p.body {
        u = u.set_body(v);
    }
    if let Some(v) = p.due {
        u = u.set_due(v);
    }
    if let Some(v) = p.points {
        u = u.set_points(v);
    }
    if let Some(v) = p.estimate {
        u = u.set_estimate(v);
    }
    db.update(u).await?;
    Ok(())
}

/// The model's view of the same request.
fn model_apply(t: &mut Task, p: &TaskPatch) {
    let p = p.clone();
    t.owner = p.owner.unwrap_or(t.owner.clone());
    t.status = p.status.unwrap_or(t.status.clone());
    t.team = p.team.or(t.team.take());
    t.title = p.title.unwrap_or(t.title.clone());
    t.body = p.body.or(t.body.take());
    t.due = p.due.or(t.due);
    t.points = p.points.unwrap_or(t.points);
    t.estimate = p.estimate.or(t.estimate);
}

/// Text as users type it: the key delimiter, spaces, punctuation, empty.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("#".to_string()),
        Just("a#b".to_string()),
        Just(" ".to_string()),
        "[a-z #:/%é]{0,6}",
    ]
}

fn patch() -> impl Strategy<Value = TaskPatch> {
    (
        (
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(text()),
        ),
        (
            prop::option::of(text()),
            prop::option::of(
                (0i32..3650).prop_map(|d| date!(2020 - 01 - 01) + time::Duration::days(d.into())),
            ),
            prop::option::of(prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()]),
            prop::option::of(prop_oneof![Just(0u16), Just(u16::MAX), any::<u16>()]),
        ),
    )
        .prop_map(
            |((owner, status, team, title), (body, due, points, estimate))| TaskPatch {
                owner,
                status,
                team,
                title,
                body,
                due,
                points,
                estimate,
            },
        )
}

async fn stored<E>(db: &Db, key: &dynakey::Key<E>) -> Item {
    let out = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .consistent_read(true)
        .send()
        .await
        .expect("get");
    out.item().cloned().expect("item exists")
}

#[test]
fn every_patch_leaves_what_to_item_would_store() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let local = dynakey::local::from_env().unwrap();
    let (cases, len) = if local.is_embedded() {
        (40, 1..8)
    } else {
        (6, 1..4)
    };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x7a5c),
        failure_persistence: None,
        max_shrink_iters: 100,
        ..Config::default()
    });
    let result = runner.run(&prop::collection::vec(patch(), len), |patches| {
        rt.block_on(async {
            let db = local.db(format!("patch_{}", uuid::Uuid::new_v4().simple()));
            db.create_table(&[Task::META]).await.expect("create table");
            let mut model = Task {
                org: "acme".into(),
                n: 7,
                owner: "ann".into(),
                status: "open".into(),
                team: None,
                title: "first".into(),
                body: None,
                due: None,
                points: 0,
                estimate: None,
            };
            db.put(&model).await.expect("put");
            let key = Task::key("acme", 7u32).unwrap();
            for (i, p) in patches.iter().enumerate() {
                // Empty text cannot fill a key part: the request is refused
                // as a whole, naming the field, and changes nothing.
                let empty: Vec<&str> = [
                    ("owner", &p.owner),
                    ("status", &p.status),
                    ("team", &p.team),
                ]
                .into_iter()
                .filter(|(_, v)| v.as_deref() == Some(""))
                .map(|(f, _)| f)
                .collect();
                match (apply(&db, "acme", 7, p.clone()).await, empty.is_empty()) {
                    (Ok(()), true) => model_apply(&mut model, p),
                    (Err(dynakey::Error::KeyFormat(e)), false) => prop_assert!(
                        empty.contains(&e.field),
                        "patch {}: {} names `{}`, not one of the empty inputs {:?}",
                        i,
                        e,
                        e.field,
                        empty
                    ),
                    (got, _) => {
                        return Err(TestCaseError::fail(format!(
                            "patch {i}: {got:?}, empty key inputs: {empty:?}"
                        )))
                    }
                }
                let item = stored(&db, &key).await;
                let want = model.to_item().unwrap();
                prop_assert_eq!(&item, &want, "after patch {}: {:?}", i, p);
                prop_assert_eq!(Task::from_item(&item).unwrap(), model.clone());
                // The indexes find the item under its new keys only.
                let mine = db
                    .query(Task::gsi1_pk(&model.owner).unwrap())
                    .sk(Task::gsi1_sk().status(&model.status).n(7u32).eq().unwrap())
                    .all()
                    .await
                    .unwrap();
                prop_assert_eq!(mine, vec![model.clone()]);
                if let Some(team) = &model.team {
                    let theirs = db.query(Task::gsi2_pk(team).unwrap()).all().await.unwrap();
                    prop_assert_eq!(theirs, vec![model.clone()]);
                }
            }
            Ok(())
        })
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, p)) => panic!("{why}\nshortest failing requests: {p:#?}"),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn raw_identifier_fields_round_trip() {
    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("raw_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Ticket::META]).await.unwrap();
    let t = Ticket {
        r#ref: "r#1".into(),
        r#type: Kind::Bug,
        r#match: "final".into(),
        r#loop: 3,
        r#async: Some("later".into()),
    };
    db.put(&t).await.unwrap();
    let item = stored(&db, &Ticket::key("r#1").unwrap()).await;
    for name in ["ref", "type", "match", "loop", "async"] {
        assert!(
            item.contains_key(name),
            "`{name}` stored under its plain name: {item:?}"
        );
    }
    assert!(!item.keys().any(|k| k.starts_with("r#")), "{item:?}");
    assert_eq!(item, t.to_item().unwrap());
    assert_eq!(
        db.get(Ticket::key("r#1").unwrap()).await.unwrap(),
        Some(t.clone())
    );

    let by_type = |k: Kind, lt: u32| {
        let db = db.clone();
        async move {
            db.query(Ticket::gsi1_pk(k).unwrap())
                .sk(Ticket::gsi1_sk().r#match("final").lt(lt).unwrap())
                .all()
                .await
                .unwrap()
        }
    };
    assert_eq!(by_type(Kind::Bug, 4).await, vec![t.clone()]);
    assert_eq!(by_type(Kind::Bug, 3).await, Vec::<Ticket>::new());

    // Changing `type` moves the item in the index, under `attrs().r#type`.
    db.update(
        Ticket::update("r#1")
            .set_type(Kind::Idea)
            .set_gsi1_sk("final", 9u32)
            .remove_async(),
    )
    .await
    .unwrap();
    let moved = Ticket {
        r#type: Kind::Idea,
        r#loop: 9,
        r#async: None,
        ..t.clone()
    };
    assert_eq!(by_type(Kind::Bug, 100).await, Vec::<Ticket>::new());
    assert_eq!(by_type(Kind::Idea, 100).await, vec![moved.clone()]);
    assert_eq!(
        stored(&db, &Ticket::key("r#1").unwrap()).await,
        moved.to_item().unwrap()
    );
    let ideas = db
        .scan::<Ticket>()
        .filter(Ticket::attrs().r#type.eq(Kind::Idea))
        .all()
        .await
        .unwrap();
    assert_eq!(ideas, vec![moved]);
}

#[test]
fn a_missing_default_snapshot_compiles_and_check_schema_fails() {
    assert!(
        Unsnapped::SCHEMA_PATH.ends_with("Unsnapped.schema"),
        "{}",
        Unsnapped::SCHEMA_PATH
    );
    assert!(!std::path::Path::new(Unsnapped::SCHEMA_PATH).exists());
    let err = Unsnapped::check_schema().expect_err("no snapshot yet");
    assert!(err.contains("DYNAKEY_SCHEMA=overwrite"), "{err}");
    assert!(Unsnapped::schema().contains("TICKET"));
}

// What the snapshot holds of a field's type beyond its name: a unit enum's
// stored names and a nested struct's members, so that a change that makes
// stored items unreadable there (which the table's derive cannot see) fails
// `check_schema`, while one that strands nothing only makes it stale.
#[derive(DynamoValue, Clone, Copy, Debug, PartialEq)]
enum Shelf {
    #[dynamo(rename = "kids")]
    Children,
    Adult,
}

#[derive(DynamoValue, Clone, Debug, PartialEq)]
struct Branch {
    city: String,
    #[dynamo(rename = "no")]
    number: Option<u16>,
    shelf: Shelf,
}

#[derive(DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "BOOK")]
#[pk("BOOK#<isbn>")]
struct Shelved {
    isbn: String,
    shelf: Shelf,
    branch: Option<Branch>,
    shelves: Vec<Shelf>,
}

#[test]
fn the_snapshot_holds_stored_names_and_members_and_check_schema_refuses_their_loss() {
    let text = dynakey::schema::render("Library", &[Shelved::META]);
    assert!(
        text.contains(concat!(
            "  field shelf \"shelf\" Shelf\n",
            "    value \"kids\"\n",
            "    value \"Adult\"\n",
            "  field branch \"branch\" Option<Branch> optional\n",
            "    member city \"city\" String\n",
            "    member number \"no\" Option<u16> optional\n",
            "    member shelf \"shelf\" Shelf\n",
            "      value \"kids\"\n",
            "      value \"Adult\"\n",
            "  field shelves \"shelves\" Vec<Shelf>\n",
            "    value \"kids\"\n",
            "    value \"Adult\"\n",
        )),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("dynakey-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Library.schema");
    let check = |old: &str| {
        std::fs::write(&path, old).unwrap();
        dynakey::schema::check_file(&path, &text)
    };
    assert_eq!(check(&text), Ok(()));
    // Items written when the variant was stored as "children" no longer read.
    let renamed = text.replacen("value \"kids\"", "value \"children\"", 1);
    let err = check(&renamed).unwrap_err();
    assert!(err.contains("Shelved.shelf: `value \"children\"`"), "{err}");
    assert!(err.contains("rename"), "{err}");
    // A nested member stored under another name.
    let member = text.replace("member city \"city\" String", "member city \"town\" String");
    let err = check(&member).unwrap_err();
    assert!(
        err.contains("Shelved.branch: `member city \"town\" String`"),
        "{err}"
    );
    // A new variant strands nothing: the snapshot is only stale.
    let fewer = text.replacen("    value \"Adult\"\n", "", 1);
    let err = check(&fewer).unwrap_err();
    assert!(err.contains("is stale"), "{err}");
    assert!(!err.contains("no longer reads"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
