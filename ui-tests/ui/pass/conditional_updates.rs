// A PATCH handler: setters of fields that feed no key keep the builder's
// type, whatever its state, and so do a patch's setters of the fields a
// new item needs and the setter of a key's inputs all at once; an upsert
// need not set a field with a default (DYNA228).
use dynakey::{DynamoEntity, TypedUpdate};

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("ORG#<org>")]
#[sk("TASK#<n:d6>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "<status>#<due>")]
#[gsi("GSI2", pk = "TEAM#<team>", sk = "TASK#<n:d6>", sparse)]
struct Task {
    org: String,
    n: u32,
    owner: String,
    status: String,
    due: time::Date,
    team: Option<String>,
    title: String,
    body: Option<String>,
    #[dynamo(default)]
    points: u32,
}

struct Patch {
    owner: Option<String>,
    status: Option<String>,
    due: Option<time::Date>,
    team: Option<String>,
    title: Option<String>,
    body: Option<String>,
}

fn apply(org: &str, n: u32, p: Patch) -> impl TypedUpdate {
    let mut u = Task::update(org, n);
    if let Some(t) = p.title {
        u = u.set_title(t);
    }
    if let Some(b) = p.body {
        u = u.set_body(b);
    }
    if let Some(o) = p.owner {
        u = u.set_owner(o);
    }
    if let Some(t) = p.team {
        u = u.set_team(t);
    }
    if let (Some(s), Some(d)) = (p.status, p.due) {
        u = u.set_gsi1_sk(s, d);
    }
    u
}

fn main() {
    let p = Patch { owner: None, status: Some("done".into()), due: None, team: None, title: Some("t".into()), body: None };
    let _ = apply("acme", 1, p).into_parts();
    // No `points`: it has a default.
    let _ = Task::upsert("acme", 2u32)
        .set_owner("ann")
        .set_status("open")
        .set_due(time::macros::date!(2024 - 01 - 01))
        .set_title("t")
        .into_parts();
}
