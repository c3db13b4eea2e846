// Raw identifiers and short type names: a field `r#type` is `<type>` in a
// template, stored as `type`, set with `set_type`, handled as
// `attrs().r#type`; entities named like the generated code's own generic
// parameters (`M`, `S0`, `K`, `T`) and a field named like a module (`time`)
// work.
use dynakey::{DynamoEntity, DynamoTable, DynamoValue, Entity, TypedUpdate};

#[derive(DynamoValue, Clone, Copy, Debug, PartialEq)]
enum Kind {
    Bug,
    Idea,
}

#[derive(DynamoEntity, Debug, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<ref>")]
#[gsi("GSI1", pk = "TYPE#<type>", sk = "<match>#<loop:d4>")]
struct M {
    r#ref: String,
    r#type: Kind,
    r#match: String,
    r#loop: u32,
    r#async: Option<String>,
    time: time::Date,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "S0")]
#[pk("S0#<id>")]
#[sk("<at>#<n:d4>")]
#[gsi("GSI1", pk = "K#<k>", sk = "<status>#<n:d4>")]
struct S0 {
    id: String,
    at: String,
    n: u16,
    k: String,
    status: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "K")]
#[pk("K#<id>")]
struct K {
    id: String,
    t: Option<T>,
}

#[derive(DynamoValue, Clone, Copy)]
enum T {
    A,
}

#[derive(DynamoTable)]
#[dynamo(entities(M, K))]
struct Tables;

fn main() {
    let m = M {
        r#ref: "r1".into(),
        r#type: Kind::Bug,
        r#match: "m".into(),
        r#loop: 3,
        r#async: None,
        time: time::macros::date!(2024 - 01 - 02),
    };
    let item = m.to_item().unwrap();
    assert!(item.contains_key("type") && item.contains_key("match") && item.contains_key("loop"));
    assert_eq!(M::from_item(&item).unwrap(), m);
    assert_eq!(M::attrs().r#type.name(), "type");
    let _ = M::gsi1_sk().r#match("m").lt(4u32).unwrap();
    let _ = M::gsi1_sk().r#match("m").r#loop(4u32).eq().unwrap();
    let _ = M::gsi1_sk().match_starts_with("m");
    let (t,) = M::parse_gsi1_pk("TYPE#Bug").unwrap();
    assert_eq!(t, Kind::Bug);
    let parts = M::update("r1")
        .set_type(Kind::Idea)
        .set_match("x")
        .set_loop(4u32)
        .set_async("now")
        .into_parts()
        .unwrap();
    assert!(parts.condition.is_some());
    let _ = S0::update("s", "a", 1u16).set_k("k").set_status("open").into_parts();
    let _ = K::update("k").set_t(T::A).remove_t();
    assert_eq!(Tables::ENTITIES.len(), 2);
}
