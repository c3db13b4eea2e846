//! Every change kind from every source, from records the backend wrote:
//! insert, modify, remove; entering and leaving a sparse index; an update
//! of non-key fields only; a TTL expiry; an unknown type; view types that
//! lack an image.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::changes::{
    ChangeDecoder, ChangeError, ChangeKind, Image, IndexChange, IndexTransition, Lacks, Operation,
    StreamView,
};
use dynakey::local::{self, ManualClock};
use dynakey_examples::task_counts::{Org, OrgItem, Task};
use serde_json::json;
use time::OffsetDateTime;

use super::{backend, backend_name, capture, changes, decode_all, done, table, task};

fn entered(index: &'static str) -> IndexChange {
    IndexChange {
        index,
        transition: IndexTransition::Entered,
    }
}

fn left(index: &'static str) -> IndexChange {
    IndexChange {
        index,
        transition: IndexTransition::Left,
    }
}

#[tokio::test]
async fn insert_modify_remove_and_the_sparse_index() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    let mut cap = capture(&b, &db).await;
    let d = ChangeDecoder::<OrgItem>::union();

    let t = task("acme", "t1");
    db.put(&t).await.unwrap();
    let flagged = Task {
        flagged_by: Some("ann".into()),
        ..t.clone()
    };
    db.update(Task::update("acme", "t1").set_flagged_by(Some("ann".to_owned())))
        .await
        .unwrap();
    let renamed = Task {
        title: "renamed".into(),
        ..flagged.clone()
    };
    db.update(Task::update("acme", "t1").set_title("renamed"))
        .await
        .unwrap();
    db.update(Task::update("acme", "t1").set_flagged_by(None))
        .await
        .unwrap();
    let unflagged = Task {
        flagged_by: None,
        ..renamed.clone()
    };
    db.delete(Task::key("acme", "t1").unwrap()).await.unwrap();
    let profile = Org {
        org: "acme".into(),
        name: "Acme".into(),
    };
    db.put(&profile).await.unwrap();

    let got: Vec<_> = changes(&mut cap, &d)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(got.len(), 6, "{got:#?}");
    let kinds: Vec<_> = got.iter().map(|c| c.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            ChangeKind::Inserted(OrgItem::Task(t.clone())),
            ChangeKind::Modified {
                old: OrgItem::Task(t.clone()),
                new: OrgItem::Task(flagged.clone()),
                changed: vec!["flagged_by"],
            },
            ChangeKind::Modified {
                old: OrgItem::Task(flagged),
                new: OrgItem::Task(renamed.clone()),
                changed: vec!["title"],
            },
            ChangeKind::Modified {
                old: OrgItem::Task(renamed),
                new: OrgItem::Task(unflagged.clone()),
                changed: vec!["flagged_by"],
            },
            ChangeKind::Removed(OrgItem::Task(unflagged)),
            ChangeKind::Inserted(OrgItem::Org(profile)),
        ]
    );
    let indexes: Vec<_> = got.iter().map(|c| c.indexes.clone()).collect();
    // Entered on the flag, nothing on the rename (non-key fields only),
    // left on the unflag; an unflagged task's insert and delete touch no index.
    assert_eq!(
        indexes,
        [
            vec![],
            vec![entered("GSI1")],
            vec![],
            vec![left("GSI1")],
            vec![],
            vec![]
        ]
    );
    assert!(got[1].entered("GSI1") && got[3].left("GSI1") && !got[2].changed("flagged_by"));
    // Each change carries its key and a sequence number, in increasing order.
    let t1 = Task::key("acme", "t1").unwrap().to_attributes();
    assert!(got[..5].iter().all(|c| c.keys == t1));
    let seqs: Vec<u128> = got
        .iter()
        .map(|c| c.sequence_number.as_deref().unwrap().parse().unwrap())
        .collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    done(&b, &db).await;
}

#[tokio::test]
async fn an_insert_into_the_index_and_a_delete_out_of_it() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    let mut cap = capture(&b, &db).await;
    let t = Task {
        flagged_by: Some("bob".into()),
        ..task("globex", "t9")
    };
    db.put(&t).await.unwrap();
    db.delete(Task::key("globex", "t9").unwrap()).await.unwrap();
    let got = changes(&mut cap, &ChangeDecoder::union()).await;
    let got: Vec<_> = got.into_iter().map(Result::unwrap).collect();
    assert_eq!(got[0].indexes, [entered("GSI1")]);
    assert_eq!(got[1].indexes, [left("GSI1")]);
    assert_eq!(got[1].kind, ChangeKind::Removed(OrgItem::Task(t)));
    done(&b, &db).await;
}

/// An item of a type the union does not know: a typed `Unknown` change,
/// or an error when the decoder is strict.
#[tokio::test]
async fn an_unknown_type_is_a_typed_change_or_a_strict_error() {
    let b = backend();
    let db = table(&b, StreamView::NewAndOldImages).await;
    let mut cap = capture(&b, &db).await;
    let stray: HashMap<String, AttributeValue> = [
        ("pk", "ORG#acme"),
        ("sk", "STRAY#1"),
        ("_type", "STRAY"),
        ("gsi1pk", "FLAGGED#acme"),
        ("gsi1sk", "x#1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), AttributeValue::S(v.into())))
    .collect();
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(stray.clone()))
        .send()
        .await
        .unwrap();
    let captured = cap.next_batch().await.unwrap();
    let lenient = decode_all(&captured, &cap.stream_arn, &ChangeDecoder::union());
    let c = lenient[0].as_ref().unwrap();
    assert_eq!(
        c.kind,
        ChangeKind::Unknown {
            op: Operation::Insert,
            discriminator: "STRAY".into(),
            old: None,
            new: Some(stray),
        }
    );
    // Index moves are known from the raw attributes even for an unknown type.
    assert_eq!(c.indexes, [entered("GSI1")]);
    let strict = decode_all(&captured, &cap.stream_arn, &ChangeDecoder::union().strict());
    match &strict[0] {
        Err(ChangeError::UnknownDiscriminator { value, keys }) => {
            assert_eq!(value, "STRAY");
            assert_eq!(keys, "pk=ORG#acme, sk=STRAY#1");
        }
        other => panic!("{other:?}"),
    }
    done(&b, &db).await;
}

/// TTL expiry: on the embedded engine, a real one (a settable clock and a
/// sweep); elsewhere a captured REMOVE given TTL's `userIdentity`.
#[tokio::test]
async fn a_ttl_expiry_is_expired_not_removed() {
    let b = backend();
    let start = 1_700_000_000;
    let clock = ManualClock::new(start);
    let engine = if b.is_embedded() {
        local::memory_with_clock(&clock).unwrap()
    } else {
        b
    };
    let db = table(&engine, StreamView::NewAndOldImages).await;
    let mut cap = capture(&engine, &db).await;
    let soon = OffsetDateTime::from_unix_timestamp(start as i64 + 60).unwrap();
    let t = Task {
        expires_at: Some(soon),
        flagged_by: Some("ann".into()),
        ..task("acme", "short")
    };
    db.put(&t).await.unwrap();
    let mut captured = cap.next_batch().await.unwrap(); // the insert
    assert_eq!(captured.records.len(), 1);
    if engine.is_embedded() {
        clock.tick(std::time::Duration::from_secs(3600));
        assert_eq!(engine.sweep_ttl().await.unwrap(), 1);
        captured = cap.next_batch().await.unwrap();
        assert_eq!(
            captured.json[0]["userIdentity"],
            json!({"type": "Service", "principalId": "dynamodb.amazonaws.com"})
        );
    } else {
        println!(
            "{}: no TTL sweep on demand; the expiry is a captured REMOVE given TTL's userIdentity",
            backend_name(&engine)
        );
        db.delete(Task::key("acme", "short").unwrap())
            .await
            .unwrap();
        captured = cap.next_batch().await.unwrap();
        let ttl = json!({"type": "Service", "principalId": "dynamodb.amazonaws.com"});
        captured.json[0]["userIdentity"] = ttl;
        let r = &captured.records[0];
        captured.records[0] = aws_sdk_dynamodbstreams::types::Record::builder()
            .set_event_id(r.event_id().map(Into::into))
            .set_event_name(r.event_name().cloned())
            .set_dynamodb(r.dynamodb().cloned())
            .user_identity(
                aws_sdk_dynamodbstreams::types::Identity::builder()
                    .r#type("Service")
                    .principal_id("dynamodb.amazonaws.com")
                    .build(),
            )
            .build();
    }
    let got = decode_all(&captured, &cap.stream_arn, &ChangeDecoder::union());
    let c = got[0].as_ref().unwrap();
    assert_eq!(c.kind, ChangeKind::Expired(OrgItem::Task(t)));
    assert_eq!(c.op(), Operation::Expire);
    assert_eq!(c.indexes, [left("GSI1")]);
    done(&engine, &db).await;
}

/// A stream without the old image (NEW_IMAGE), without the new one
/// (OLD_IMAGE) or without either (KEYS_ONLY): a typed error when the change
/// needs the missing image, or a partial change that says what it lacks.
#[tokio::test]
async fn view_types_without_an_image_say_what_they_lack() {
    let b = backend();
    let d = ChangeDecoder::<OrgItem>::union();
    let p = ChangeDecoder::<OrgItem>::union().allow_partial();
    let t = task("acme", "v");
    let t2 = Task {
        title: "v2".into(),
        ..t.clone()
    };
    // (view, what each of insert / modify / remove lacks)
    let cases = [
        (
            StreamView::NewImage,
            [None, Some(Lacks::Old), Some(Lacks::Old)],
        ),
        (
            StreamView::OldImage,
            [Some(Lacks::New), Some(Lacks::New), None],
        ),
        (
            StreamView::KeysOnly,
            [Some(Lacks::New), Some(Lacks::Both), Some(Lacks::Old)],
        ),
    ];
    for (view, lacks) in cases {
        let db = table(&b, view).await;
        let mut cap = capture(&b, &db).await;
        db.put(&t).await.unwrap();
        db.put(&t2).await.unwrap();
        db.delete(Task::key("acme", "v").unwrap()).await.unwrap();
        let captured = cap.next_batch().await.unwrap();
        let strict = decode_all(&captured, &cap.stream_arn, &d);
        let partial = decode_all(&captured, &cap.stream_arn, &p);
        let ops = [Operation::Insert, Operation::Modify, Operation::Remove];
        for i in 0..3 {
            let what = format!("{view} {}", ops[i]);
            match lacks[i] {
                None => {
                    let c = strict[i].as_ref().unwrap();
                    assert_eq!(c.op(), ops[i], "{what}");
                    assert_eq!(&partial[i], &strict[i], "{what}");
                }
                Some(l) => {
                    match &strict[i] {
                        Err(ChangeError::MissingImage {
                            op, image, view: v, ..
                        }) => {
                            assert_eq!((*op, *v), (ops[i], Some(view)), "{what}");
                            let want = if l.includes(Image::Old) {
                                Image::Old
                            } else {
                                Image::New
                            };
                            assert_eq!(*image, want, "{what}");
                        }
                        other => panic!("{what}: {other:?}"),
                    }
                    let c = partial[i].as_ref().unwrap();
                    let (old, new) = match (ops[i], view) {
                        (Operation::Insert, StreamView::NewImage) => (None, Some(&t)),
                        (Operation::Modify, StreamView::NewImage) => (None, Some(&t2)),
                        (Operation::Modify, StreamView::OldImage) => (Some(&t), None),
                        (Operation::Remove, StreamView::OldImage) => (Some(&t2), None),
                        _ => (None, None),
                    };
                    let wrap = |x: Option<&Task>| x.cloned().map(OrgItem::Task);
                    assert_eq!(
                        c.kind,
                        ChangeKind::Partial {
                            op: ops[i],
                            old: wrap(old),
                            new: wrap(new),
                            lacks: l
                        },
                        "{what}"
                    );
                    // Without both images, index moves are not guessed.
                    assert!(c.indexes.is_empty(), "{what}");
                }
            }
        }
        done(&b, &db).await;
    }
}
