//! Queries, pages, streams, counts, keys-only, indexes, unions, fan-out,
//! scans.

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::{Condition, Entity, Error};
use dynakey_tests::notes::{stray_item, Note, Profile, UserItem};
use futures_util::TryStreamExt;

use super::{fixture, note, Fixture};

async fn seed(f: &Fixture, user: &str, ids: impl IntoIterator<Item = u32>) {
    let mut b = f.db.batch_write();
    for id in ids {
        let tag = (id % 2 == 0).then(|| "even".to_string());
        b = b.put(&Note {
            tag,
            ..note(user, id)
        });
    }
    let out = b.send().await.unwrap();
    assert!(out.unprocessed.is_empty());
}

fn ids(v: &[Note]) -> Vec<u32> {
    v.iter().map(|n| n.id).collect()
}

#[tokio::test]
async fn query_sort_key_conditions_and_order() {
    let f = fixture().await;
    seed(&f, "ann", 1..=20).await;
    f.db.put(&Profile {
        user: "ann".into(),
        name: "Ann".into(),
    })
    .await
    .unwrap();
    let pk = || Note::pk("ann").unwrap();
    // A typed query reads only notes, though the profile shares the partition.
    assert_eq!(f.db.query(pk()).all().await.unwrap().len(), 20);
    assert_eq!(f.db.query(pk()).count().await.unwrap(), 20);
    let q = f.db.query(pk()).sk(Note::sk().between(5u32, 9u32).unwrap());
    assert_eq!(ids(&q.all().await.unwrap()), [5, 6, 7, 8, 9]);
    assert_eq!(
        ids(&q.clone().descending().all().await.unwrap()),
        [9, 8, 7, 6, 5]
    );
    let q =
        f.db.query(pk())
            .sk(Note::sk().ge(18u32).unwrap())
            .consistent();
    assert_eq!(ids(&q.all().await.unwrap()), [18, 19, 20]);
    let q =
        f.db.query(pk())
            .sk(Note::sk().begins_with().unwrap())
            .filter(Condition::attr("tag").exists());
    assert_eq!(q.count().await.unwrap(), 10);
}

#[tokio::test]
async fn pages_with_opaque_cursors_and_streams() {
    let f = fixture().await;
    seed(&f, "ann", 1..=25).await;
    let q =
        f.db.query(Note::pk("ann").unwrap())
            .sk(Note::sk().begins_with().unwrap())
            .page_size(10);
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    let mut pages = 0;
    loop {
        let page = q.page(cursor.as_deref()).await.unwrap();
        pages += 1;
        assert!(page.items.len() <= 10);
        seen.extend(ids(&page.items));
        match page.cursor {
            Some(c) => {
                assert!(c
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
                cursor = Some(c);
            }
            None => break,
        }
    }
    assert!(pages >= 3);
    assert_eq!(seen, (1..=25).collect::<Vec<_>>());
    let streamed: Vec<Note> = q.clone().descending().stream().try_collect().await.unwrap();
    assert_eq!(ids(&streamed), (1..=25).rev().collect::<Vec<_>>());
    // Count with Select=COUNT across pages.
    assert_eq!(q.count().await.unwrap(), 25);
    let err = q.page(Some("not a cursor!")).await.unwrap_err();
    assert!(matches!(
        err,
        Error::Refused {
            reason: dynakey::RefusedReason::ForeignCursor,
            ..
        }
    ));
}

#[tokio::test]
async fn keys_only_reads_the_table_keys() {
    let f = fixture().await;
    seed(&f, "ann", 1..=3).await;
    let keys =
        f.db.query(Note::pk("ann").unwrap())
            .keys_only()
            .all()
            .await
            .unwrap();
    assert_eq!(
        keys,
        (1..=3)
            .map(|i| Note::key("ann", i).unwrap())
            .collect::<Vec<_>>()
    );
    let keys =
        f.db.query(Note::gsi1_pk("even").unwrap())
            .keys_only()
            .all()
            .await
            .unwrap();
    assert_eq!(keys, [Note::key("ann", 2).unwrap()]);
}

#[tokio::test]
async fn a_global_index_query_sees_only_sparse_members() {
    let f = fixture().await;
    seed(&f, "ann", 1..=6).await;
    seed(&f, "bob", 7..=8).await;
    let q = f.db.query(Note::gsi1_pk("even").unwrap());
    let got = q.all().await.unwrap();
    assert_eq!(ids(&got), [2, 4, 6, 8]);
    assert_eq!(q.count().await.unwrap(), 4);
    assert_eq!(
        ids(&q
            .clone()
            .descending()
            .limit(1)
            .page(None)
            .await
            .unwrap()
            .items),
        [8]
    );
}

#[tokio::test]
async fn a_union_reads_every_type_of_a_partition() {
    let f = fixture().await;
    seed(&f, "ann", 1..=2).await;
    let p = Profile {
        user: "ann".into(),
        name: "Ann".into(),
    };
    f.db.put(&p).await.unwrap();
    let all =
        f.db.query(Note::pk("ann").unwrap())
            .of::<UserItem>()
            .all()
            .await
            .unwrap();
    assert_eq!(all.len(), 3);
    // NOTE# sorts before PROFILE.
    assert!(matches!(&all[0], UserItem::Note(n) if n.id == 1));
    assert_eq!(all[2], UserItem::Profile(p));
    // An unknown discriminator is an error, or skipped when asked.
    f.db.client()
        .put_item()
        .table_name(f.db.table_name())
        .set_item(Some(stray_item("ann", "STRAY")))
        .send()
        .await
        .unwrap();
    let err =
        f.db.query(Note::pk("ann").unwrap())
            .of::<UserItem>()
            .all()
            .await
            .unwrap_err();
    assert!(
        matches!(&err, Error::UnknownDiscriminator { value, .. } if value == "STRAY"),
        "{err:?}"
    );
    let some =
        f.db.query(Note::pk("ann").unwrap())
            .of::<UserItem>()
            .skip_unknown()
            .all()
            .await
            .unwrap();
    assert_eq!(some.len(), 3);
    let scanned =
        f.db.scan::<Note>()
            .of::<UserItem>()
            .skip_unknown()
            .all()
            .await
            .unwrap();
    assert_eq!(scanned.len(), 3);
}

#[tokio::test]
async fn fan_out_merges_partitions_in_sort_key_order() {
    let f = fixture().await;
    // Eight write shards: note i lives in shard i % 8.
    let mut b = f.db.batch_write();
    for id in 0..80u32 {
        b = b.put(&note(&format!("s{}", id % 8), id));
    }
    assert!(b.send().await.unwrap().unprocessed.is_empty());
    let shards = || {
        (0..8)
            .map(|s| Note::pk(format!("s{s}")).unwrap())
            .collect::<Vec<_>>()
    };
    let all = f.db.query_many(shards()).all().await.unwrap();
    assert_eq!(ids(&all), (0..80).collect::<Vec<_>>());
    let desc =
        f.db.query_many(shards())
            .descending()
            .limit(5)
            .all()
            .await
            .unwrap();
    assert_eq!(ids(&desc), [79, 78, 77, 76, 75]);
    let range =
        f.db.query_many(shards())
            .sk(Note::sk().between(10u32, 19u32).unwrap())
            .sequential()
            .all()
            .await
            .unwrap();
    assert_eq!(ids(&range), (10..=19).collect::<Vec<_>>());
    assert_eq!(f.db.query_many(shards()).count().await.unwrap(), 80);
    assert_eq!(
        f.db.query_many(shards())
            .sk(Note::sk().ge(70u32).unwrap())
            .count()
            .await
            .unwrap(),
        10
    );
    let keys =
        f.db.query_many(shards())
            .keys_only()
            .limit(2)
            .all()
            .await
            .unwrap();
    assert_eq!(
        keys,
        [Note::key("s0", 0).unwrap(), Note::key("s1", 1).unwrap()]
    );
}

#[tokio::test]
async fn scan_with_parallel_segments() {
    let f = fixture().await;
    for u in 0..5 {
        seed(&f, &format!("u{u}"), 1..=10).await;
    }
    f.db.put(&Profile {
        user: "u0".into(),
        name: "x".into(),
    })
    .await
    .unwrap();
    let one = f.db.scan::<Note>().all().await.unwrap();
    assert_eq!(one.len(), 50);
    let four =
        f.db.scan::<Note>()
            .segments(4)
            .page_size(7)
            .all()
            .await
            .unwrap();
    assert_eq!(four.len(), 50);
    // `limit` is a total, over every segment.
    let seven =
        f.db.scan::<Note>()
            .segments(4)
            .limit(7)
            .all()
            .await
            .unwrap();
    assert_eq!(seven.len(), 7);
    let mut a: Vec<(String, u32)> = one.iter().map(|n| (n.user.clone(), n.id)).collect();
    let mut b: Vec<(String, u32)> = four.iter().map(|n| (n.user.clone(), n.id)).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert_eq!(f.db.scan::<Note>().segments(3).count().await.unwrap(), 50);
    assert_eq!(f.db.scan::<Profile>().count().await.unwrap(), 1);
    let tagged =
        f.db.scan::<Note>()
            .filter(Condition::attr("tag").eq("even"))
            .all()
            .await
            .unwrap();
    assert_eq!(tagged.len(), 25);
}

#[tokio::test]
async fn streams_surface_errors_and_stop() {
    let f = fixture().await;
    let mut item = note("ann", 1).to_item().unwrap();
    item.insert("text".into(), AttributeValue::N("1".into()));
    f.db.client()
        .put_item()
        .table_name(f.db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let r: Result<Vec<Note>, Error> =
        f.db.query(Note::pk("ann").unwrap())
            .stream()
            .try_collect()
            .await;
    let err = r.unwrap_err();
    assert!(
        matches!(&err, Error::Decode(d) if d.path == "text"),
        "{err:?}"
    );
}

// Two indexes of one kind share their condition type, so a condition of
// one on the other's partition compiles; it is refused before sending (a
// condition on a partition of another kind does not compile).
#[derive(dynakey::DynamoEntity, Clone, Debug, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("ORG#<org>")]
#[sk("TICKET#<id:d6>")]
#[gsi("GSI1", pk = "OWNER#<owner>", sk = "TICKET#<id:d6>")]
#[gsi("GSI2", pk = "STATUS#<status>", sk = "OPENED#<opened:d8>")]
#[lsi("LSI1", sk = "PRIO#<prio:d2>")]
#[lsi("LSI2", sk = "DUE#<due:d8>")]
struct Ticket {
    org: String,
    id: u32,
    owner: String,
    status: String,
    opened: u32,
    prio: u8,
    due: u32,
}

#[tokio::test]
async fn a_condition_of_another_index_of_the_same_kind_is_refused_before_sending() {
    let f = fixture().await;
    let spy = dynakey::spy::Recorder::new();
    let db = spy.db(&f.db);
    // The message names both indexes.
    let refused = |err: Error, condition: &str, partition: &str| {
        assert!(
            matches!(&err, Error::Refused { reason: dynakey::RefusedReason::InvalidExpression, message } if message.contains(condition) && message.contains(partition)),
            "{err:?}"
        )
    };
    let global = db
        .query(Ticket::gsi1_pk("ann").unwrap())
        .sk(Ticket::gsi2_sk().opened(20260101u32).eq().unwrap());
    refused(global.all().await.unwrap_err(), "GSI2", "GSI1");
    let local = db
        .query(Ticket::lsi1_pk("acme").unwrap())
        .sk(Ticket::lsi2_sk().due(20260101u32).eq().unwrap());
    refused(local.all().await.unwrap_err(), "LSI2", "LSI1");
    assert!(spy.requests().is_empty(), "{:?}", spy.requests());
}
