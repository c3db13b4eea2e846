//! The native-keyed entity of the model test (`Shipment`): its values and
//! changes, and the check of its native indexes against the model — each
//! holds exactly the items that have every key attribute (`ByCourier` is
//! sparse by absence), and a typed query of each partition reads them in
//! the index's value order: dates and instants by time, integers and
//! decimals by value (negative ones included), bytes bytewise.

use std::collections::{BTreeMap, BTreeSet};

use dynakey::{Blob, Db};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::entities::{Kind, Shipment};
use super::ops::{day, instant, kind, nasty, opt, KeyText, Target, Value};

/// One typed change of a shipment: a native key attribute set alone (the
/// index key is DynamoDB's to rebuild), the sparse input set or removed,
/// or several at once.
#[derive(Debug, Clone, PartialEq)]
pub enum ShipChange {
    Lane(String),
    Kind(Kind),
    Day(Date),
    Delta(i64),
    At(OffsetDateTime),
    Tag(Vec<u8>),
    Courier(Option<Uuid>),
    Uncourier,
    Cost(Decimal),
    Mixed(String, i64, Option<Uuid>, Option<String>),
}

impl ShipChange {
    pub fn apply(&self, x: &mut Shipment) {
        match self {
            ShipChange::Lane(s) => x.lane = s.clone(),
            ShipChange::Kind(k) => x.kind = *k,
            ShipChange::Day(d) => x.day = *d,
            ShipChange::Delta(n) => x.delta = *n,
            ShipChange::At(t) => x.at = *t,
            ShipChange::Tag(b) => x.tag = Blob::new(b.clone()),
            ShipChange::Courier(c) => x.courier = *c,
            ShipChange::Uncourier => x.courier = None,
            ShipChange::Cost(c) => x.cost = *c,
            ShipChange::Mixed(l, d, c, n) => {
                (x.lane, x.delta, x.courier, x.note) = (l.clone(), *d, *c, n.clone())
            }
        }
    }
}

pub fn blank(id: String) -> Shipment {
    Shipment {
        id,
        lane: "l".into(),
        kind: Kind::New,
        day: date!(2024 - 01 - 01),
        delta: 0,
        at: datetime!(2024-01-01 0:00 UTC),
        tag: Blob::new(vec![1]),
        courier: None,
        cost: Decimal::ZERO,
        note: None,
    }
}

pub fn target() -> impl Strategy<Value = Target> {
    prop::sample::select(&["s1", "s 2", "s#3"][..]).prop_map(|i| Target::Shipment(i.into()))
}

fn delta() -> impl Strategy<Value = i64> {
    prop::sample::select(&[i64::MIN, -1000, -10, -2, -1, 0, 1, 2, 10, i64::MAX][..])
}

fn tag() -> impl Strategy<Value = Vec<u8>> {
    const TAGS: [&[u8]; 7] = [&[], &[0], &[0, 0], &[1], &[0x7f], &[0x80], &[0xff, 0]];
    prop::sample::select(&TAGS[..]).prop_map(<[u8]>::to_vec)
}

fn courier() -> impl Strategy<Value = Uuid> {
    const COURIERS: [Uuid; 2] = [Uuid::from_u128(1), Uuid::max()];
    prop::sample::select(&COURIERS[..])
}

fn cost() -> impl Strategy<Value = Decimal> {
    (-20_000i64..20_000, 0u32..4).prop_map(|(m, scale)| Decimal::new(m, scale))
}

/// Lanes: a few plain ones (so partitions hold several items) and the
/// nasty strings, the empty one included (refused).
fn lane() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&["north", "south"][..]).prop_map(str::to_owned),
        1 => nasty(),
    ]
}

pub fn change() -> impl Strategy<Value = ShipChange> {
    prop_oneof![
        lane().prop_map(ShipChange::Lane),
        kind().prop_map(ShipChange::Kind),
        day().prop_map(ShipChange::Day),
        delta().prop_map(ShipChange::Delta),
        instant().prop_map(ShipChange::At),
        tag().prop_map(ShipChange::Tag),
        opt(courier()).prop_map(ShipChange::Courier),
        Just(ShipChange::Uncourier),
        cost().prop_map(ShipChange::Cost),
        (lane(), delta(), opt(courier()), opt(nasty()))
            .prop_map(|(l, d, c, n)| ShipChange::Mixed(l, d, c, n)),
    ]
}

/// A whole value with random required fields and no optional ones.
pub fn value(id: String) -> impl Strategy<Value = Shipment> {
    (lane(), kind(), day(), delta(), instant(), tag(), cost()).prop_map(
        move |(lane, kind, day, delta, at, tag, cost)| Shipment {
            id: id.clone(),
            lane,
            kind,
            day,
            delta,
            at,
            tag: Blob::new(tag),
            courier: None,
            cost,
            note: None,
        },
    )
}

/// `f` with the typed update of `c` at shipment `id`.
macro_rules! with_ship_update {
    ($id:expr, $c:expr, |$u:ident| $body:expr) => {{
        use $crate::native::ShipChange as C;
        let up = || $crate::entities::Shipment::update($id);
        match $c {
            C::Lane(s) => {
                let $u = up().set_lane(s.clone());
                $body
            }
            C::Kind(k) => {
                let $u = up().set_kind(*k);
                $body
            }
            C::Day(d) => {
                let $u = up().set_day(*d);
                $body
            }
            C::Delta(n) => {
                let $u = up().set_delta(*n);
                $body
            }
            C::At(t) => {
                let $u = up().set_at(*t);
                $body
            }
            C::Tag(b) => {
                let $u = up().set_tag(dynakey::Blob::new(b.clone()));
                $body
            }
            C::Courier(c) => {
                let $u = up().set_courier(*c);
                $body
            }
            C::Uncourier => {
                let $u = up().remove_courier();
                $body
            }
            C::Cost(c) => {
                let $u = up().set_cost(*c);
                $body
            }
            C::Mixed(l, d, c, n) => {
                let $u = up()
                    .set_lane(l.clone())
                    .set_delta(*d)
                    .set_courier(*c)
                    .set_note(n.clone());
                $body
            }
        }
    }};
}
pub(crate) use with_ship_update;

/// The order of `ByLane` (dates and instants by time, the integer by
/// value, the bytes bytewise) and of `ByCourier` (the decimal by value).
type LaneOrder = (Date, i64, OffsetDateTime, Vec<u8>);

fn shipments(expected: &BTreeMap<KeyText, Value>) -> Vec<(&KeyText, &Shipment)> {
    expected
        .iter()
        .filter_map(|(k, v)| match v {
            Value::Shipment(s) => Some((k, s)),
            _ => None,
        })
        .collect()
}

/// The native indexes against the model after a step that touched
/// `touched`: every item is in `ByLane`, those with a courier in
/// `ByCourier`, and each touched partition reads in value order.
pub async fn check(
    db: &Db,
    expected: &BTreeMap<KeyText, Value>,
    touched: &[KeyText],
    step: usize,
) -> Result<(), TestCaseError> {
    let all = shipments(expected);
    let lane_keys: BTreeSet<&KeyText> = all.iter().map(|(k, _)| *k).collect();
    let courier_keys: BTreeSet<&KeyText> = all
        .iter()
        .filter(|(_, s)| s.courier.is_some())
        .map(|(k, _)| *k)
        .collect();
    for (index, want) in [("ByLane", &lane_keys), ("ByCourier", &courier_keys)] {
        let got = super::scan(db, Some(index)).await;
        prop_assert_eq!(
            got.keys().collect::<BTreeSet<_>>(),
            want.clone(),
            "step {}: index {}",
            step,
            index
        );
    }
    let touched: Vec<&Shipment> = all
        .iter()
        .filter(|(k, _)| touched.contains(k))
        .map(|(_, s)| *s)
        .collect();
    for t in &touched {
        let mut want: Vec<(LaneOrder, String)> = all
            .iter()
            .filter(|(_, s)| s.lane == t.lane && s.kind == t.kind)
            .map(|(_, s)| (lane_order(s), s.id.clone()))
            .collect();
        want.sort();
        let pk = Shipment::by_lane_pk(t.lane.as_str(), t.kind).expect("a stored lane is a key");
        let read = db.query(pk).all().await.expect("ByLane query");
        let got: Vec<(LaneOrder, String)> =
            read.iter().map(|s| (lane_order(s), s.id.clone())).collect();
        prop_assert_eq!(order(&got), order(&want), "step {}: ByLane order", step);
        prop_assert_eq!(ids(&got), ids(&want), "step {}: ByLane items", step);
        if let Some(c) = t.courier {
            let mut want: Vec<(Decimal, String)> = all
                .iter()
                .filter(|(_, s)| s.courier == Some(c))
                .map(|(_, s)| (s.cost, s.id.clone()))
                .collect();
            want.sort();
            let pk = Shipment::by_courier_pk(c).expect("a uuid is a key");
            let keys = db
                .query(pk)
                .keys_only()
                .all()
                .await
                .expect("ByCourier query");
            let h = db.hydrate(keys).await.expect("hydrate");
            let got: Vec<(Decimal, String)> =
                h.items.iter().map(|s| (s.cost, s.id.clone())).collect();
            prop_assert_eq!(order(&got), order(&want), "step {}: ByCourier order", step);
            prop_assert_eq!(ids(&got), ids(&want), "step {}: ByCourier items", step);
        }
    }
    Ok(())
}

fn lane_order(s: &Shipment) -> LaneOrder {
    (s.day, s.delta, s.at, s.tag.as_ref().to_vec())
}

/// The sort keys in order (items with equal sort keys may come in any
/// order, so those are compared as a set by `ids`).
fn order<K: Clone>(v: &[(K, String)]) -> Vec<K> {
    v.iter().map(|(k, _)| k.clone()).collect()
}

fn ids<K>(v: &[(K, String)]) -> BTreeSet<String> {
    v.iter().map(|(_, i)| i.clone()).collect()
}
