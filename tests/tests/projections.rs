//! Index projections on every backend: what `KEYS_ONLY` and `INCLUDE(..)`
//! indexes hold (created so by `create_table`), reading their keys, and
//! `hydrate()`, which reads the whole items behind them in index order and
//! reports the keys whose item is gone.

use std::collections::BTreeSet;

use aws_sdk_dynamodb::types::{AttributeValue, ProjectionType};
use dynakey::entity::IndexProjection;
use dynakey::local;
use dynakey::{DynamoEntity, Entity};
use uuid::Uuid;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TASK")]
#[pk("TASK#<id>")]
#[sk("TASK")]
#[gsi(
    "GSI1",
    pk = "OWNER#<owner>",
    sk = "TASK#<id>",
    projection = "KEYS_ONLY"
)]
#[gsi(
    "GSI2",
    pk = "STATUS#<status>",
    sk = "OPEN#<id>",
    projection = "INCLUDE(title)"
)]
#[gsi("GSI3", pk = "ALL#<owner>", sk = "ANY#<id>")]
pub struct Task {
    pub id: String,
    pub owner: String,
    pub status: String,
    pub title: String,
    pub body: String,
}

fn task(id: &str, status: &str) -> Task {
    Task {
        id: id.into(),
        owner: "ann".into(),
        status: status.into(),
        title: format!("title {id}"),
        body: format!("body {id}"),
    }
}

async fn setup() -> (local::Backend, dynakey::Db) {
    let backend = local::from_env().expect("backend");
    let db = backend.db(format!("p_{}", Uuid::new_v4().simple()));
    db.create_table(&[Task::META]).await.expect("create table");
    for (id, status) in [("c", "open"), ("a", "open"), ("b", "done"), ("d", "open")] {
        db.put(&task(id, status)).await.unwrap();
    }
    (backend, db)
}

/// The attribute names of the items a raw query of `index` returns.
async fn index_attrs(db: &dynakey::Db, index: &str, attr: &str, pk: &str) -> BTreeSet<String> {
    let out = db
        .client()
        .query()
        .table_name(db.table_name())
        .index_name(index)
        .key_condition_expression("#k = :v")
        .expression_attribute_names("#k", attr)
        .expression_attribute_values(":v", AttributeValue::S(pk.into()))
        .send()
        .await
        .unwrap();
    assert!(!out.items().is_empty());
    out.items().iter().flat_map(|i| i.keys().cloned()).collect()
}

#[tokio::test]
async fn create_table_honours_each_projection() {
    let (_b, db) = setup().await;
    assert_eq!(
        Task::META.index("GSI1").unwrap().projection,
        IndexProjection::KeysOnly
    );
    let t = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await
        .unwrap();
    let mut seen = Vec::new();
    for g in t.table().unwrap().global_secondary_indexes() {
        let p = g.projection().unwrap();
        let mut extra: Vec<&str> = p.non_key_attributes().iter().map(String::as_str).collect();
        extra.sort();
        seen.push((
            g.index_name().unwrap().to_owned(),
            p.projection_type().cloned(),
            extra,
        ));
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            ("GSI1".into(), Some(ProjectionType::Include), vec!["_type"]),
            (
                "GSI2".into(),
                Some(ProjectionType::Include),
                vec!["_type", "title"]
            ),
            ("GSI3".into(), Some(ProjectionType::All), vec![]),
        ]
    );
    // What each index returns.
    let keys: BTreeSet<String> = ["pk", "sk", "gsi1pk", "gsi1sk", "_type"]
        .map(String::from)
        .into();
    assert_eq!(index_attrs(&db, "GSI1", "gsi1pk", "OWNER#ann").await, keys);
    let with_title: BTreeSet<String> = ["pk", "sk", "gsi2pk", "gsi2sk", "_type", "title"]
        .map(String::from)
        .into();
    assert_eq!(
        index_attrs(&db, "GSI2", "gsi2pk", "STATUS#open").await,
        with_title
    );
    assert!(index_attrs(&db, "GSI3", "gsi3pk", "ALL#ann")
        .await
        .contains("body"));
}

#[tokio::test]
async fn keys_and_hydration_keep_index_order() {
    let (_b, db) = setup().await;
    let keys = db
        .query(Task::gsi1_pk("ann").unwrap())
        .keys_only()
        .all()
        .await
        .unwrap();
    let ids: Vec<&str> = keys.iter().map(|k| k.pk()).collect();
    assert_eq!(ids, ["TASK#a", "TASK#b", "TASK#c", "TASK#d"]);
    let h = db
        .query(Task::gsi1_pk("ann").unwrap())
        .descending()
        .hydrate()
        .await
        .unwrap();
    let ids: Vec<&str> = h.items.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["d", "c", "b", "a"]);
    assert_eq!(h.items[0], task("d", "open"));
    let open = db
        .query(Task::gsi2_pk("open").unwrap())
        .hydrate()
        .await
        .unwrap();
    assert_eq!(open.items.len(), 3);
    assert!(open.missing.is_empty());
    // A key whose item is gone (deleted after the index read) is reported,
    // the others keep their order.
    db.delete(Task::key("b").unwrap()).await.unwrap();
    let h = db.hydrate(keys).await.unwrap();
    let ids: Vec<&str> = h.items.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["a", "c", "d"]);
    assert_eq!(h.missing, [Task::key("b").unwrap()]);
    // The ALL index reads the entity directly.
    assert_eq!(
        db.query(Task::gsi3_pk("ann").unwrap())
            .all()
            .await
            .unwrap()
            .len(),
        3
    );
}

/// Some fields of a task: read with a `ProjectionExpression`.
#[derive(dynakey::DynamoProjection, Debug, Clone, PartialEq)]
#[dynamo(of = Task)]
pub struct TaskTitle {
    pub id: String,
    pub title: String,
    /// An `Option` of the entity's type: absent where the index lacks it.
    pub body: Option<String>,
}

#[tokio::test]
async fn typed_projections_read_only_their_fields() {
    let (_b, db) = setup().await;
    use dynakey::query::Projection;
    assert_eq!(TaskTitle::attrs(), ["id", "title", "body"]);
    // Through an index of whole items, and through the table.
    let got = db
        .query(Task::gsi3_pk("ann").unwrap())
        .project::<TaskTitle>()
        .all()
        .await
        .unwrap();
    let ids: Vec<&str> = got.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "d"]);
    assert_eq!(
        got[0],
        TaskTitle {
            id: "a".into(),
            title: "title a".into(),
            body: Some("body a".into())
        }
    );
    let one = db
        .query(Task::pk("c").unwrap())
        .project::<TaskTitle>()
        .all()
        .await
        .unwrap();
    assert_eq!(one[0].title, "title c");
    // Through an INCLUDE(title) index: `title` is there, `body` is not, so
    // it reads as None.
    let open = db
        .query(Task::gsi2_pk("open").unwrap())
        .project::<OpenTitle>()
        .all()
        .await
        .unwrap();
    let titles: Vec<&str> = open.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["title a", "title c", "title d"]);
    assert!(open.iter().all(|t| t.body.is_none()));
    // A get of some fields; a missing item is None.
    let t = db
        .get(Task::key("b").unwrap())
        .consistent()
        .project::<OpenTitle>()
        .await
        .unwrap();
    assert_eq!(
        t,
        Some(OpenTitle {
            title: "title b".into(),
            body: Some("body b".into())
        })
    );
    let none = db.get(Task::key("zz").unwrap()).project::<OpenTitle>();
    assert_eq!(none.await.unwrap(), None);
}

/// What a `projection = "INCLUDE(title)"` index holds of a task, beside keys.
#[derive(dynakey::DynamoProjection, Debug, Clone, PartialEq)]
#[dynamo(of = Task)]
pub struct OpenTitle {
    pub title: String,
    pub body: Option<String>,
}
