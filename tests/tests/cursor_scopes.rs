//! Cursors know the read they belong to: a property test over a space of
//! reads (the table or a global index; one partition or a fan-out over
//! several, of tenants whose names hold the key's own delimiters; a
//! sort-key condition or none; either direction; a filter or none) that
//! walks one read page by page and feeds every cursor it handed out to
//! another read. The cursor is taken only when the two are the same read
//! (then it resumes exactly where the walk resumed: the same page, the
//! same next cursor); any other read (another tenant, partition, index,
//! direction, condition, filter, or fan-out over other partitions or in
//! another order) refuses it with `Error::Refused`, having sent nothing.
//!
//! Seeded and shrinking; on every backend (fewer cases against
//! `DYNAKEY_ENDPOINT`).

use dynakey::prelude::*;
use dynakey::query::CursorKey;
use dynakey::spy::Recorder;
use dynakey::Error;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "EV")]
#[pk("TENANT#<tenant>#LOG#<log>")]
#[sk("EV#<n:d4>")]
#[gsi("GSI1", pk = "KIND#<kind>", sk = "EV#<n:d4>")]
struct Ev {
    tenant: String,
    log: String,
    n: u32,
    kind: String,
    flag: bool,
}

#[derive(DynamoTable)]
#[dynamo(entities(Ev))]
struct Logs;

/// Tenants and logs whose text holds the template's delimiter, its escape
/// character, spaces and non-ASCII, so that partitions only a correct
/// escaping keeps apart are all read.
const TENANTS: [&str; 3] = ["acme", "acme#LOG#main", "a b/ü%"];
const LOGS: [&str; 2] = ["main", "main#LOG#x"];
const KINDS: [&str; 3] = ["login", "log in", "login#"];
/// Items per partition of the table.
const PER_LOG: u32 = 10;
const PAGE: u32 = 3;

/// The table's partitions: (tenant, log).
fn partition(i: usize) -> (&'static str, &'static str) {
    (TENANTS[i / LOGS.len()], LOGS[i % LOGS.len()])
}
const PARTITIONS: usize = TENANTS.len() * LOGS.len();

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cond {
    All,
    Ge(u32),
    Lt(u32),
    Between(u32, u32),
}

/// One read. Two specs are the same read exactly when they are equal: a
/// fan-out lists distinct partitions, at least two, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Spec {
    /// The table's partitions (indexes into [`partition`]), or the global
    /// index's (into [`KINDS`]).
    global: bool,
    parts: Vec<usize>,
    cond: Cond,
    descending: bool,
    filter: Option<bool>,
}

fn spec() -> impl Strategy<Value = Spec> {
    let cond = prop_oneof![
        Just(Cond::All),
        (0..PER_LOG).prop_map(Cond::Ge),
        (1..PER_LOG).prop_map(Cond::Lt),
        (0..PER_LOG, 1..PER_LOG).prop_map(|(a, d)| Cond::Between(a, a + d)),
    ];
    let parts = |n: usize| {
        prop_oneof![
            (0..n).prop_map(|p| vec![p]),
            // A fan-out: 2 or 3 distinct partitions in a random order.
            Just((0..n).collect::<Vec<_>>())
                .prop_shuffle()
                .prop_flat_map(move |v| (2..=3usize.min(n)).prop_map(move |k| v[..k].to_vec())),
        ]
    };
    (
        any::<bool>(),
        parts(PARTITIONS),
        parts(KINDS.len()),
        cond,
        any::<bool>(),
        prop_oneof![Just(None), any::<bool>().prop_map(Some)],
    )
        .prop_map(|(global, table, kinds, cond, descending, filter)| Spec {
            global,
            parts: if global { kinds } else { table },
            cond,
            descending,
            filter,
        })
}

/// One page: the items' (tenant, log, n), and the cursor.
type Got = (Vec<(String, String, u32)>, Option<String>);

/// Applies the spec's options to a query or a fan-out (both have them).
macro_rules! shaped {
    ($q:expr, $s:expr, $sk:path) => {{
        let mut q = $q.page_size(PAGE);
        q = match $s.cond {
            Cond::All => q,
            Cond::Ge(a) => q.sk($sk().ge(a).unwrap()),
            Cond::Lt(a) => q.sk($sk().lt(a).unwrap()),
            Cond::Between(a, b) => q.sk($sk().between(a, b).unwrap()),
        };
        if $s.descending {
            q = q.descending();
        }
        if let Some(f) = $s.filter {
            q = q.filter(Ev::attrs().flag.eq(f));
        }
        q
    }};
}

async fn page(db: &Db, s: &Spec, cursor: Option<&str>) -> Result<Got, Error> {
    let p = match (s.global, s.parts.as_slice()) {
        (false, [one]) => {
            let (t, l) = partition(*one);
            let q = shaped!(db.query(Ev::pk(t, l).unwrap()), s, Ev::sk);
            Box::pin(q.page(cursor)).await?
        }
        (false, many) => {
            let pks = many.iter().map(|&i| {
                let (t, l) = partition(i);
                Ev::pk(t, l).unwrap()
            });
            let q = shaped!(db.query_many(pks), s, Ev::sk);
            Box::pin(q.page(cursor)).await?
        }
        (true, [one]) => {
            let q = shaped!(db.query(Ev::gsi1_pk(KINDS[*one]).unwrap()), s, Ev::gsi1_sk);
            Box::pin(q.page(cursor)).await?
        }
        (true, many) => {
            let pks = many.iter().map(|&i| Ev::gsi1_pk(KINDS[i]).unwrap());
            let q = shaped!(db.query_many(pks), s, Ev::gsi1_sk);
            Box::pin(q.page(cursor)).await?
        }
    };
    let items = p
        .items
        .iter()
        .map(|e| (e.tenant.clone(), e.log.clone(), e.n));
    Ok((items.collect(), p.cursor))
}

/// The read's pages from the start: each cursor with the page it resumed at.
async fn walk(db: &Db, s: &Spec) -> Vec<(String, Got)> {
    let mut out = Vec::new();
    let mut got = page(db, s, None).await.unwrap();
    while let Some(c) = got.1.clone() {
        got = page(db, s, Some(&c)).await.unwrap();
        out.push((c, got.clone()));
    }
    out
}

async fn fixture() -> (dynakey::local::Backend, Db) {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend
        .db(format!("cursor_scopes_{}", uuid::Uuid::new_v4().simple()))
        .with_cursor_key(CursorKey::random());
    db.create_table(Logs::ENTITIES).await.unwrap();
    let mut w = db.batch_write();
    for p in 0..PARTITIONS {
        let (tenant, log) = partition(p);
        for n in 0..PER_LOG {
            w = w.put(&Ev {
                tenant: tenant.into(),
                log: log.into(),
                n,
                kind: KINDS[(p + n as usize) % KINDS.len()].into(),
                flag: n % 3 != 1,
            });
        }
    }
    w.send().await.unwrap();
    (backend, db)
}

/// Walks `a` and feeds each of its cursors to `b`.
async fn check(db: &Db, spy: &Recorder, a: &Spec, b: &Spec) -> Result<(), TestCaseError> {
    let pages = walk(db, a).await;
    let seen = spy.db(db);
    for (cursor, expect) in &pages {
        spy.clear();
        match page(&seen, b, Some(cursor)).await {
            Ok(got) if a == b => prop_assert_eq!(&got, expect, "resumed elsewhere"),
            Ok(got) => {
                return Err(TestCaseError::fail(format!(
                    "{b:?} took a cursor of {a:?}: {got:?}"
                )))
            }
            Err(Error::Refused {
                reason: dynakey::RefusedReason::ForeignCursor,
                message,
            }) => {
                prop_assert!(a != b, "refused its own cursor: {}", message);
                prop_assert!(message.contains("was not made by this read"), "{}", message);
                prop_assert!(spy.operations().is_empty(), "sent {:?}", spy.operations());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{b:?}: {e:?}"))),
        }
    }
    Ok(())
}

#[test]
fn a_cursor_is_taken_by_its_own_read_only_and_resumes_where_it_stopped() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (backend, db) = rt.block_on(fixture());
    let spy = Recorder::new();
    let cases = if backend.is_embedded() { 96 } else { 24 };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x7363_6f70),
        failure_persistence: None,
        max_shrink_iters: 64,
        ..Config::default()
    });
    // Half the cases feed a read its own cursors; the other half a read
    // that differs (usually in several ways; `nudge` in exactly one).
    let pair = (spec(), spec(), 0..4u8).prop_map(|(a, b, how)| {
        let b = match how {
            0 => a.clone(),
            1 => nudge(&a, &b),
            _ => b,
        };
        (a, b)
    });
    let fed = [std::cell::Cell::new(0u32), std::cell::Cell::new(0u32)];
    let result = runner.run(&pair, |(a, b)| {
        let f = &fed[usize::from(a == b)];
        f.set(f.get() + 1);
        rt.block_on(check(&db, &spy, &a, &b))
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, c)) => panic!("{why}\nsmallest failing case: {c:?}"),
        Err(e) => panic!("{e}"),
    }
    assert!(fed[0].get() > 0 && fed[1].get() > 0, "{fed:?}");
}

/// `a` with one of its parts taken from `b` (or, when that is `a`'s own,
/// changed another way): reads that differ in one respect only.
fn nudge(a: &Spec, b: &Spec) -> Spec {
    let mut n = a.clone();
    n.descending = b.descending;
    if n != *a {
        return n;
    }
    n.filter = b.filter;
    if n != *a {
        return n;
    }
    n.cond = b.cond;
    if n != *a {
        return n;
    }
    if b.global == a.global && b.parts != a.parts {
        n.parts = b.parts.clone();
        return n;
    }
    // The same partitions in another order (a fan-out), or another one.
    n.parts.reverse();
    if n.parts == a.parts {
        let max = if a.global { KINDS.len() } else { PARTITIONS };
        n.parts = vec![(a.parts[0] + 1) % max];
    }
    n
}

/// The cases the issue names, each once: a cursor of one tenant's log fed
/// to another tenant's, to the same log under another condition, filter
/// or direction, to the index, and to a fan-out that includes it.
#[tokio::test]
async fn the_issue_s_foreign_cursors_are_refused_before_sending() {
    let (_backend, db) = fixture().await;
    let spy = Recorder::new();
    let own = Spec {
        global: false,
        parts: vec![0],
        cond: Cond::All,
        descending: false,
        filter: None,
    };
    let others = [
        Spec {
            parts: vec![2],
            ..own.clone()
        },
        Spec {
            cond: Cond::Ge(1),
            ..own.clone()
        },
        Spec {
            filter: Some(true),
            ..own.clone()
        },
        Spec {
            descending: true,
            ..own.clone()
        },
        Spec {
            global: true,
            ..own.clone()
        },
        Spec {
            parts: vec![0, 1],
            ..own.clone()
        },
    ];
    for other in &others {
        check(&db, &spy, &own, other).await.unwrap();
    }
    check(&db, &spy, &own, &own).await.unwrap();
}
