//! Vector indexes on a live table: `verify_table` names each difference
//! (missing, other dimensions, another distance, another search schema,
//! extra), and `sync_table` adds and removes one, waiting through the
//! creation lifecycle (on the embedded engine with a manual clock, so the
//! test moves time instead of waiting the engine's half minute).

use dynakey::local::{self, memory_with_clock, ManualClock};
use dynakey::table::verify::{Difference, Remedy, VectorAspect};
use dynakey::table::TableOptions;
use dynakey::{DynamoEntity, Entity};

/// The article without a vector index (what the table was made for).
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
pub struct Plain {
    pub id: String,
    pub shelf: String,
    pub embedding: Option<[f32; 2]>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("Like", vector = embedding, dimensions = 2, distance = "COSINE", scope(shelf))]
pub struct Article {
    pub id: String,
    pub shelf: String,
    pub embedding: Option<[f32; 2]>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("Like", vector = embedding, dimensions = 3, distance = "COSINE", scope(shelf))]
pub struct OtherDimensions {
    pub id: String,
    pub shelf: String,
    pub embedding: Option<[f32; 3]>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("Like", vector = embedding, dimensions = 2, distance = "DOT_PRODUCT", scope(shelf))]
pub struct OtherDistance {
    pub id: String,
    pub shelf: String,
    pub embedding: Option<[f32; 2]>,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ARTICLE")]
#[pk("ARTICLE#<id>")]
#[vector_index("Like", vector = embedding, dimensions = 2, distance = "COSINE", filter(shelf))]
pub struct OtherSchema {
    pub id: String,
    pub shelf: String,
    pub embedding: Option<[f32; 2]>,
}

/// The vector differences of the table made for `made` checked against `code`.
async fn differences(made: &dynakey::EntityMeta, code: &dynakey::EntityMeta) -> Vec<Difference> {
    let backend = local::memory().unwrap();
    let db = backend.db("articles");
    db.create_table(&[made]).await.unwrap();
    db.verify_table(&[code]).await.unwrap().differences
}

#[tokio::test]
async fn verify_table_names_each_vector_difference() {
    assert!(differences(Article::META, Article::META).await.is_empty());
    let d = differences(Plain::META, Article::META).await;
    assert_eq!(
        d,
        [Difference::MissingVectorIndex {
            index: "Like".into()
        }]
    );
    assert_eq!(d[0].remedy(), Remedy::SyncTable);
    let d = differences(Article::META, Plain::META).await;
    assert_eq!(
        d,
        [Difference::ExtraVectorIndex {
            index: "Like".into()
        }]
    );
    assert!(!d[0].breaks_code());
    // sync_table removes it.
    assert_eq!(d[0].remedy(), Remedy::SyncTable);
    assert!(d[0].fixed_by_sync_table());
    let aspect = |d: &[Difference]| match d {
        [Difference::VectorIndex {
            aspect,
            expected,
            found,
            ..
        }] => (*aspect, expected.clone(), found.clone()),
        other => panic!("{other:?}"),
    };
    let d = differences(Article::META, OtherDimensions::META).await;
    assert_eq!(
        aspect(&d),
        (VectorAspect::Dimensions, "3".into(), "2".into())
    );
    assert_eq!(d[0].remedy(), Remedy::RecreateIndex);
    let d = differences(Article::META, OtherDistance::META).await;
    assert_eq!(
        aspect(&d),
        (
            VectorAspect::Distance,
            "DOT_PRODUCT".into(),
            "COSINE".into()
        )
    );
    let d = differences(Article::META, OtherSchema::META).await;
    assert_eq!(
        aspect(&d),
        (
            VectorAspect::SearchSchema,
            "shelf INLINE_FILTER".into(),
            "shelf HASH".into()
        )
    );
    assert!(d[0]
        .to_string()
        .contains("vector index Like has search schema shelf HASH"));
}

#[tokio::test]
async fn sync_table_adds_and_removes_a_vector_index_through_its_lifecycle() {
    let clock = ManualClock::new(1_700_000_000);
    let backend = memory_with_clock(&clock).unwrap();
    let db = backend.db("articles");
    db.create_table(&[Plain::META]).await.unwrap();
    let before = Plain {
        id: "a1".into(),
        shelf: "rust".into(),
        embedding: Some([1.0, 0.0]),
    };
    db.put(&before).await.unwrap();
    // The engine's lifecycle reads the manual clock: move it on while
    // sync_table waits.
    let ticking = dynakey_tests::fixture::keep_ticking(&clock);
    let added = db.sync_table(&[Article::META]).await.unwrap();
    assert_eq!(added, ["Like"]);
    assert!(db.verify_table(&[Article::META]).await.unwrap().matches());
    // Searchable once sync_table returns, the item stored before backfilled.
    let hits = db
        .search(Article::like("rust").unwrap(), &[1.0, 0.0])
        .top_k(3)
        .await
        .unwrap();
    assert!(hits.iter().any(|h| h.item.id == "a1"));
    // Removed when no entity declares it.
    assert!(db.sync_table(&[Plain::META]).await.unwrap().is_empty());
    assert!(db.verify_table(&[Plain::META]).await.unwrap().matches());
    // sync_table_with names what it added and removed, and calls nothing
    // it did "not applied".
    let options = TableOptions::default();
    let report = db
        .sync_table_with(&[Article::META], &options)
        .await
        .unwrap();
    assert_eq!(report.indexes_added, ["Like"]);
    assert!(report.not_applied.is_empty(), "{report:?}");
    let report = db.sync_table_with(&[Plain::META], &options).await.unwrap();
    assert_eq!(report.indexes_removed, ["Like"]);
    assert!(report.indexes_added.is_empty());
    assert!(report.not_applied.is_empty(), "{report:?}");
    assert!(db
        .verify_table_with(&[Plain::META], &options)
        .await
        .unwrap()
        .matches());
    ticking.abort();
}
