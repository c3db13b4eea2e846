//! Model-based test of every read's sizes and pages: random partitions of
//! two interleaved entity types (and items of an unknown type), read by a
//! typed query, a union query that skips unknown types, a keys-only query,
//! a fan-out and a scan, with random directions, filters, page sizes and
//! limits. For each read:
//!
//! - `all()` is the model's answer: the matching items in sort-key order
//!   (merged across partitions for a fan-out), at most `limit` of them;
//! - the pages, concatenated, are `all()`: nothing skipped, nothing
//!   repeated, wherever a page ends inside what a request brought back;
//! - every page followed by a cursor holds exactly `page_size` items (or
//!   what the limit leaves), whatever the filters and types left out;
//! - `stream()` is `all()`, and `count()` is the model's count.
//!
//! Seeded and shrinking; fewer cases against `DYNAKEY_ENDPOINT`.

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use dynakey::prelude::*;
use dynakey::{Condition, Error};
use dynakey::{Item, Page};
use futures_util::TryStreamExt;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

/// A comment of a post: `POST#<post>` / `E#<n:d4>#C`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "COMMENT")]
#[pk("POST#<post>")]
#[sk("E#<n:d4>#C")]
struct Comment {
    post: String,
    n: u32,
    flag: bool,
}

/// A like, interleaved with the comments: `POST#<post>` / `E#<n:d4>#L`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "LIKE")]
#[pk("POST#<post>")]
#[sk("E#<n:d4>#L")]
struct Like {
    post: String,
    n: u32,
    flag: bool,
}

#[derive(DynamoUnion, Debug, Clone, PartialEq)]
enum PostItem {
    Comment(Comment),
    Like(Like),
}

/// What the model knows of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Comment,
    Like,
    /// An item of a type no entity reads.
    Stray,
}

#[derive(Debug, Clone)]
struct Stored {
    post: usize,
    n: u32,
    kind: Kind,
    flag: bool,
}

impl Stored {
    fn pk(&self) -> String {
        format!("POST#p{}", self.post)
    }
    fn sk(&self) -> String {
        let k = match self.kind {
            Kind::Comment => 'C',
            Kind::Like => 'L',
            Kind::Stray => 'S',
        };
        format!("E#{:04}#{k}", self.n)
    }
}

/// Which read, over which partitions.
#[derive(Debug, Clone)]
enum Reader {
    /// Comments of one partition.
    Typed(usize),
    /// Every known type of one partition, unknown ones skipped.
    Union(usize),
    /// The keys of one partition's comments.
    Keys(usize),
    /// Comments of several partitions, merged.
    FanOut(Vec<usize>),
    /// Comments of the table, in segments.
    Scan(u32),
}

#[derive(Debug, Clone)]
struct Case {
    items: Vec<Stored>,
    reader: Reader,
    descending: bool,
    filter: Option<bool>,
    page_size: Option<u32>,
    limit: Option<u32>,
}

const POSTS: usize = 3;

fn case() -> impl Strategy<Value = Case> {
    let item = (0..POSTS, 0u32..30, 0u8..10, any::<bool>()).prop_map(|(post, n, k, flag)| {
        // Mostly the two types, sometimes an unknown one.
        let kind = match k {
            0..=4 => Kind::Comment,
            5..=8 => Kind::Like,
            _ => Kind::Stray,
        };
        Stored {
            post,
            n,
            kind,
            flag,
        }
    });
    let reader = prop_oneof![
        (0..POSTS).prop_map(Reader::Typed),
        (0..POSTS).prop_map(Reader::Union),
        (0..POSTS).prop_map(Reader::Keys),
        prop::sample::subsequence((0..POSTS).collect::<Vec<_>>(), 0..=POSTS)
            .prop_map(Reader::FanOut),
        (1u32..4).prop_map(Reader::Scan),
    ];
    (
        prop::collection::vec(item, 0..60),
        reader,
        any::<bool>(),
        prop::option::of(any::<bool>()),
        prop::option::weighted(0.8, 1u32..8),
        prop::option::weighted(0.4, 0u32..20),
    )
        .prop_map(
            |(mut items, reader, descending, filter, page_size, limit)| {
                // One item per key.
                let mut seen = std::collections::HashSet::new();
                items.retain(|s| seen.insert((s.post, s.sk())));
                Case {
                    items,
                    reader,
                    descending,
                    filter,
                    page_size,
                    limit,
                }
            },
        )
}

/// Writes the case's items to `db` (raw requests: the strays have no
/// entity).
async fn store(db: &Db, items: &[Stored]) {
    let mut requests = Vec::new();
    for s in items {
        let item: Item = match s.kind {
            Kind::Comment => Comment {
                post: format!("p{}", s.post),
                n: s.n,
                flag: s.flag,
            }
            .to_item()
            .unwrap(),
            Kind::Like => Like {
                post: format!("p{}", s.post),
                n: s.n,
                flag: s.flag,
            }
            .to_item()
            .unwrap(),
            Kind::Stray => [
                ("pk", AttributeValue::S(s.pk())),
                ("sk", AttributeValue::S(s.sk())),
                ("_type", AttributeValue::S("STRAY".into())),
                ("flag", AttributeValue::Bool(s.flag)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
        };
        let put = PutRequest::builder().set_item(Some(item)).build().unwrap();
        requests.push(WriteRequest::builder().put_request(put).build());
    }
    db.batch_write().requests(requests).await.unwrap();
}

/// The model's answer: `(pk, sk)` of what the read returns, in order (a
/// scan's in key order, and all of them: a scan's `limit` keeps whichever
/// items come first), and what `count()` says.
fn expected(c: &Case) -> (Vec<(String, String)>, u64) {
    let matches = |s: &&Stored| c.filter.is_none_or(|f| s.flag == f);
    let lanes: Vec<usize> = match &c.reader {
        Reader::Typed(p) | Reader::Union(p) | Reader::Keys(p) => vec![*p],
        Reader::FanOut(ps) => ps.clone(),
        Reader::Scan(_) => (0..POSTS).collect(),
    };
    let kinds: &[Kind] = match c.reader {
        Reader::Union(_) => &[Kind::Comment, Kind::Like],
        _ => &[Kind::Comment],
    };
    let mut out = Vec::new();
    for &p in &lanes {
        let mut part: Vec<&Stored> = c
            .items
            .iter()
            .filter(|s| s.post == p && kinds.contains(&s.kind))
            .filter(matches)
            .collect();
        part.sort_by_key(|s| s.sk());
        out.extend(part.into_iter().map(|s| (s.pk(), s.sk())));
    }
    let scan = matches!(c.reader, Reader::Scan(_));
    if scan {
        out.sort();
    } else if c.descending {
        // Stable: equal sort keys keep partition order.
        out.sort_by(|a, b| b.1.cmp(&a.1));
    } else {
        out.sort_by(|a, b| a.1.cmp(&b.1));
    }
    // A union's count counts the unknown types as well: COUNT cannot
    // decode them.
    let counted = match c.reader {
        Reader::Union(p) => c
            .items
            .iter()
            .filter(|s| s.post == p)
            .filter(matches)
            .count(),
        _ => out.len(),
    };
    let cap = c.limit.map_or(usize::MAX, |l| l as usize);
    if !scan {
        out.truncate(cap);
    }
    (out, counted.min(cap) as u64)
}

/// What one read returned through each of its methods.
struct Read {
    all: Vec<(String, String)>,
    pages: Vec<Vec<(String, String)>>,
    streamed: Vec<(String, String)>,
    count: u64,
}

/// Reads `$q` every way, turning each result into `(pk, sk)` with `$key`.
macro_rules! read_every_way {
    ($q:expr, $key:expr) => {{
        let q = $q;
        let key = $key;
        let all: Vec<(String, String)> = q.all().await.unwrap().iter().map(key).collect();
        let mut pages = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..500 {
            let page: Page<_> = q.page(cursor.as_deref()).await.unwrap();
            pages.push(page.items.iter().map(key).collect::<Vec<_>>());
            match page.cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        assert!(cursor.is_none() || pages.len() < 500, "pages never end");
        let count = q.count().await.unwrap();
        let streamed: Vec<(String, String)> =
            q.stream().map_ok(|x| key(&x)).try_collect().await.unwrap();
        Read {
            all,
            pages,
            streamed,
            count,
        }
    }};
}

fn text_of<E: Entity>(e: &E) -> (String, String) {
    let k = e.item_key().unwrap();
    (k.pk().to_owned(), k.sk().unwrap_or_default().to_owned())
}

async fn read(db: &Db, c: &Case) -> Read {
    let filter = c.filter.map(|f| Condition::attr("flag").eq(f));
    macro_rules! shape {
        ($q:expr) => {{
            let mut q = $q;
            if let Some(f) = &filter {
                q = q.filter(f.clone());
            }
            if let Some(n) = c.page_size {
                q = q.page_size(n);
            }
            if let Some(n) = c.limit {
                q = q.limit(n);
            }
            q
        }};
    }
    macro_rules! order {
        ($q:expr) => {{
            let q = $q;
            if c.descending {
                q.descending()
            } else {
                q
            }
        }};
    }
    let pk = |p: usize| Comment::pk(format!("p{p}")).unwrap();
    match &c.reader {
        Reader::Typed(p) => read_every_way!(shape!(order!(db.query(pk(*p)))), text_of),
        Reader::Union(p) => read_every_way!(
            shape!(order!(db.query(pk(*p)).of::<PostItem>().skip_unknown())),
            |u: &PostItem| match u {
                PostItem::Comment(x) => text_of(x),
                PostItem::Like(x) => text_of(x),
            }
        ),
        Reader::Keys(p) => read_every_way!(
            shape!(order!(db.query(pk(*p)).keys_only())),
            |k: &dynakey::Key<Comment>| (k.pk().to_owned(), k.sk().unwrap_or_default().to_owned())
        ),
        Reader::FanOut(ps) => read_every_way!(
            shape!(order!(db.query_many(ps.iter().map(|p| pk(*p))))),
            text_of
        ),
        Reader::Scan(segments) => {
            read_every_way!(shape!(db.scan::<Comment>().segments(*segments)), text_of)
        }
    }
}

async fn check(backend: &dynakey::local::Backend, c: &Case) -> Result<(), TestCaseError> {
    let db = backend.db(format!("paging_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Comment::META, Like::META]).await.unwrap();
    store(&db, &c.items).await;
    let (want, want_count) = expected(c);
    let mut r = read(&db, c).await;
    let scan = matches!(c.reader, Reader::Scan(_));
    let concatenated: Vec<(String, String)> = r.pages.concat();
    prop_assert_eq!(&concatenated, &r.all, "pages concatenated are all()");
    prop_assert_eq!(&r.streamed, &r.all, "stream() is all()");
    if scan {
        // A scan has no order, and its limit keeps the items that come
        // first: as many as the limit allows, all of them the model's.
        r.all.sort();
        let cap = c.limit.map_or(usize::MAX, |l| l as usize);
        prop_assert_eq!(r.all.len(), want.len().min(cap), "scan all()");
        prop_assert!(r.all.iter().all(|k| want.binary_search(k).is_ok()));
    } else {
        prop_assert_eq!(&r.all, &want, "all() is the model's answer");
    }
    prop_assert_eq!(r.count, want_count, "count()");
    // Every page a cursor follows is full.
    let mut returned = 0usize;
    let last = r.pages.len() - 1;
    for (i, page) in r.pages.iter().enumerate() {
        let left = c.limit.map_or(usize::MAX, |l| l as usize - returned);
        if i < last {
            match c.page_size {
                Some(n) => prop_assert_eq!(
                    page.len(),
                    (n as usize).min(left),
                    "page {} of {:?}",
                    i,
                    r.pages
                ),
                None => prop_assert!(!page.is_empty(), "page {} empty while a cursor follows", i),
            }
        } else if let Some(n) = c.page_size {
            prop_assert!(page.len() <= (n as usize).min(left));
        }
        returned += page.len();
    }
    // With a page size, only the last page can be empty, and then only
    // after a full one.
    if let (Some(n), true) = (c.page_size, r.pages.len() > 1) {
        if r.pages[last].is_empty() {
            prop_assert_eq!(r.pages[last - 1].len(), n as usize);
        }
    }
    if !backend.is_embedded() {
        dynakey::table::delete_table(db.client(), db.table_name())
            .await
            .unwrap();
    }
    Ok(())
}

#[test]
fn pages_limits_and_streams_agree_with_the_model() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let backend = dynakey::local::from_env().unwrap();
    let cases = if backend.is_embedded() { 160 } else { 6 };
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x9a6e_5173),
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    });
    match runner.run(&case(), |c| rt.block_on(check(&backend, &c))) {
        Ok(()) => {}
        Err(TestError::Fail(why, c)) => panic!("{why}\nsmallest failing case: {c:#?}"),
        Err(e) => panic!("{e}"),
    }
}

/// The reproduction of the issue: `limit` is a total on a query as on a
/// fan-out, and a typed page of a mixed partition is full.
#[tokio::test]
async fn limit_is_a_total_and_typed_pages_are_full() {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("paging_{}", uuid::Uuid::new_v4().simple()));
    db.create_table(&[Comment::META, Like::META]).await.unwrap();
    // 12 comments, each followed by a like.
    let mut items = Vec::new();
    for n in 0..12 {
        for kind in [Kind::Comment, Kind::Like] {
            items.push(Stored {
                post: 0,
                n,
                kind,
                flag: n % 3 == 0,
            });
        }
    }
    store(&db, &items).await;
    let q = || db.query(Comment::pk("p0").unwrap());
    // `limit` caps the total: 5 of the 12 comments, not every page of 5.
    assert_eq!(q().limit(5).all().await.unwrap().len(), 5);
    assert_eq!(q().limit(5).count().await.unwrap(), 5);
    assert_eq!(
        db.query_many([Comment::pk("p0").unwrap()])
            .limit(5)
            .all()
            .await
            .unwrap()
            .len(),
        5
    );
    // A page of 10 comments holds 10, though every request of 10 items
    // reads 5 likes too; the next resumes after the 10th.
    let first = q().page_size(10).page(None).await.unwrap();
    assert_eq!(first.items.len(), 10);
    let rest = q()
        .page_size(10)
        .page(first.cursor.as_deref())
        .await
        .unwrap();
    assert_eq!(rest.items.iter().map(|c| c.n).collect::<Vec<_>>(), [10, 11]);
    // A filtered page is full too, never empty with a cursor after it.
    let flagged = q()
        .filter(Condition::attr("flag").eq(true))
        .page_size(3)
        .page(None)
        .await
        .unwrap();
    assert_eq!(
        flagged.items.iter().map(|c| c.n).collect::<Vec<_>>(),
        [0, 3, 6]
    );
    // A limit reached ends the pages.
    let capped = q().limit(4).page_size(3).page(None).await.unwrap();
    let capped = q()
        .limit(4)
        .page_size(3)
        .page(capped.cursor.as_deref())
        .await
        .unwrap();
    assert_eq!(capped.items.len(), 1);
    assert!(capped.is_last());
    // A cursor of another read is refused.
    let fan = db
        .query_many([Comment::pk("p0").unwrap(), Comment::pk("p1").unwrap()])
        .page_size(2)
        .page(None)
        .await
        .unwrap();
    let err = q().page(fan.cursor.as_deref()).await.unwrap_err();
    assert!(
        matches!(
            err,
            Error::Refused {
                reason: dynakey::RefusedReason::ForeignCursor,
                ..
            }
        ),
        "{err:?}"
    );
}
