//! Vector indexes and the typed search, on the embedded engine (and on the
//! server `DYNAKEY_ENDPOINT` names, when it serves `SearchVectors`; one that
//! does not, such as moto, is probed once per test and the test says why it
//! skips).
//!
//! Only what holds on DynamoDB as well is asserted (its search is
//! approximate, the engine's exact; see dynoxide's compatibility summary):
//! never the exact list of results, nor the order of equal scores.

use dynakey::local::{self, Backend};
use dynakey::vector::{Distance, VectorSearchReason};
use dynakey::{Db, DynamoEntity, DynamoProjection, Entity, Error};

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
    db.create_table(&[Ticket::META, Note::META])
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
