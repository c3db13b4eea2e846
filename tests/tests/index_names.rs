//! An index's functions are named by one rule, template and native
//! indexes alike: the index name in snake case (`ByStatus` →
//! `by_status_pk`, `GSI1` → `gsi1_pk`). A template index's default key
//! attributes keep their lower-case stem (`bystatuspk`), so stored
//! attribute names do not change with the rule. On every backend.

use dynakey::entity::IndexKey;
use dynakey::{DynamoEntity, Entity};
use uuid::Uuid;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("TENANT#<tenant>")]
#[sk("TICKET#<id:d6>")]
#[gsi("ByStatus", pk = "STATUS#<status>", sk = "<id:d6>")]
#[gsi("GSI2", pk = "OWNER#<owner>")]
#[gsi("ByRegion", pk(region), sk(id))]
#[lsi("ByTitle", sk = "TITLE#<title>")]
struct Ticket {
    tenant: String,
    id: u32,
    status: String,
    owner: String,
    region: String,
    title: String,
}

fn template_attrs(index: &str) -> (&'static str, Option<&'static str>) {
    match &Ticket::META.index(index).unwrap().key {
        IndexKey::Template { pk, sk } => (pk.attr, sk.as_ref().map(|k| k.attr)),
        IndexKey::Native(_) => panic!("{index} is a template index"),
    }
}

#[tokio::test]
async fn index_functions_are_snake_case_and_attribute_names_stay() {
    assert_eq!(
        template_attrs("ByStatus"),
        ("bystatuspk", Some("bystatussk"))
    );
    assert_eq!(template_attrs("GSI2"), ("gsi2pk", None));
    assert_eq!(template_attrs("ByTitle").1, Some("bytitlesk"));
    assert_eq!(
        Ticket::parse_by_status_pk("STATUS#open").unwrap(),
        ("open".to_owned(),)
    );
    assert_eq!(Ticket::parse_by_status_sk("000007").unwrap(), (7,));

    let local = dynakey::local::from_env().unwrap();
    let db = local.db(format!("names_{}", Uuid::new_v4().simple()));
    db.create_table(&[Ticket::META]).await.unwrap();
    for id in 1..=5u32 {
        db.put(&Ticket {
            tenant: "acme".into(),
            id,
            status: if id % 2 == 0 { "open" } else { "closed" }.into(),
            owner: "ann".into(),
            region: "eu".into(),
            title: format!("t{id}"),
        })
        .await
        .unwrap();
    }
    let open = db
        .query(Ticket::by_status_pk("open").unwrap())
        .sk(Ticket::by_status_sk().gt(2u32).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(open.iter().map(|t| t.id).collect::<Vec<_>>(), vec![4]);
    let owned = db
        .query(Ticket::gsi2_pk("ann").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(owned.len(), 5);
    let native = db
        .query(Ticket::by_region_pk("eu").unwrap())
        .sk(Ticket::by_region_sk().le(3u32).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(
        native.iter().map(|t| t.id).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let titled = db
        .query(Ticket::by_title_pk("acme").unwrap())
        .sk(Ticket::by_title_sk().title_starts_with("t").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(titled.len(), 5);
}
