//! The IAM policies from the code, proven against what the code sends:
//! every recipe runs under the request recorder (the spy), each recorded
//! request is authorized against the policy of its table's declared use
//! by a small evaluator of IAM's documented semantics (support/iam_eval.rs)
//! and found allowed; a tenant's handle is allowed its own partition and
//! denied another tenant's; and `parliament` (an IAM policy auditor)
//! finds nothing in the generated documents.
//!
//! parliament comes from `DYNAKEY_PARLIAMENT`, the workspace's `.venv`
//! (made by `scripts/test`) or PATH; without it that test says so and
//! passes, unless `DYNAKEY_REQUIRE_PARLIAMENT=1` (as `scripts/test` sets).

#[path = "support/iam_eval.rs"]
mod iam_eval;
#[path = "support/served.rs"]
mod served;

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::explain::Explain;
use dynakey::spy::{Recorded, Recorder};
use dynakey::table::iam::{Access, Action, Arns};
use dynakey::table::{PointInTimeRecovery, TableOptions};
use dynakey::{Db, Entity, EntityMeta};
use dynakey_examples::designs::{self, tables::Queue};
use dynakey_examples::recipes::multi_tenant::{self, Tenant};
use dynakey_examples::recipes::{self, schema_evolution::ShopV2};
use dynakey_examples::seeds::TenantDoc;
use iam_eval::{evaluate, Decision, Request};
use serde_json::Value;

fn arns() -> Arns {
    Arns::new("aws", "eu-west-1", "111122223333")
}

/// The recipes whose declared use includes `Scan`: the queue's worker
/// run, the scans shown beside queries (sparse_by_absence, native_keys),
/// the migration's pass over the table (schema_evolution) and the copy to
/// a laptop (export_to_laptop). The others read by key and query, and a
/// scan of theirs would be denied.
const SCANNING: &[&str] = &[
    "queue",
    "sparse_by_absence",
    "native_keys",
    "schema_evolution",
    "export_to_laptop",
];

/// The recipes whose declared use includes `SearchVectors`.
const SEARCHING: &[&str] = &["similar_tickets"];

/// The entities a recipe's table holds: the design catalogue's table of
/// the recipe (`-legacy`, `-priority`: its second table), or, for the
/// tables the catalogue leaves out, the code's own list.
fn entities(recipe: &str, suffix: &str) -> Vec<&'static EntityMeta> {
    match (recipe, suffix) {
        ("schema_evolution", "") => ShopV2::ENTITIES.to_vec(),
        ("export_to_laptop", "") => designs::tables::Shop::ENTITIES.to_vec(),
        ("queue", "-workers") => Queue::ENTITIES.to_vec(),
        ("similar_tickets", "") => {
            dynakey_examples::recipes::similar_tickets::SupportTable::ENTITIES.to_vec()
        }
        _ => {
            let entry = designs::ALL
                .iter()
                .find(|e| {
                    e.recipe == Some(recipe) && (suffix.is_empty() || e.name.ends_with(suffix))
                })
                .unwrap_or_else(|| panic!("no table of recipe {recipe} with suffix {suffix:?}"));
            (entry.build)().unwrap().metas()
        }
    }
}

/// The first partition key attribute of `table` or of its index `index`.
fn partition_attr(metas: &[&'static EntityMeta], index: Option<&str>) -> &'static str {
    match index {
        None => metas[0].pk.attr,
        // A vector index has no partition key: a search names none.
        Some(ix) if metas.iter().any(|m| m.vector(ix).is_some()) => "",
        Some(ix) => {
            let m = metas
                .iter()
                .find_map(|m| m.index(ix))
                .unwrap_or_else(|| panic!("no index {ix}"));
            match m.kind {
                dynakey::IndexKind::Local => metas[0].pk.attr,
                dynakey::IndexKind::Global => m.pk_attrs().next().unwrap().0,
            }
        }
    }
}

fn text(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        other => panic!("a partition key of another type: {other:?}"),
    }
}

/// The partition key value a request names (`None`: none, a scan).
fn leading_key(x: &Explain, attr: &str) -> Option<String> {
    if let Some(v) = x.key.get(attr).or_else(|| x.item.get(attr)) {
        return Some(text(v));
    }
    let cond = x.key_condition.as_deref()?;
    cond.split(" AND ").find_map(|part| {
        let (name, value) = part
            .trim_matches(|c| c == '(' || c == ')')
            .split_once(" = ")?;
        (x.names.get(name.trim())? == attr).then(|| text(&x.values[value.trim()]))
    })
}

/// What IAM authorizes for one recorded data request: one action per
/// request, or per action of a transaction or item of a batch, each with
/// its resource and the partition key it names. `tables` gives each
/// table's entities.
fn authorizations(r: &Recorded, tables: &dyn Fn(&str) -> Vec<&'static EntityMeta>) -> Vec<Request> {
    let x = &r.explain;
    let one = |x: &Explain, action: Action| {
        let metas = tables(&x.table);
        let attr = partition_attr(&metas, x.index.as_deref());
        let mut resource = arns().table(&x.table);
        if let Some(ix) = &x.index {
            resource = format!("{resource}/index/{ix}");
        }
        let mut context = BTreeMap::new();
        if let Some(k) = leading_key(x, attr) {
            context.insert("dynamodb:LeadingKeys".to_owned(), vec![k]);
        }
        Request {
            action: action.iam().to_owned(),
            resource,
            context,
        }
    };
    match r.operation.as_str() {
        "TransactWriteItems" | "TransactGetItems" => x
            .actions
            .iter()
            .map(|a| one(a, Action::of_request(&a.operation).expect("a known action")))
            .collect(),
        "BatchWriteItem" => x
            .actions
            .iter()
            .map(|a| one(a, Action::BatchWriteItem))
            .collect(),
        "BatchGetItem" => x
            .actions
            .iter()
            .map(|a| one(a, Action::BatchGetItem))
            .collect(),
        op => vec![one(x, Action::of_request(op).expect("a data operation"))],
    }
}

/// Whether the spy explained the request (a data operation; table setup
/// such as `CreateTable` is the deployer's, not the application's).
fn is_data(r: &Recorded) -> bool {
    !r.explain.table.is_empty() || !r.explain.actions.is_empty()
}

#[test]
fn the_evaluator_follows_iams_documented_semantics() {
    iam_eval::self_check();
}

#[test]
fn every_request_the_recipes_send_is_allowed_by_the_policy_from_the_code() {
    let local = dynakey::local::from_env().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut checked = 0;
    let mut denied = Vec::new();
    for recipe in recipes::ALL {
        let spy = Recorder::new();
        let base = dynakey_examples::table_name(recipe.name);
        let db = spy.db(&local.db(&base));
        rt.block_on((recipe.run)(db.clone()))
            .unwrap_or_else(|e| panic!("{}: {e}", recipe.name));
        let tables = |t: &str| {
            let suffix = t.strip_prefix(&base).unwrap_or_else(|| panic!("table {t}"));
            entities(recipe.name, suffix)
        };
        let policy_of = |t: &str| {
            let access = Access::new(t, &tables(t));
            let access = if SCANNING.contains(&recipe.name) {
                access.scan()
            } else {
                access
            };
            let access = if SEARCHING.contains(&recipe.name) {
                access.search()
            } else {
                access
            };
            access.policy(&arns()).unwrap()
        };
        for r in spy.requests().iter().filter(|r| is_data(r)) {
            for a in authorizations(r, &tables) {
                let table = a.resource.split('/').nth(1).unwrap().to_owned();
                checked += 1;
                let d = evaluate(&policy_of(&table), &a);
                if d != Decision::Allow {
                    denied.push(format!(
                        "{}: {} on {} {:?}: {d:?}",
                        recipe.name, a.action, a.resource, a.context
                    ));
                }
            }
        }
        let dbs: Vec<Db> = (recipe.tables)(&db);
        rt.block_on(dynakey_examples::finish(
            &local,
            &dbs.iter().collect::<Vec<_>>(),
        ))
        .unwrap();
    }
    assert!(denied.is_empty(), "denied:\n{}", denied.join("\n"));
    assert!(checked > 300, "only {checked} authorizations were recorded");
    eprintln!(
        "{checked} authorizations of {} recipes: all allowed",
        recipes::ALL.len()
    );
}

/// A recipe's table without `Scan` declared: its scans would be denied.
#[test]
fn an_undeclared_action_or_index_is_denied() {
    let metas = entities("queue", "");
    let policy = Access::new("jobs", &metas)
        .read_only()
        .policy(&arns())
        .unwrap();
    let req = |action: Action, resource: String| Request {
        action: action.iam().into(),
        resource,
        context: BTreeMap::new(),
    };
    let table = arns().table("jobs");
    assert_eq!(
        evaluate(&policy, &req(Action::Query, table.clone())),
        Decision::Allow
    );
    assert_eq!(
        evaluate(&policy, &req(Action::PutItem, table.clone())),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(&policy, &req(Action::Scan, table.clone())),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(&policy, &req(Action::Query, arns().table("other"))),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(
            &policy,
            &req(Action::Query, format!("{table}/index/NoSuchIndex"))
        ),
        Decision::ImplicitDeny
    );
    assert_eq!(
        evaluate(
            &policy,
            &req(Action::GetItem, format!("{table}/index/GSI1"))
        ),
        Decision::ImplicitDeny
    );
}

/// A resource policy for the table: no request over plain HTTP.
const DENY_PLAIN_HTTP: &str = r#"{"Version":"2012-10-17","Statement":[{"Sid":"DenyPlainHttp","Effect":"Deny","Principal":"*","Action":"dynamodb:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}"#;

/// `verify_table_with` reads the table's settings: every request it sends
/// (recorded by the spy, control-plane ones included) is allowed by
/// `Access::verify()` alone, and none by the default item access.
#[test]
fn verify_tables_reads_are_what_access_verify_grants() {
    let local = dynakey::local::from_env().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // An entity with a TTL field, and options naming every setting that
    // takes a read of its own: it sends all five.
    let metas = [dynakey_examples::task_counts::Task::META];
    let spy = Recorder::new();
    let db = spy.db(&local.db(dynakey_examples::table_name("iam_verify")));
    let options = TableOptions::default()
        .tag("team", "jobs")
        .resource_policy(DENY_PLAIN_HTTP)
        .point_in_time_recovery(PointInTimeRecovery::default());
    rt.block_on(db.create_table(&metas)).unwrap();
    spy.clear();
    rt.block_on(db.verify_table_with(&metas, &options)).unwrap();
    let ops = spy.operations();
    let read: Vec<&str> = Action::VERIFY
        .iter()
        .map(|a| &a.iam()["dynamodb:".len()..])
        .collect();
    for op in &read {
        assert!(ops.iter().any(|o| o == op), "{op} not in {ops:?}");
    }
    let granted = Access::new(db.table_name(), &metas).only(&[]).verify();
    let policy = granted.policy(&arns()).unwrap();
    let items = Access::new(db.table_name(), &metas)
        .policy(&arns())
        .unwrap();
    for op in &ops {
        let action = Action::of_request(op).unwrap_or_else(|| panic!("{op}: no action"));
        let req = Request {
            action: action.iam().into(),
            resource: arns().table(db.table_name()),
            context: BTreeMap::new(),
        };
        assert_eq!(evaluate(&policy, &req), Decision::Allow, "{op}");
        assert_eq!(evaluate(&items, &req), Decision::ImplicitDeny, "{op}");
    }
    rt.block_on(dynakey_examples::finish(&local, &[&db]))
        .unwrap();
}

/// Runs a tenant's handle under its own recorder.
async fn tenant_requests(db: &Db, tenant: &str, docs: &[(&str, &str)]) -> (Tenant, Recorder) {
    let spy = Recorder::new();
    let handle = Tenant::new(&spy.db(db), tenant).unwrap();
    for (id, title) in docs {
        handle.put(id, title).await.unwrap();
    }
    handle
        .get(docs[0].0)
        .await
        .unwrap()
        .expect("its own document");
    assert_eq!(handle.list(1, None).await.unwrap().items.len(), 1);
    (handle, spy)
}

#[test]
fn a_tenants_handle_is_allowed_its_partition_and_denied_anothers() {
    let local = dynakey::local::from_env().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let db = local.db(dynakey_examples::table_name("iam-tenants"));
    rt.block_on(multi_tenant::setup(&db)).unwrap();
    let (acme, acme_spy) = rt.block_on(tenant_requests(
        &db,
        "acme",
        &[("a1", "Plan"), ("a2", "Budget")],
    ));
    let (globex, globex_spy) = rt.block_on(tenant_requests(&db, "globex", &[("g1", "Secret")]));
    // Requests that name another tenant's partitions, as code that goes
    // around the handle (the same role) would send them.
    let rogue = Recorder::new();
    let raw = rogue.db(&db);
    rt.block_on(async {
        raw.get(TenantDoc::key("globex", "g1").unwrap())
            .await
            .unwrap();
        raw.get(TenantDoc::key("acme2", "a1").unwrap())
            .await
            .unwrap();
        raw.query(TenantDoc::pk("globex").unwrap())
            .all()
            .await
            .unwrap();
        raw.put(&TenantDoc {
            tenant: "globex".into(),
            doc_id: "x".into(),
            title: "Mine".into(),
        })
        .await
        .unwrap();
        raw.batch_get([
            TenantDoc::key("acme", "a1").unwrap(),
            TenantDoc::key("globex", "g1").unwrap(),
        ])
        .await
        .unwrap();
        raw.transact_write()
            .delete(TenantDoc::key("globex", "x").unwrap())
            .await
            .unwrap();
        raw.scan::<TenantDoc>().all().await.unwrap();
    });
    let tables = |_: &str| vec![TenantDoc::META];
    let by_tag = Tenant::access_by_tag(db.table_name())
        .policy(&arns())
        .unwrap();
    let tagged = |mut a: Request, tenant: &str| {
        a.context
            .insert("aws:PrincipalTag/tenant".into(), vec![tenant.into()]);
        a
    };
    let mut own = 0;
    for (handle, spy, other) in [(&acme, &acme_spy, &globex), (&globex, &globex_spy, &acme)] {
        let mine = handle.access().policy(&arns()).unwrap();
        let theirs = other.access().policy(&arns()).unwrap();
        for r in spy.requests().iter().filter(|r| is_data(r)) {
            for a in authorizations(r, &tables) {
                own += 1;
                assert_eq!(
                    evaluate(&mine, &a),
                    Decision::Allow,
                    "{}: {a:?}",
                    handle.name()
                );
                assert_eq!(
                    evaluate(&theirs, &a),
                    Decision::ImplicitDeny,
                    "{}: {a:?}",
                    other.name()
                );
                assert_eq!(
                    evaluate(&by_tag, &tagged(a.clone(), handle.name())),
                    Decision::Allow,
                    "{a:?}"
                );
                assert_eq!(
                    evaluate(&by_tag, &tagged(a, other.name())),
                    Decision::ImplicitDeny
                );
            }
        }
    }
    // acme: two puts, a get and a query; globex: a put, a get and a query.
    assert_eq!(own, 7);
    let acme_policy = acme.access().policy(&arns()).unwrap();
    let mut rogue_checked = 0;
    for r in rogue.requests().iter().filter(|r| is_data(r)) {
        let all = authorizations(r, &tables);
        let names_another = all.iter().any(|a| {
            a.context
                .get("dynamodb:LeadingKeys")
                .is_none_or(|k| k.iter().any(|k| k != "TENANT#acme"))
        });
        assert!(names_another, "{r:?}");
        // One denied authorization denies the request.
        let decisions: Vec<Decision> = all.iter().map(|a| evaluate(&acme_policy, a)).collect();
        assert!(
            decisions.contains(&Decision::ImplicitDeny),
            "{}: {decisions:?}",
            r.operation
        );
        let tag_decisions: Vec<Decision> = all
            .into_iter()
            .map(|a| evaluate(&by_tag, &tagged(a, "acme")))
            .collect();
        assert!(
            tag_decisions.contains(&Decision::ImplicitDeny),
            "{}: {tag_decisions:?}",
            r.operation
        );
        rogue_checked += 1;
    }
    assert_eq!(rogue_checked, 7);
    rt.block_on(dynakey_examples::finish(&local, &[&db]))
        .unwrap();
}

/// The generated documents: every recipe table's, read-only, with the
/// stream, and the tenants' (literal and by tag).
fn documents() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for e in designs::ALL {
        let metas = (e.build)().unwrap().metas();
        let access = Access::new(e.name, &metas);
        out.push((
            e.name.to_owned(),
            access.clone().scan().policy(&arns()).unwrap(),
        ));
        out.push((
            format!("{}-read", e.name),
            access.clone().read_only().policy(&arns()).unwrap(),
        ));
        out.push((
            format!("{}-stream", e.name),
            access.clone().stream().policy(&arns()).unwrap(),
        ));
        out.push((
            format!("{}-verify", e.name),
            access.only(&[]).verify().policy(&arns()).unwrap(),
        ));
    }
    let db = dynakey::local::memory().unwrap().db("docs");
    let acme = Tenant::new(&db, "acme").unwrap();
    out.push(("tenant-acme".into(), acme.access().policy(&arns()).unwrap()));
    out.push((
        "tenant-by-tag".into(),
        Tenant::access_by_tag(db.table_name())
            .policy(&arns())
            .unwrap(),
    ));
    for t in dynakey_examples::infra::tables() {
        for a in &t.access {
            out.push((
                format!("{}-{}", t.name, a.label_text()),
                a.policy(&arns()).unwrap(),
            ));
        }
    }
    out
}

#[test]
fn parliament_finds_nothing_in_the_generated_policies() {
    let Some(parliament) = served::parliament() else {
        return;
    };
    let docs = documents();
    assert!(docs.len() > 40, "{}", docs.len());
    let dir = served::temp_dir("parliament");
    for (name, doc) in &docs {
        let text = serde_json::to_string_pretty(doc).unwrap();
        std::fs::write(dir.join(format!("{name}.json")), text).unwrap();
    }
    // One run over the directory: each finding names its file.
    served::assert_clean(
        Command::new(&parliament).arg("--directory").arg(&dir),
        &format!("parliament ({}) on {}", parliament.display(), dir.display()),
    );
    // A policy with a finding is reported: the run reads the files.
    let bad = serde_json::json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Action": "dynamodb:Scan", "Resource": arns().table("docs"),
        "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["TENANT#acme"]}}}]});
    std::fs::write(dir.join("bad.json"), bad.to_string()).unwrap();
    let out = Command::new(&parliament)
        .arg("--directory")
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("parliament runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("bad.json"));
    std::fs::remove_dir_all(&dir).ok();
}
