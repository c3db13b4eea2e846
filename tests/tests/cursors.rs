//! Cursors nobody can forge. A page cursor goes to whoever asked for the
//! page (a web API hands it out) and comes back: every kind of read (a
//! query of the table, descending and filtered, of a global and a local
//! index, keys only, of a union, a fan-out, a scan in one and in three
//! segments) takes only the cursors it made itself.
//!
//! - Every genuine cursor of every read is fed to every read: the read that
//!   made it resumes exactly where it left off, every other read refuses it
//!   (`Error::Refused`), and so does the same read under another cursor key,
//!   while a `Db` with the same key (another instance of a service) takes it.
//! - A property test alters genuine cursors at random (any byte changed, cut
//!   or added; or, decoded, any field: the count, a lane's key attributes and
//!   values, the lanes themselves, re-encoded with the tag they had) and
//!   feeds each to every read: no panic, `Error::Refused` with nothing sent,
//!   and a cursor that came out unchanged reads exactly its page, inside the
//!   read's partition and never past its limit.
//!
//! On every backend (the refusals send nothing, so they are as cheap on
//! moto).

use dynakey::prelude::*;
use dynakey::Error;
use std::future::Future;
use std::pin::Pin;

use dynakey::query::CursorKey;
use dynakey::spy::Recorder;
use dynakey::Page;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use serde_json::Value;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "MSG")]
#[pk("ROOM#<room>")]
#[sk("MSG#<n:d4>")]
#[gsi("GSI1", pk = "AUTHOR#<author>", sk = "MSG#<n:d4>")]
#[lsi("LSI1", sk = "AT#<at:d6>")]
struct Msg {
    room: String,
    n: u32,
    author: String,
    at: u32,
    flag: bool,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TOPIC")]
#[pk("ROOM#<room>")]
#[sk("TOPIC")]
struct Topic {
    room: String,
    title: String,
}

#[derive(DynamoUnion, Debug, Clone, PartialEq)]
enum RoomItem {
    Msg(Msg),
    Topic(Topic),
}

#[derive(DynamoTable)]
#[dynamo(entities(Msg, Topic))]
struct Rooms;

const LIMIT: u32 = 7;
const PAGE: u32 = 3;

/// Every kind of read, each over its own partitions, a limit and pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    Table,
    Descending,
    Filtered,
    OtherRoom,
    Global,
    Local,
    KeysOnly,
    Union,
    FanOut,
    Scan,
    Segments,
}

const READS: [Read; 11] = [
    Read::Table,
    Read::Descending,
    Read::Filtered,
    Read::OtherRoom,
    Read::Global,
    Read::Local,
    Read::KeysOnly,
    Read::Union,
    Read::FanOut,
    Read::Scan,
    Read::Segments,
];

/// One page, as the table keys `(pk, sk)` of its items, and its cursor.
type Got = (Vec<(String, String)>, Option<String>);

fn msg_key(m: &Msg) -> (String, String) {
    let k = m.item_key().unwrap();
    (k.pk().to_owned(), k.sk().unwrap().to_owned())
}

fn item_key(i: &RoomItem) -> (String, String) {
    match i {
        RoomItem::Msg(m) => msg_key(m),
        RoomItem::Topic(t) => {
            let k = t.item_key().unwrap();
            (k.pk().to_owned(), k.sk().unwrap().to_owned())
        }
    }
}

type PageOf<'a, T> = Pin<Box<dyn Future<Output = Result<Page<T>, Error>> + Send + 'a>>;

/// The page of a read of messages (each read's future boxed: one future
/// holding every kind of read would be larger than it needs).
fn msg_page<'a>(db: &'a Db, read: Read, cursor: Option<&'a str>) -> PageOf<'a, Msg> {
    let room = move |r: &str| db.query(Msg::pk(r).unwrap()).limit(LIMIT).page_size(PAGE);
    match read {
        Read::Table => Box::pin(async move { room("r1").page(cursor).await }),
        Read::Descending => Box::pin(async move { room("r1").descending().page(cursor).await }),
        Read::Filtered => Box::pin(async move {
            let flagged = Msg::attrs().flag.eq(true);
            room("r1").filter(flagged).page(cursor).await
        }),
        Read::OtherRoom => Box::pin(async move { room("r2").page(cursor).await }),
        Read::Global => Box::pin(async move {
            let q = db.query(Msg::gsi1_pk("ann").unwrap());
            q.limit(LIMIT).page_size(PAGE).page(cursor).await
        }),
        Read::Local => Box::pin(async move {
            let q = db.query(Msg::lsi1_pk("r1").unwrap());
            q.limit(LIMIT).page_size(PAGE).page(cursor).await
        }),
        Read::FanOut => Box::pin(async move {
            let q = db.query_many(["r1", "r2"].map(|r| Msg::pk(r).unwrap()));
            q.limit(LIMIT).page_size(PAGE).page(cursor).await
        }),
        Read::Segments => Box::pin(async move {
            let q = db.scan::<Msg>().segments(3);
            q.limit(LIMIT).page_size(PAGE).page(cursor).await
        }),
        _ => Box::pin(async move {
            let q = db.scan::<Msg>();
            q.limit(LIMIT).page_size(PAGE).page(cursor).await
        }),
    }
}

async fn page(db: &Db, read: Read, cursor: Option<&str>) -> Result<Got, Error> {
    let room = db
        .query(Msg::pk("r1").unwrap())
        .limit(LIMIT)
        .page_size(PAGE);
    Ok(match read {
        Read::KeysOnly => {
            let p = Box::pin(room.keys_only().page(cursor)).await?;
            let ks = p
                .items
                .iter()
                .map(|k| (k.pk().to_owned(), k.sk().unwrap().to_owned()));
            (ks.collect(), p.cursor)
        }
        Read::Union => {
            let p = Box::pin(room.of::<RoomItem>().page(cursor)).await?;
            (p.items.iter().map(item_key).collect(), p.cursor)
        }
        _ => {
            let p = msg_page(db, read, cursor).await?;
            (p.items.iter().map(msg_key).collect(), p.cursor)
        }
    })
}

/// The partitions a read may return items of (`None`: any, a scan).
fn partitions(read: Read) -> Option<&'static [&'static str]> {
    match read {
        Read::OtherRoom => Some(&["ROOM#r2"]),
        Read::FanOut => Some(&["ROOM#r1", "ROOM#r2"]),
        Read::Scan | Read::Segments => None,
        // A global index's items: ann's messages, all in room r1.
        _ => Some(&["ROOM#r1"]),
    }
}

/// A read's pages from the start: each cursor with the page it resumes at
/// and how many items the pages before it held, and what the pages held
/// together.
async fn walk(db: &Db, read: Read) -> (Vec<(String, Got, usize)>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let got = page(db, read, cursor.as_deref()).await.unwrap();
        let before = seen.len();
        seen.extend(got.0.iter().cloned());
        if let Some(c) = cursor.take() {
            out.push((c, got.clone(), before));
        }
        match got.1 {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    (out, seen)
}

fn check_page(read: Read, got: &Got, before: usize) -> Result<(), TestCaseError> {
    prop_assert!(
        got.0.len() <= PAGE as usize,
        "{:?}: a page of {}",
        read,
        got.0.len()
    );
    prop_assert!(
        before + got.0.len() <= LIMIT as usize,
        "{:?}: {} items past the limit",
        read,
        before + got.0.len()
    );
    if let Some(parts) = partitions(read) {
        for (pk, _) in &got.0 {
            prop_assert!(parts.contains(&pk.as_str()), "{:?} read {}", read, pk);
        }
    }
    Ok(())
}

struct Fixture {
    _backend: dynakey::local::Backend,
    db: Db,
    /// Every read's genuine cursors, each with its page and how many items
    /// the pages before it held.
    cursors: Vec<(Read, String, Got, usize)>,
}

async fn fixture() -> Fixture {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend
        .db(format!("cursors_{}", uuid::Uuid::new_v4().simple()))
        .with_cursor_key(CursorKey::random());
    db.create_table(Rooms::ENTITIES).await.unwrap();
    let mut w = db.batch_write();
    for room in ["r1", "r2"] {
        for n in 0..12 {
            w = w.put(&Msg {
                room: room.into(),
                n,
                author: if room == "r1" && n % 2 == 0 {
                    "ann"
                } else {
                    "bob"
                }
                .into(),
                at: 1000 - n,
                flag: n % 3 == 0,
            });
        }
        w = w.put(&Topic {
            room: room.into(),
            title: "hello".into(),
        });
    }
    w.send().await.unwrap();
    let mut cursors = Vec::new();
    for read in READS {
        let (pages, seen) = walk(&db, read).await;
        assert!(!pages.is_empty(), "{read:?} has one page only");
        assert!(seen.len() <= LIMIT as usize, "{read:?}");
        cursors.extend(
            pages
                .into_iter()
                .map(|(c, got, before)| (read, c, got, before)),
        );
    }
    Fixture {
        _backend: backend,
        db,
        cursors,
    }
}

/// Feeds `cursor` to every read through a recorded client: the read that
/// made it (`own`, expecting `expect`) resumes, every other refuses it
/// without sending anything.
async fn feed(
    f: &Fixture,
    cursor: &str,
    own: Option<(Read, &Got, usize)>,
) -> Result<(), TestCaseError> {
    let spy = Recorder::new();
    let db = spy.db(&f.db);
    for read in READS {
        spy.clear();
        match (page(&db, read, Some(cursor)).await, own) {
            (Ok(got), Some((r, expect, before))) if r == read => {
                check_page(read, &got, before)?;
                prop_assert_eq!(&got, expect, "{:?} resumed elsewhere", read);
            }
            (Ok(got), _) => {
                return Err(TestCaseError::fail(format!(
                    "{read:?} took a cursor it did not make ({:?} made it): {got:?}",
                    own.map(|o| o.0)
                )))
            }
            (
                Err(Error::Refused {
                    reason: dynakey::RefusedReason::ForeignCursor,
                    message,
                }),
                o,
            ) => {
                prop_assert!(
                    o.is_none_or(|(r, ..)| r != read),
                    "{:?} refused its own cursor: {}",
                    read,
                    message
                );
                prop_assert!(
                    spy.operations().is_empty(),
                    "{:?} sent {:?}",
                    read,
                    spy.operations()
                );
            }
            (Err(e), _) => return Err(TestCaseError::fail(format!("{read:?}: {e:?}"))),
        }
    }
    Ok(())
}

#[tokio::test]
async fn every_cursor_resumes_its_own_read_and_no_other() {
    let f = fixture().await;
    for (read, c, got, before) in &f.cursors {
        feed(&f, c, Some((*read, got, *before))).await.unwrap();
    }
    // Another key refuses it; the same key on another Db (another
    // instance of a service) takes it.
    let (read, c, got, _) = &f.cursors[0];
    let other = f.db.clone().with_cursor_key(CursorKey::random());
    assert!(matches!(
        page(&other, *read, Some(c)).await,
        Err(Error::Refused {
            reason: dynakey::RefusedReason::ForeignCursor,
            ..
        })
    ));
    let key = CursorKey::new(b"one secret all instances of the service share").unwrap();
    let (one, two) = (
        f.db.clone().with_cursor_key(key.clone()),
        f.db.clone().with_cursor_key(key),
    );
    let first = page(&one, *read, None).await.unwrap();
    let resumed = page(&two, *read, first.1.as_deref()).await.unwrap();
    // The same page (its cursor is tagged under the shared key).
    assert_eq!(resumed.0, got.0);
    let next = page(&one, *read, resumed.1.as_deref()).await.unwrap();
    assert!(!next.0.is_empty());
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn b64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn unb64(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in s.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = ALPHABET.iter().position(|a| a == c).unwrap() as u32;
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// How a cursor is altered.
#[derive(Debug, Clone)]
enum Change {
    /// The text's byte at (a fraction of the length) becomes `to`.
    Byte(prop::sample::Index, u8),
    /// Cut at.
    Cut(prop::sample::Index),
    /// Bytes added at.
    Insert(prop::sample::Index, Vec<u8>),
    /// The decoded payload's field at a JSON path set to a value, keeping
    /// the tag.
    Field(FieldChange),
}

#[derive(Debug, Clone)]
enum FieldChange {
    Count(Value),
    /// A lane's key attribute's value.
    KeyValue(prop::sample::Index, prop::sample::Index, Value),
    /// A key attribute added to a lane's key.
    KeyAttr(prop::sample::Index, String),
    /// A lane set to `null` (its start), `false` (done) or removed.
    Lane(prop::sample::Index, Option<Value>),
    /// The lanes reversed.
    Swap,
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::from(0u64)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(-1i64)),
        Just(Value::from(1u64 << 53)),
        (0u64..20).prop_map(Value::from),
        Just(Value::from(1.5)),
        Just(Value::Null),
        Just(Value::Bool(true)),
        "[a-zA-Z0-9#%]{0,12}".prop_map(|s| serde_json::json!({ "S": s })),
        "ROOM#r[0-9]".prop_map(|s| serde_json::json!({ "S": s })),
        "MSG#00[0-9]{2}".prop_map(|s| serde_json::json!({ "S": s })),
        Just(serde_json::json!({ "N": "1" })),
        Just(serde_json::json!({ "S": "x", "N": "1" })),
    ]
}

fn change() -> impl Strategy<Value = Change> {
    let field = prop_oneof![
        json_value().prop_map(FieldChange::Count),
        (
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            json_value()
        )
            .prop_map(|(l, a, v)| FieldChange::KeyValue(l, a, v)),
        (any::<prop::sample::Index>(), "[a-z0-9]{1,6}")
            .prop_map(|(l, a)| FieldChange::KeyAttr(l, a)),
        (
            any::<prop::sample::Index>(),
            prop_oneof![
                Just(None),
                Just(Some(Value::Null)),
                Just(Some(Value::Bool(false)))
            ]
        )
            .prop_map(|(l, v)| FieldChange::Lane(l, v)),
        Just(FieldChange::Swap),
    ];
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Change::Byte(i, b)),
        any::<prop::sample::Index>().prop_map(Change::Cut),
        (
            any::<prop::sample::Index>(),
            prop::collection::vec(any::<u8>(), 1..4)
        )
            .prop_map(|(i, b)| Change::Insert(i, b)),
        field.prop_map(Change::Field),
    ]
}

/// `cursor` altered by `change` (possibly into itself).
fn alter(cursor: &str, change: &Change) -> String {
    let bytes = cursor.as_bytes();
    let lossy = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    match change {
        Change::Byte(i, to) => {
            let mut b = bytes.to_vec();
            let at = i.index(b.len());
            b[at] = *to;
            lossy(b)
        }
        Change::Cut(i) => lossy(bytes[..i.index(bytes.len())].to_vec()),
        Change::Insert(i, more) => {
            let mut b = bytes.to_vec();
            let at = i.index(b.len() + 1);
            b.splice(at..at, more.iter().copied());
            lossy(b)
        }
        Change::Field(f) => {
            let raw = unb64(cursor);
            let (tag, payload) = raw.split_at(16);
            let mut v: Value = serde_json::from_slice(payload).unwrap();
            let lanes = v["l"].as_array_mut().unwrap();
            let n_lanes = lanes.len();
            match f {
                FieldChange::Count(x) => v["n"] = x.clone(),
                FieldChange::KeyValue(l, a, x) => {
                    if let Some(key) = lanes[l.index(n_lanes)].as_object_mut() {
                        let names: Vec<String> = key.keys().cloned().collect();
                        key.insert(names[a.index(names.len())].clone(), x.clone());
                    }
                }
                FieldChange::KeyAttr(l, name) => {
                    if let Some(key) = lanes[l.index(n_lanes)].as_object_mut() {
                        key.insert(name.clone(), serde_json::json!({ "S": "x" }));
                    }
                }
                FieldChange::Lane(l, None) => {
                    lanes.remove(l.index(n_lanes));
                }
                FieldChange::Lane(l, Some(x)) => lanes[l.index(n_lanes)] = x.clone(),
                FieldChange::Swap => lanes.reverse(),
            }
            let mut out = tag.to_vec();
            out.extend(v.to_string().into_bytes());
            b64(&out)
        }
    }
}

#[test]
fn altered_cursors_are_refused_by_every_read_before_sending() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let f = rt.block_on(fixture());
    let cases = if f._backend.is_embedded() { 256 } else { 64 };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x6375_7273),
        failure_persistence: None,
        max_shrink_iters: 100,
        ..Config::default()
    });
    let strategy = (0..f.cursors.len(), change());
    let result = runner.run(&strategy, |(which, change)| {
        let (read, genuine, got, before) = &f.cursors[which];
        let altered = alter(genuine, &change);
        let own = (altered == *genuine).then_some((*read, got, *before));
        rt.block_on(feed(&f, &altered, own))
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, c)) => panic!("{why}\nsmallest failing case: {c:?}"),
        Err(e) => panic!("{e}"),
    }
}

/// The issue's reproduction: the count set to `u64::MAX` (which made the
/// pager's count overflow) or to 0 (which lifted the limit), keeping the
/// tag, is refused; so is a cursor of another partition.
#[tokio::test]
async fn the_issue_s_tampered_counts_are_refused() {
    let f = fixture().await;
    let (_, c, ..) = f.cursors.iter().find(|(r, ..)| *r == Read::Table).unwrap();
    for n in [Value::from(u64::MAX), Value::from(0u64)] {
        let altered = alter(c, &Change::Field(FieldChange::Count(n)));
        let err = page(&f.db, Read::Table, Some(&altered)).await.unwrap_err();
        assert!(
            matches!(
                err,
                Error::Refused {
                    reason: dynakey::RefusedReason::ForeignCursor,
                    ..
                }
            ),
            "{err}"
        );
    }
    let err = page(&f.db, Read::OtherRoom, Some(c)).await.unwrap_err();
    assert!(
        err.to_string().contains("was not made by this read"),
        "{err}"
    );
}
