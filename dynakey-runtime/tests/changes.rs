//! The change decoder on records built from real entities' items: what
//! `changed` and the index moves say across types, number forms and set
//! orders; unknown images on either side; a local index; and random pairs
//! of items, where `changed` must name exactly the fields whose values
//! differ and the index moves must follow the sparse inputs.

use aws_sdk_dynamodb::types::AttributeValue as AV;
use dynakey_derive::{DynamoEntity, DynamoUnion};
use dynakey_runtime::changes::{
    ChangeDecoder, ChangeError, ChangeKind, ChangeRecord, IndexChange, IndexTransition, Operation,
};
use dynakey_runtime::{Entity, Item};
use proptest::prelude::*;
use std::collections::BTreeSet;

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(crate = "dynakey_runtime", entity = "DOC")]
#[pk("DOC#<id>")]
#[sk("V")]
#[gsi("GSI1", pk = "TAG#<tag>", sk = "<rank:d4>", sparse)]
#[lsi("LSI1", sk = "<title>")]
struct Doc {
    id: String,
    title: String,
    tag: Option<String>,
    rank: u32,
    labels: BTreeSet<String>,
}

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(crate = "dynakey_runtime", entity = "MEMO")]
#[pk("DOC#<id>")]
#[sk("V")]
struct Memo {
    id: String,
    text: String,
}

#[derive(DynamoUnion, Debug, Clone, PartialEq)]
#[dynamo(crate = "dynakey_runtime")]
enum Any {
    Doc(Doc),
    Memo(Memo),
}

fn doc(id: &str) -> Doc {
    Doc {
        id: id.into(),
        title: "t".into(),
        tag: None,
        rank: 1,
        labels: ["a", "b"].into_iter().map(String::from).collect(),
    }
}

fn modify(old: &Item, new: &Item) -> ChangeRecord {
    let keys: Item = ["pk", "sk"]
        .into_iter()
        .map(|k| (k.to_owned(), new[k].clone()))
        .collect();
    ChangeRecord::new(Operation::Modify, keys)
        .with_old(old.clone())
        .with_new(new.clone())
}

fn moved(index: &'static str, transition: IndexTransition) -> IndexChange {
    IndexChange { index, transition }
}

#[test]
fn a_key_replaced_by_another_type_lists_both_types_fields() {
    let d = doc("1");
    let m = Memo {
        id: "1".into(),
        text: "x".into(),
    };
    let r = modify(&d.to_item().unwrap(), &m.to_item().unwrap());
    let c = ChangeDecoder::<Any>::union().decode(&r).unwrap();
    let ChangeKind::Modified { old, new, changed } = &c.kind else {
        panic!("{c:?}")
    };
    assert_eq!((old, new), (&Any::Doc(d), &Any::Memo(m)));
    // `id` is equal in both; every other field of either type differs.
    assert_eq!(changed, &["title", "rank", "labels", "text"]);
    assert_eq!(c.indexes, [moved("LSI1", IndexTransition::Left)]);
}

#[test]
fn number_forms_and_set_order_are_not_changes() {
    let d = doc("1");
    let old = d.to_item().unwrap();
    let mut new = old.clone();
    new.insert("rank".into(), AV::N("1.0".into()));
    new.insert("labels".into(), AV::Ss(vec!["b".into(), "a".into()]));
    let c = ChangeDecoder::<Doc>::entity()
        .decode(&modify(&old, &new))
        .unwrap();
    assert_eq!(
        c.kind,
        ChangeKind::Modified {
            old: d.clone(),
            new: d,
            changed: vec![]
        }
    );
    assert!(c.indexes.is_empty());
}

#[test]
fn an_unknown_image_on_either_side_makes_the_change_unknown() {
    let d = doc("1").to_item().unwrap();
    let mut stray = d.clone();
    stray.insert("_type".into(), AV::S("GONE".into()));
    for (old, new) in [(&d, &stray), (&stray, &d)] {
        let c = ChangeDecoder::<Doc>::entity()
            .decode(&modify(old, new))
            .unwrap();
        assert!(
            matches!(&c.kind, ChangeKind::Unknown { op: Operation::Modify, discriminator, .. } if discriminator == "GONE"),
            "{c:?}"
        );
        let e = ChangeDecoder::<Doc>::entity()
            .strict()
            .decode(&modify(old, new))
            .unwrap_err();
        assert_eq!(
            e,
            ChangeError::UnknownDiscriminator {
                value: "GONE".into(),
                keys: "pk=DOC#1, sk=V".into()
            }
        );
    }
}

#[test]
fn a_known_type_that_does_not_decode_names_the_image_and_path() {
    let d = doc("1").to_item().unwrap();
    let mut bad = d.clone();
    bad.insert("rank".into(), AV::S("high".into()));
    let e = ChangeDecoder::<Doc>::entity()
        .decode(&modify(&d, &bad))
        .unwrap_err();
    assert!(
        matches!(&e, ChangeError::Decode { image: dynakey_runtime::changes::Image::New, source } if source.path == "rank"),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with("the new image does not decode"),
        "{e}"
    );
}

fn arb_doc() -> impl Strategy<Value = Doc> {
    (
        "[ab]{1,2}",
        prop::option::of("[xy]"),
        0u32..3,
        prop::collection::btree_set("[pq]", 0..3),
    )
        .prop_map(|(title, tag, rank, labels)| Doc {
            id: "1".into(),
            title,
            tag,
            rank,
            labels,
        })
}

proptest! {
    /// `changed` names exactly the fields whose values differ, and GSI1
    /// (sparse on `tag`) moves exactly as the tags and ranks say.
    #[test]
    fn changed_and_index_moves_follow_the_values(a in arb_doc(), b in arb_doc()) {
        let c = ChangeDecoder::<Doc>::entity()
            .decode(&modify(&a.to_item().unwrap(), &b.to_item().unwrap()))
            .unwrap();
        let mut want = Vec::new();
        if a.title != b.title { want.push("title"); }
        if a.tag != b.tag { want.push("tag"); }
        if a.rank != b.rank { want.push("rank"); }
        if a.labels != b.labels { want.push("labels"); }
        let ChangeKind::Modified { changed, .. } = &c.kind else { panic!("{c:?}") };
        prop_assert_eq!(changed, &want);
        let gsi = match (&a.tag, &b.tag) {
            (None, Some(_)) => Some(IndexTransition::Entered),
            (Some(_), None) => Some(IndexTransition::Left),
            (Some(x), Some(y)) if x != y || a.rank != b.rank => Some(IndexTransition::Moved),
            _ => None,
        };
        prop_assert_eq!(c.index("GSI1"), gsi);
        let lsi = (a.title != b.title).then_some(IndexTransition::Moved);
        prop_assert_eq!(c.index("LSI1"), lsi);
    }
}
