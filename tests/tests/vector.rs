//! Vector indexes and the typed search, on the embedded engine (and on the
//! server `DYNAKEY_ENDPOINT` names, when it serves `SearchVectors`; one that
//! does not, such as moto, is probed once per test and the test says why it
//! skips).
//!
//! Only what holds on DynamoDB as well is asserted (its search is
//! approximate, the engine's exact; see dynoxide's compatibility summary):
//! never the exact list of results, nor the order of equal scores.

#[path = "production/capture.rs"]
mod capture;

use aws_lambda_events::event::dynamodb::Event;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use dynakey::changes::{Change, ChangeDecoder, IndexTransition, StreamView};
use dynakey::explain::IndexChange;
use dynakey::fault::{resource_arn, FaultConfig, FaultInjector, ThrottleFault};
use dynakey::item_size;
use dynakey::local::{self, Backend};
use dynakey::spy::Recorder;
use dynakey::table::TableOptions;
use dynakey::vector::{Distance, VectorSearchReason};
use dynakey::{
    Db, DynamoEntity, DynamoProjection, Entity, Error, KeyFormatReason, RefusedReason, Throttle,
    ThrottleReason,
};
use dynakey_examples::stream_capture::StreamCapture;

/// A support ticket: scoped by tenant (not part of its key, so an update
/// can move it to another tenant), filtered by status and priority.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[vector_index("BySimilar", vector = embedding, dimensions = 3, distance = "COSINE", scope(tenant), filter(status, priority))]
pub struct Ticket {
    pub id: String,
    pub tenant: String,
    pub status: String,
    pub priority: u8,
    pub title: String,
    pub embedding: Option<[f32; 3]>,
}

/// A note whose index holds only its title, searched without a scope, its
/// vector a `Vec<f32>` (the length checked before sending).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "NOTE")]
#[pk("NOTE#<id>")]
#[vector_index("ByText", vector = text_vector, dimensions = 2, distance = "EUCLIDEAN", projection = "INCLUDE(id, title)")]
pub struct Note {
    pub id: String,
    pub title: String,
    pub body: String,
    pub text_vector: Vec<f32>,
}

/// The smallest entity with a vector index: what the probe creates.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PROBE")]
#[pk("PROBE#<id>")]
#[vector_index("Probe", vector = v, dimensions = 1, distance = "COSINE")]
pub struct Probe {
    pub id: String,
    pub v: [f32; 1],
}

/// A passage of a book, its vector long enough that the bytes DynamoDB
/// bills it at (4 a dimension) and the size of its numbers differ by a
/// write unit.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PASSAGE")]
#[pk("PASSAGE#<id>")]
#[vector_index("ByPassage", vector = v, dimensions = 400, distance = "DOT_PRODUCT", scope(book), projection = "INCLUDE(title)")]
pub struct Passage {
    pub id: String,
    pub book: Option<String>,
    pub title: String,
    pub body: String,
    pub v: Option<Vec<f32>>,
}

fn passage(id: &str, book: &str, seed: f32) -> Passage {
    Passage {
        id: id.into(),
        book: Some(book.into()),
        title: format!("passage {id}"),
        body: "Call me Ishmael.".into(),
        v: Some((0..400).map(|i| (i as f32 * seed).sin()).collect()),
    }
}

#[derive(DynamoProjection, Debug, Clone, PartialEq)]
#[dynamo(of = Note)]
pub struct NoteTitle {
    pub id: String,
    pub title: String,
}

fn ticket(id: &str, tenant: &str, status: &str, priority: u8, v: [f32; 3]) -> Ticket {
    Ticket {
        id: id.into(),
        tenant: tenant.into(),
        status: status.into(),
        priority,
        title: format!("ticket {id}"),
        embedding: Some(v),
    }
}

/// A fresh table holding tickets and notes, or `None` (with the reason
/// printed) when the backend has no vector indexes: the probe, a table of
/// the smallest vector index there is, is refused (`CreateTable` with
/// `VectorIndexes`, or a `SearchVectors` of it). Only the probe may skip:
/// a refusal of the test's own table fails the test.
async fn table() -> Option<(Backend, Db)> {
    let local = local::from_env().expect("backend");
    let name = |what: &str| format!("{what}_{}", uuid::Uuid::new_v4().simple());
    let probe = local.db(name("probe"));
    if let Err(e) = probe.create_table(&[Probe::META]).await {
        eprintln!("skipped: the backend refused CreateTable with VectorIndexes: {e}");
        return None;
    }
    let searched = probe.search(Probe::probe(), &[1.0]).await;
    let _ = dynakey::table::delete_table(local.client(), probe.table_name()).await;
    if let Err(e) = searched {
        eprintln!("skipped: the backend refused SearchVectors: {e}");
        return None;
    }
    let db = local.db(name("v"));
    db.create_table(&[Ticket::META, Note::META, Passage::META])
        .await
        .expect("create the table");
    Some((local, db))
}

fn ids<T>(hits: &[dynakey::vector::Scored<T>], id: impl Fn(&T) -> &str) -> Vec<String> {
    hits.iter().map(|h| id(&h.item).to_owned()).collect()
}

#[tokio::test]
async fn an_item_just_written_is_found_by_its_own_vector() {
    let Some((_b, db)) = table().await else {
        return;
    };
    let mine = ticket("1", "acme", "open", 1, [0.9, 0.1, 0.2]);
    db.put(&mine).await.unwrap();
    db.put(&ticket("2", "acme", "open", 1, [-0.5, 0.7, 0.1]))
        .await
        .unwrap();
    let hits = db
        .search(Ticket::by_similar("acme").unwrap(), &[0.9, 0.1, 0.2])
        .top_k(5)
        .await
        .unwrap();
    let found = hits.iter().find(|h| h.item.id == "1").expect("found");
    assert_eq!(found.item, mine);
    // COSINE: a distance, the item's own vector at (about) none.
    assert!(found.score.abs() < 1e-3, "{}", found.score);
}

#[tokio::test]
async fn a_scope_never_returns_another_tenants_item() {
    let Some((_b, db)) = table().await else {
        return;
    };
    for (i, tenant) in ["acme", "globex", "acme", "globex"].iter().enumerate() {
        // The same vector everywhere: only the scope tells them apart.
        db.put(&ticket(&i.to_string(), tenant, "open", 1, [1.0, 1.0, 0.0]))
            .await
            .unwrap();
    }
    let hits = db
        .search(Ticket::by_similar("acme").unwrap(), &[1.0, 1.0, 0.0])
        .top_k(10)
        .await
        .unwrap();
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.item.tenant == "acme"), "{hits:?}");
}

#[tokio::test]
async fn filters_hold_for_every_result() {
    let Some((_b, db)) = table().await else {
        return;
    };
    for i in 0..8u8 {
        let status = if i % 2 == 0 { "open" } else { "closed" };
        db.put(&ticket(
            &i.to_string(),
            "acme",
            status,
            i % 3,
            [1.0, f32::from(i), 0.5],
        ))
        .await
        .unwrap();
    }
    let open = db
        .search(Ticket::by_similar("acme").unwrap(), &[1.0, 2.0, 0.5])
        .top_k(10)
        .filter(|f| f.status.eq("open"))
        .await
        .unwrap();
    assert!(!open.is_empty());
    assert!(open.iter().all(|h| h.item.status == "open"), "{open:?}");
    let both = db
        .search(Ticket::by_similar("acme").unwrap(), &[1.0, 2.0, 0.5])
        .top_k(10)
        .filter(|f| f.status.eq("closed").and(f.priority.eq(&1)))
        .await
        .unwrap();
    assert!(both
        .iter()
        .all(|h| h.item.status == "closed" && h.item.priority == 1));
}

#[tokio::test]
async fn top_k_bounds_the_count() {
    let Some((_b, db)) = table().await else {
        return;
    };
    for i in 0..8u8 {
        db.put(&ticket(
            &i.to_string(),
            "acme",
            "open",
            1,
            [f32::from(i), 1.0, 1.0],
        ))
        .await
        .unwrap();
    }
    for k in [1, 3, 8] {
        let hits = db
            .search(Ticket::by_similar("acme").unwrap(), &[1.0, 1.0, 1.0])
            .top_k(k)
            .await
            .unwrap();
        assert!(
            !hits.is_empty() && hits.len() <= k as usize,
            "{k}: {}",
            hits.len()
        );
    }
}

#[tokio::test]
async fn a_write_that_changes_the_vector_scope_or_filter_moves_the_item() {
    let Some((_b, db)) = table().await else {
        return;
    };
    let search = |tenant: &'static str, v: [f32; 3], status: &'static str| {
        let db = db.clone();
        async move {
            let hits = db
                .search(Ticket::by_similar(tenant).unwrap(), &v)
                .top_k(1)
                .filter(|f| f.status.eq(status))
                .await
                .unwrap();
            ids(&hits, |t| &t.id)
        }
    };
    db.put(&ticket("a", "acme", "open", 1, [1.0, 0.0, 0.0]))
        .await
        .unwrap();
    db.put(&ticket("b", "acme", "open", 1, [0.0, 1.0, 0.0]))
        .await
        .unwrap();
    assert_eq!(search("acme", [1.0, 0.0, 0.0], "open").await, ["a"]);
    // The vector: `a` now points where `b` does not.
    db.put(&ticket("a", "acme", "open", 1, [0.0, 0.0, 1.0]))
        .await
        .unwrap();
    assert_eq!(search("acme", [0.0, 0.0, 1.0], "open").await, ["a"]);
    // The filter attribute, by a typed update.
    db.update(Ticket::update("a").set_status("closed"))
        .await
        .unwrap();
    assert_eq!(search("acme", [0.0, 0.0, 1.0], "closed").await, ["a"]);
    assert!(!search("acme", [0.0, 0.0, 1.0], "open")
        .await
        .contains(&"a".to_owned()));
    // The scope.
    db.update(Ticket::update("a").set_tenant("globex"))
        .await
        .unwrap();
    assert_eq!(search("globex", [0.0, 0.0, 1.0], "closed").await, ["a"]);
    assert!(search("acme", [0.0, 0.0, 1.0], "closed").await.is_empty());
}

#[tokio::test]
async fn an_item_without_a_vector_is_never_returned() {
    let Some((_b, db)) = table().await else {
        return;
    };
    let mut sparse = ticket("none", "acme", "open", 1, [0.0; 3]);
    sparse.embedding = None;
    db.put(&sparse).await.unwrap();
    db.put(&ticket("some", "acme", "open", 1, [1.0, 0.0, 0.0]))
        .await
        .unwrap();
    let hits = db
        .search(Ticket::by_similar("acme").unwrap(), &[1.0, 0.0, 0.0])
        .top_k(100)
        .await
        .unwrap();
    let found = ids(&hits, |t| &t.id);
    assert!(found.contains(&"some".to_owned()));
    assert!(!found.contains(&"none".to_owned()), "{found:?}");
}

#[tokio::test]
async fn an_index_holding_less_is_read_as_a_projection_or_keys() {
    let Some((_b, db)) = table().await else {
        return;
    };
    let note = Note {
        id: "n1".into(),
        title: "printer on fire".into(),
        body: "long text".into(),
        text_vector: vec![0.5, 0.5],
    };
    db.put(&note).await.unwrap();
    let titles = db
        .search(Note::by_text(), &vec![0.5, 0.5])
        .top_k(3)
        .project::<NoteTitle>()
        .await
        .unwrap();
    assert!(titles.iter().any(|h| h.item
        == NoteTitle {
            id: "n1".into(),
            title: "printer on fire".into()
        }));
    // EUCLIDEAN: a distance, none to itself; never negative.
    assert!(titles.iter().all(|h| h.score >= 0.0));
    let keys = db
        .search(Note::by_text(), &vec![0.5, 0.5])
        .top_k(3)
        .keys_only()
        .await
        .unwrap();
    assert!(keys.iter().any(|h| h.item == Note::key("n1").unwrap()));
    // Tickets share the table, not the index: no ticket comes back.
    assert!(keys.len() <= 3);
}

/// The bytes the last recorded request reported for `index`, and its
/// table units.
fn reported(spy: &Recorder, index: &str) -> (Option<f64>, f64) {
    let last = spy.requests().pop().expect("a request");
    let c = last.consumed.first().expect("capacity reported");
    let bytes = c
        .vector_indexes()
        .and_then(|m| m.get(index))
        .and_then(|v| v.vector_write_request_bytes());
    let table = c
        .table()
        .and_then(|t| t.capacity_units())
        .unwrap_or_default();
    (bytes, table)
}

/// `explain` estimates what the engine reports (its figures captured from
/// DynamoDB): a vector index's `VectorWriteRequestBytes` for each write,
/// and table units counting the vector at 4 bytes a dimension.
#[tokio::test]
async fn explain_estimates_what_a_vector_write_reports() {
    let Some((_b, db)) = table().await else {
        return;
    };
    let spy = Recorder::new();
    let db = spy.db(&db).with_capacity(ReturnConsumedCapacity::Indexes);
    let p = passage("p1", "moby", 0.37);

    let est = db.put(&p).explain().unwrap().cost.unwrap();
    assert_eq!(est.vectors[0].change, IndexChange::Enter);
    // The entry: 400 × 4 bytes, the name `v`, the key, the scope, the
    // discriminator and the title.
    assert!(est.vector_bytes() > 1600.0, "{est}");
    // Its numbers as written take more than 4 bytes each: counted by
    // their size the item would cost another unit.
    let by_numbers = (item_size(&p.to_item().unwrap()) as f64 / 1024.0).ceil();
    assert_eq!(by_numbers, est.table_units + 1.0, "{est}");
    db.put(&p).await.unwrap();
    assert_eq!(
        reported(&spy, "ByPassage"),
        (Some(est.vector_bytes()), est.table_units),
        "{est}"
    );

    // The same item again: nothing the index holds changes.
    db.put(&p).await.unwrap();
    assert_eq!(reported(&spy, "ByPassage").0, None);

    // An update of an attribute the index holds rewrites the entry; of
    // one it does not hold, leaves it be.
    let retitle = || Passage::update("p1").set_title("renamed");
    let est = db.update(retitle()).explain().unwrap().cost.unwrap();
    assert_eq!(est.vectors[0].change, IndexChange::Rewrite);
    db.update(retitle()).await.unwrap();
    assert!(reported(&spy, "ByPassage").0.is_some_and(|b| b > 1600.0));
    let rebody = || Passage::update("p1").set_body("It was the best of times.");
    let est = db.update(rebody()).explain().unwrap().cost.unwrap();
    assert_eq!(est.vectors[0].change, IndexChange::Untouched);
    db.update(rebody()).await.unwrap();
    assert_eq!(reported(&spy, "ByPassage").0, None);

    // Removing the scope takes the item out of the index.
    let unscope = || Passage::update("p1").set_book(None);
    let est = db.update(unscope()).explain().unwrap().cost.unwrap();
    assert_eq!(est.vectors[0].change, IndexChange::Leave);
    db.update(unscope()).await.unwrap();
    assert!(reported(&spy, "ByPassage").0.is_some());

    // An item without a vector is in no vector index: no bytes either way.
    let bare = Passage {
        v: None,
        ..passage("p2", "moby", 0.5)
    };
    let est = db.put(&bare).explain().unwrap().cost.unwrap();
    assert_eq!(
        (est.vectors[0].change, est.vector_bytes()),
        (IndexChange::Untouched, 0.0)
    );
    db.put(&bare).await.unwrap();
    assert_eq!(reported(&spy, "ByPassage"), (None, est.table_units));
}

/// The request span adds up the vector bytes each call reports: a write's
/// (under `INDEXES`) and a search's.
#[tokio::test]
async fn the_request_span_records_vector_bytes() {
    let Some((_b, db)) = table().await else {
        return;
    };
    let db = db.with_capacity(ReturnConsumedCapacity::Indexes);
    let (cap, _guard) = capture::capture();
    let p = passage("p1", "moby", 0.37);
    let est = db.put(&p).explain().unwrap().cost.unwrap();
    db.put(&p).await.unwrap();
    let put = cap.of("PutItem").pop().expect("a span");
    assert_eq!(put.num("dynakey.vector_bytes"), Some(est.vector_bytes()));
    db.search(Passage::by_passage("moby").unwrap(), p.v.as_ref().unwrap())
        .top_k(1)
        .keys_only()
        .await
        .unwrap();
    let search = cap.of("SearchVectors").pop().expect("a span");
    assert!(search.num("dynakey.vector_bytes").is_some_and(|b| b > 0.0));
}

/// A change record of an item holding a vector decodes from every source
/// (the Streams API, its DynamoDB JSON, a Lambda event) into the entity,
/// and says how the item moved in the vector index.
#[tokio::test]
async fn change_records_hold_the_vector_and_the_index_moves() {
    let Some((b, _db)) = table().await else {
        return;
    };
    let db = b.db(format!("vs_{}", uuid::Uuid::new_v4().simple()));
    db.create_table_with(
        &[Ticket::META],
        TableOptions::default().stream(StreamView::NewAndOldImages),
    )
    .await
    .expect("a table with a stream");
    let mut cap = StreamCapture::new(&db, b.streams_client())
        .await
        .expect("the stream");
    let t = ticket("1", "acme", "open", 1, [0.1, -2.5, 1e-3]);
    db.put(&t).await.unwrap();
    let moved = Ticket {
        embedding: Some([0.5, 0.5, 0.0]),
        ..t.clone()
    };
    db.put(&moved).await.unwrap();
    db.update(Ticket::update("1").set_status("closed"))
        .await
        .unwrap();
    let bare = Ticket {
        embedding: None,
        status: "closed".into(),
        ..moved.clone()
    };
    db.put(&bare).await.unwrap();

    let captured = cap.next_batch().await.expect("the records");
    let event: Event =
        serde_json::from_value(captured.lambda_event_json(&cap.stream_arn)).expect("an event");
    let d = ChangeDecoder::<Ticket>::entity();
    let changes: Vec<Change<Ticket>> = (0..captured.records.len())
        .map(|i| {
            let mut api = d.decode_stream_record(&captured.records[i]).unwrap();
            let mut json = d.decode_json(&captured.json[i]).unwrap();
            let mut lambda = d.decode_lambda_record(&event.records[i]).unwrap();
            // Only the Lambda event names the table (its eventSourceARN).
            assert_eq!(lambda.table.as_deref(), Some(db.table_name()), "record {i}");
            for c in [&mut api, &mut json, &mut lambda] {
                c.created_at = None;
                c.table = None;
            }
            assert_eq!(api, json, "record {i}");
            assert_eq!(api, lambda, "record {i}");
            api
        })
        .collect();
    assert_eq!(changes.len(), 4);
    assert_eq!(changes[0].new_item(), Some(&t));
    assert!(changes[0].entered("BySimilar"));
    assert_eq!(changes[1].new_item(), Some(&moved));
    assert_eq!(changes[1].index("BySimilar"), Some(IndexTransition::Moved));
    // A filter attribute changed: the entry stays where it was.
    assert!(changes[2].changed("status"));
    assert_eq!(changes[2].index("BySimilar"), None);
    assert!(changes[3].left("BySimilar"));
    assert_eq!(changes[3].new_item(), Some(&bare));
    dynakey_examples::finish(&b, &[&db])
        .await
        .expect("drop the table");
}

/// A vector as other clients write it (exponents, integers, more digits
/// than an `f32` holds) decodes from a record in the shape AWS documents.
#[test]
fn a_vector_written_by_another_client_decodes_from_a_record() {
    let record = serde_json::json!({
        "eventName": "INSERT",
        "dynamodb": {
            "Keys": { "pk": { "S": "TICKET#9" } },
            "NewImage": {
                "pk": { "S": "TICKET#9" }, "_type": { "S": "TICKET" },
                "id": { "S": "9" }, "tenant": { "S": "acme" }, "status": { "S": "open" },
                "priority": { "N": "2" }, "title": { "S": "from boto3" },
                "embedding": { "L": [
                    { "N": "0.1000000000000000055511151231257827" }, { "N": "-25E-1" }, { "N": "3" }
                ] }
            },
            "SequenceNumber": "1", "StreamViewType": "NEW_AND_OLD_IMAGES"
        }
    });
    let c = ChangeDecoder::<Ticket>::entity()
        .decode_json(&record)
        .unwrap();
    let t = c.new_item().expect("the new image");
    assert_eq!(t.embedding, Some([0.1, -2.5, 3.0]));
    assert!(c.entered("BySimilar"));
}

/// An empty scope, which DynamoDB refuses in a write as it refuses an
/// empty key attribute, is refused before sending: by a put, a typed
/// update, a transaction and a batch; the error names the index and the
/// field.
/// (An absent scope is no error: the item is written and not searched.)
#[tokio::test]
async fn a_write_with_an_empty_scope_is_refused_before_sending() {
    let local = local::memory().unwrap();
    // No table: a request that were sent would fail as a missing table.
    let db = local.db("none");
    let names_the_scope = |r: Result<(), Error>| match r {
        Err(Error::KeyFormat(e)) => {
            assert_eq!((e.index, e.field), (Some("BySimilar"), "tenant"), "{e}");
            assert_eq!(e.reason, KeyFormatReason::Empty, "{e}");
        }
        other => panic!("{other:?}"),
    };
    let t = ticket("1", "", "open", 1, [1.0, 0.0, 0.0]);
    names_the_scope(db.put(&t).await.map(|_| ()));
    names_the_scope(db.transact_write().put(&t).await.map(|_| ()));
    names_the_scope(db.batch_write().put(&t).send().await.map(|_| ()));
    names_the_scope(
        db.update(Ticket::update("1").set_tenant(""))
            .await
            .map(|_| ()),
    );
    // DynamoDB refuses an empty scope even in an item without a vector
    // (the embedded engine's capture of it): so does the put.
    let bare = Ticket {
        embedding: None,
        ..t
    };
    names_the_scope(db.put(&bare).await.map(|_| ()));
}

/// A `Vec<f32>` vector of another length than its index's dimensions,
/// which DynamoDB refuses in a write, is refused before sending by a put,
/// a transaction, a batch and a typed update, naming the field and index.
#[tokio::test]
async fn a_vector_of_another_length_is_refused_before_sending() {
    let local = local::memory().unwrap();
    // No table: a request that were sent would fail as a missing table.
    let db = local.db("none");
    let refused = |r: Result<(), Error>| match r {
        Err(Error::Refused {
            reason: RefusedReason::VectorLength,
            message,
        }) => assert!(
            message.contains("`text_vector` holds 3 elements")
                && message.contains("`ByText` reads 2 numbers"),
            "{message}"
        ),
        other => panic!("{other:?}"),
    };
    let note = Note {
        id: "n1".into(),
        title: "t".into(),
        body: "b".into(),
        text_vector: vec![0.5, 0.5, 0.5],
    };
    refused(db.put(&note).await.map(|_| ()));
    refused(db.transact_write().put(&note).await.map(|_| ()));
    refused(db.batch_write().put(&note).send().await.map(|_| ()));
    let update = Note::update("n1").set_text_vector(vec![1.0, 2.0, 3.0]);
    refused(db.update(update).await.map(|_| ()));
}

/// Refusals before anything is sent: no backend involved.
#[tokio::test]
async fn a_search_dynamodb_would_refuse_is_refused_before_sending() {
    let local = local::memory().unwrap();
    // No table: a request that were sent would fail as a missing table.
    let db = local.db("none");
    let reason = |r: Result<_, Error>| match r {
        Err(Error::VectorSearch(e)) => {
            assert_eq!((e.entity, e.index), ("Ticket", "BySimilar"));
            e.reason
        }
        other => panic!("{other:?}"),
    };
    let scope = || Ticket::by_similar("acme").unwrap();
    for k in [0, 101] {
        let r = db.search(scope(), &[1.0, 0.0, 0.0]).top_k(k).await;
        assert_eq!(reason(r), VectorSearchReason::TopK { value: k });
    }
    let r = db.search(scope(), &[1.0, f32::NAN, 0.0]).await;
    assert!(matches!(
        reason(r),
        VectorSearchReason::NotFinite { position: 1, .. }
    ));
    let r = db
        .search(scope(), &[1.0, 0.0, 0.0])
        .filter(|f| f.status.eq("open").and(f.status.eq("closed")))
        .await;
    assert_eq!(
        reason(r),
        VectorSearchReason::FilterTwice { attr: "status" }
    );
    // A `Vec<f32>` field: its length is checked at run time.
    match db
        .search(Note::by_text(), &vec![1.0, 2.0, 3.0])
        .keys_only()
        .await
    {
        Err(Error::VectorSearch(e)) => assert_eq!(
            e.reason,
            VectorSearchReason::Dimensions {
                expected: 2,
                found: 3
            }
        ),
        other => panic!("{other:?}"),
    }
    // A scope value DynamoDB refuses in a key (an empty string).
    let e = Ticket::by_similar("").unwrap_err();
    assert_eq!((e.field, e.index), ("tenant", Some("BySimilar")));
}

/// An article whose vector attribute is the tickets' with other dimensions.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("ArticlesLike", vector = embedding, dimensions = 2, distance = "COSINE")]
pub struct Article {
    pub id: String,
    pub embedding: [f32; 2],
}

#[tokio::test]
async fn create_table_refuses_what_dynamodb_would_before_sending() {
    use dynakey::table::{create_table_with, Billing, TableOptions};
    let local = local::memory().unwrap();
    let refused = |r: Result<(), Error>| match r {
        Err(Error::Refused { message, reason }) => {
            assert_eq!(reason, dynakey::RefusedReason::TableDefinition, "{message}");
            message
        }
        other => panic!("{other:?}"),
    };
    let provisioned = TableOptions::default().billing(Billing::Provisioned { read: 1, write: 1 });
    let m = refused(create_table_with(local.client(), "p", &[Ticket::META], &provisioned).await);
    assert!(
        m.contains("BySimilar") && m.contains("PAY_PER_REQUEST"),
        "{m}"
    );
    let m = refused(
        create_table_with(
            local.client(),
            "d",
            &[Ticket::META, Article::META],
            &TableOptions::default(),
        )
        .await,
    );
    assert!(
        m.contains("`embedding` with 3 and 2 dimensions")
            || m.contains("`embedding` with 2 and 3 dimensions"),
        "{m}"
    );
    // Nothing was created.
    let tables = local.client().list_tables().send().await.unwrap();
    assert!(tables.table_names().is_empty());
}

#[test]
fn the_metadata_describes_the_index() {
    let v = Ticket::META.vector("BySimilar").unwrap();
    assert_eq!(
        (v.vector_attr, v.dimensions, v.distance),
        ("embedding", 3, Distance::Cosine)
    );
    let schema: Vec<_> = v
        .schema_attrs()
        .map(|(a, t, h)| (a, t.as_str(), h))
        .collect();
    assert_eq!(
        schema,
        [
            ("tenant", "S", true),
            ("status", "S", false),
            ("priority", "N", false)
        ]
    );
    let n = Note::META.vector("ByText").unwrap();
    assert!(n.scope().is_none());
    assert!(!n.projection.holds_all());
}

#[tokio::test]
async fn a_throttled_search_is_a_typed_throttle_with_its_reason() {
    // The injector answers in the backend's place, so this holds on every
    // backend, one without SearchVectors included; the default throttle
    // (no `.on(..)`) reaches searches as it reaches every data operation.
    let local = local::from_env().expect("backend");
    let table = format!("searched_{}", uuid::Uuid::new_v4().simple());
    let arn = resource_arn(&table, Some("BySimilar"));
    let reason = ThrottleReason::parse("IndexReadProvisionedThroughputExceeded");
    let inj = FaultInjector::new(FaultConfig {
        throttle_rate: 1.0,
        ..FaultConfig::default()
    })
    .throttle_with(ThrottleFault::new(reason.clone(), &arn));
    let conf = local
        .config_builder()
        .http_client(inj.wrap(local.http_client()))
        .retry_config(RetryConfig::disabled())
        .build();
    let db = Db::new(aws_sdk_dynamodb::Client::from_conf(conf), &table);
    let err = db
        .search(Ticket::by_similar("acme").unwrap(), &[1.0, 0.0, 0.0])
        .await
        .unwrap_err();
    let Error::Throttled {
        operation, reasons, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(*operation, "SearchVectors");
    assert_eq!(reasons, &[Throttle::new(&reason.to_string(), Some(&arn))]);
    assert_eq!(inj.stats().throttled, 1);
}
