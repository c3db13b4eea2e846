//! The operations of the model test, their random generation, and what
//! each does to the model: a map from key to the entity value stored there.
//! The stored item is always `to_item()` of that value.

use dynakey::{Entity, Item, KeyFormatError};
use proptest::prelude::*;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::entities::{Account, Kind, Profile, Reading, Shipment, Task};

/// A value of one of the entities.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Task(Task),
    Profile(Profile),
    Reading(Reading),
    Account(Account),
    Shipment(Shipment),
}

/// A table key as text: (pk, sk).
pub type KeyText = (String, String);

impl Value {
    pub fn key(&self) -> Result<KeyText, KeyFormatError> {
        fn text<E: Entity>(e: &E) -> Result<KeyText, KeyFormatError> {
            let k = e.item_key()?;
            Ok((k.pk().to_owned(), k.sk().unwrap_or_default().to_owned()))
        }
        match self {
            Value::Task(v) => text(v),
            Value::Profile(v) => text(v),
            Value::Reading(v) => text(v),
            Value::Account(v) => text(v),
            Value::Shipment(v) => text(v),
        }
    }

    /// The item `to_item()` writes, or why a write of the value is
    /// refused: a value no key format holds, or (the model's own rule, not
    /// the runtime's check) an empty string or binary in a native key
    /// attribute, which DynamoDB refuses.
    pub fn item(&self) -> Result<Item, String> {
        let e = |r: Result<Item, dynakey::EncodeError>| r.map_err(|e| e.to_string());
        match self {
            Value::Task(v) => e(v.to_item()),
            Value::Profile(v) => e(v.to_item()),
            Value::Reading(v) => e(v.to_item()),
            Value::Account(v) => e(v.to_item()),
            Value::Shipment(v) if v.lane.is_empty() || v.tag.as_ref().is_empty() => {
                Err("an empty native key attribute".into())
            }
            Value::Shipment(v) => e(v.to_item()),
        }
    }

    pub fn versioned(&self) -> bool {
        matches!(self, Value::Account(_))
    }

    /// The entity's indexes.
    pub fn indexes(&self) -> &'static [&'static str] {
        match self {
            Value::Task(_) => &["GSI1", "GSI2"],
            Value::Profile(_) => &["GSI3", "GSI4"],
            Value::Reading(_) => &["GSI5"],
            Value::Account(_) => &["GSI6"],
            Value::Shipment(_) => super::entities::NATIVE,
        }
    }
}

impl Action {
    /// The indexes of the entity the action writes.
    pub fn indexes(&self) -> &'static [&'static str] {
        match self {
            Action::Put(v) => v.indexes(),
            Action::Delete(t) | Action::Update(t, _) => t.indexes(),
        }
    }
}

impl Op {
    /// The indexes of every entity the operation writes.
    pub fn indexes(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = match self {
            Op::Put(x, _) => x.indexes().to_vec(),
            Op::Update(t, ..) | Op::Upsert(t, _) | Op::Delete(t) | Op::Move(t, ..) => {
                t.indexes().to_vec()
            }
            Op::Batch(a) | Op::Transact(a) => {
                a.iter().flat_map(|a| a.indexes().iter().copied()).collect()
            }
        };
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Which item an operation addresses.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Task(String, String),
    Profile(String, String),
    Reading(String, Date, u32, Uuid),
    Account(String),
    Shipment(String),
}

impl Target {
    /// The entity's indexes.
    pub fn indexes(&self) -> &'static [&'static str] {
        match self {
            Target::Task(..) => &["GSI1", "GSI2"],
            Target::Profile(..) => &["GSI3", "GSI4"],
            Target::Reading(..) => &["GSI5"],
            Target::Account(..) => &["GSI6"],
            Target::Shipment(..) => super::entities::NATIVE,
        }
    }

    pub fn key(&self) -> Result<KeyText, KeyFormatError> {
        let t = |pk: &str, sk: Option<&str>| (pk.to_owned(), sk.unwrap_or_default().to_owned());
        Ok(match self {
            Target::Task(o, i) => {
                let k = Task::key(o, i)?;
                t(k.pk(), k.sk())
            }
            Target::Profile(o, u) => {
                let k = Profile::key(o, u)?;
                t(k.pk(), k.sk())
            }
            Target::Reading(s, d, n, u) => {
                let k = Reading::key(s, d, n, u)?;
                t(k.pk(), k.sk())
            }
            Target::Account(i) => {
                let k = Account::key(i)?;
                t(k.pk(), k.sk())
            }
            Target::Shipment(i) => {
                let k = Shipment::key(i)?;
                t(k.pk(), k.sk())
            }
        })
    }

    /// A valid value at this key, to apply a change to when there is no
    /// stored one (a key error shows the same whatever the other fields).
    pub fn blank(&self) -> Value {
        match self.clone() {
            Target::Task(org, id) => Value::Task(Task {
                org,
                id,
                assignee: None,
                due: date!(2024 - 01 - 01),
                priority: 1,
                owner: None,
                title: "t".into(),
                note: None,
                expires: None,
            }),
            Target::Profile(org, user) => Value::Profile(Profile {
                org,
                user,
                plan: String::new(),
                since: date!(2024 - 01 - 01),
                featured_on: None,
                display: String::new(),
            }),
            Target::Reading(sensor, day, seq, uid) => Value::Reading(Reading {
                sensor,
                day,
                seq,
                uid,
                kind: Kind::New,
                delta: 0,
                value: Decimal::ZERO,
                at: datetime!(2024-01-01 0:00 UTC),
                label: "l".into(),
                flag: false,
                note: None,
            }),
            Target::Account(id) => Value::Account(Account {
                id,
                tier: "free".into(),
                balance: 0,
                visits: 0,
                expires: datetime!(2030-01-01 0:00 UTC),
                version: 0,
            }),
            Target::Shipment(id) => Value::Shipment(super::native::blank(id)),
        }
    }
}

/// A typed change: one of a fixed set of setter combinations per entity
/// (the compiler decides which combinations exist), with random values.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    TaskAssignee(Option<String>),
    TaskUnassign,
    TaskSchedule(Date, u8),
    TaskOwner(Option<String>),
    TaskTitle(String),
    TaskMixed(Option<String>, Date, u8, Option<String>),
    TaskExpires(Option<OffsetDateTime>),
    ProfilePlan(String),
    ProfileSince(Date),
    ProfileFeatured(Option<Date>),
    ProfileUnfeature,
    ProfileDisplay(String),
    ReadingKind(Kind),
    ReadingIndex(i32, Decimal, OffsetDateTime, String, bool),
    ReadingNote(Option<String>),
    AccountTier(String),
    AccountBalance(i64),
    AccountVisits(u32),
    AccountExpires(OffsetDateTime),
    /// Native key attributes, set one at a time (no DYNA226).
    Ship(super::native::ShipChange),
}

impl Change {
    /// The change applied to a value of its entity.
    pub fn apply(&self, v: &mut Value) {
        match (self, v) {
            (Change::TaskAssignee(a), Value::Task(t)) => t.assignee = a.clone(),
            (Change::TaskUnassign, Value::Task(t)) => t.assignee = None,
            (Change::TaskSchedule(d, p), Value::Task(t)) => (t.due, t.priority) = (*d, *p),
            (Change::TaskOwner(o), Value::Task(t)) => t.owner = o.clone(),
            (Change::TaskTitle(s), Value::Task(t)) => t.title = s.clone(),
            (Change::TaskMixed(a, d, p, n), Value::Task(t)) => {
                (t.assignee, t.due, t.priority, t.note) = (a.clone(), *d, *p, n.clone())
            }
            (Change::TaskExpires(e), Value::Task(t)) => t.expires = *e,
            (Change::ProfilePlan(p), Value::Profile(x)) => x.plan = p.clone(),
            (Change::ProfileSince(d), Value::Profile(x)) => x.since = *d,
            (Change::ProfileFeatured(d), Value::Profile(x)) => x.featured_on = *d,
            (Change::ProfileUnfeature, Value::Profile(x)) => x.featured_on = None,
            (Change::ProfileDisplay(s), Value::Profile(x)) => x.display = s.clone(),
            (Change::ReadingKind(k), Value::Reading(r)) => r.kind = *k,
            (Change::ReadingIndex(d, v, at, l, f), Value::Reading(r)) => {
                (r.delta, r.value, r.at, r.label, r.flag) = (*d, *v, *at, l.clone(), *f)
            }
            (Change::ReadingNote(n), Value::Reading(r)) => r.note = n.clone(),
            (Change::AccountTier(s), Value::Account(a)) => a.tier = s.clone(),
            (Change::AccountBalance(b), Value::Account(a)) => a.balance = *b,
            (Change::AccountVisits(n), Value::Account(a)) => a.visits += u64::from(*n),
            (Change::AccountExpires(e), Value::Account(a)) => a.expires = *e,
            (Change::Ship(c), Value::Shipment(x)) => c.apply(x),
            (c, v) => panic!("{c:?} does not apply to {v:?}"),
        }
    }
}

/// An upsert: the required fields (and some optional ones) of a new item.
#[derive(Debug, Clone, PartialEq)]
pub enum Upsert {
    Task(Date, u8, String, Option<String>),
    Profile(Date, String, String),
    Reading(Kind, i32, Decimal, OffsetDateTime, String, bool),
    Account(String, i64, u32, OffsetDateTime),
    Shipment(Shipment),
}

impl Upsert {
    /// What the item becomes: the stored value with these fields set, or a
    /// new value with them and nothing else.
    pub fn apply(&self, target: &Target, stored: Option<&Value>) -> Value {
        let mut v = stored.cloned().unwrap_or_else(|| {
            let mut b = target.blank();
            // A new item has nothing but what the upsert writes.
            match &mut b {
                Value::Task(t) => t.title = String::new(),
                Value::Profile(p) => p.plan = String::new(),
                _ => {}
            }
            b
        });
        match (self, &mut v) {
            (Upsert::Task(d, p, title, owner), Value::Task(t)) => {
                (t.due, t.priority, t.title) = (*d, *p, title.clone());
                if owner.is_some() {
                    t.owner = owner.clone();
                }
            }
            (Upsert::Profile(since, plan, display), Value::Profile(x)) => {
                (x.since, x.plan, x.display) = (*since, plan.clone(), display.clone())
            }
            (Upsert::Reading(k, d, val, at, l, f), Value::Reading(r)) => {
                (r.kind, r.delta, r.value, r.at, r.label, r.flag) =
                    (*k, *d, *val, *at, l.clone(), *f)
            }
            (Upsert::Account(tier, bal, visits, exp), Value::Account(a)) => {
                if stored.is_none() {
                    a.visits = 0;
                }
                (a.tier, a.balance, a.expires) = (tier.clone(), *bal, *exp);
                a.visits += u64::from(*visits);
            }
            // Every required field; the optional ones as stored (or none).
            (Upsert::Shipment(n), Value::Shipment(x)) => {
                let keep = stored.is_some();
                let (courier, note) = (x.courier, x.note.take());
                *x = Shipment {
                    courier: if keep { courier } else { None },
                    note: if keep { note } else { None },
                    ..n.clone()
                };
            }
            (u, v) => panic!("{u:?} does not apply to {v:?}"),
        }
        v
    }
}

/// One action of a batch or a transaction.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Put(Value),
    Delete(Target),
    Update(Target, Change),
}

/// One step of a run.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// A put; for a versioned value, `stale` sends a version the item does
    /// not have.
    Put(Value, bool),
    Update(Target, Change, bool),
    Upsert(Target, Upsert),
    Delete(Target),
    Batch(Vec<Action>),
    Transact(Vec<Action>),
    /// Moves the item at the target to the value's key.
    Move(Target, Value, bool),
}

// ---------------------------------------------------------------- values

/// Strings with the characters that break keys: spaces, the delimiter, the
/// escape, non-ASCII, an empty string, a control character.
pub fn nasty() -> impl Strategy<Value = String> {
    prop::sample::select(
        &[
            "", "x", "New", "New York", "Newark", "a#b", "%20", "é", "😀", " ", "-.", "\u{1}",
        ][..],
    )
    .prop_map(str::to_owned)
}

pub fn opt<T: std::fmt::Debug + Clone>(
    s: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    prop::option::weighted(0.7, s)
}

pub fn day() -> impl Strategy<Value = Date> {
    prop::sample::select(
        &[
            date!(2024 - 01 - 01),
            date!(2024 - 01 - 02),
            date!(0000 - 01 - 01),
            date!(9999 - 12 - 31),
        ][..],
    )
}

pub fn instant() -> impl Strategy<Value = OffsetDateTime> {
    prop::sample::select(
        &[
            datetime!(2024-01-01 0:00 UTC),
            datetime!(2024-01-01 0:00:00.001 UTC),
            datetime!(1970-01-01 0:00 UTC),
            datetime!(2286-11-20 17:46:39.999 UTC),
            // Before the epoch: `rev` cannot hold it.
            datetime!(1969-12-31 23:59 UTC),
        ][..],
    )
}

pub fn kind() -> impl Strategy<Value = Kind> {
    prop::sample::select(&[Kind::New, Kind::NewYork, Kind::Newark][..])
}

fn decimal() -> impl Strategy<Value = Decimal> {
    // n4.2: up to 4 integer digits and 2 places; 3 places or 5 digits fail.
    (
        prop_oneof![Just(999_999i64), Just(-999_999), -1_000_000i64..1_000_000],
        1u32..4,
    )
        .prop_map(|(m, scale)| Decimal::new(m, scale))
}

fn tkey() -> impl Strategy<Value = (String, String)> {
    (
        prop::sample::select(&["acme", "a b", "o#1", "ü%"][..]),
        prop::sample::select(&["t1", "t 2", "t#3", "%"][..]),
    )
        .prop_map(|(a, b)| (a.to_owned(), b.to_owned()))
}

const UIDS: [Uuid; 3] = [
    Uuid::from_u128(1),
    Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0001),
    Uuid::max(),
];

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        tkey().prop_map(|(o, i)| Target::Task(o, i)),
        tkey().prop_map(|(o, u)| Target::Profile(o, u)),
        (
            prop::sample::select(&["s1", "s 2"][..]),
            day(),
            prop_oneof![Just(0u32), Just(9999), Just(10_000), 0u32..20],
            prop::sample::select(&UIDS[..]),
        )
            .prop_map(|(s, d, n, u)| Target::Reading(s.into(), d, n, u)),
        prop::sample::select(&["a1", "a#2", "a 3"][..]).prop_map(|i| Target::Account(i.into())),
        super::native::target(),
    ]
}

/// A change that fits the target's entity.
fn change(t: &Target) -> BoxedStrategy<Change> {
    match t {
        Target::Task(..) => prop_oneof![
            opt(nasty()).prop_map(Change::TaskAssignee),
            Just(Change::TaskUnassign),
            (day(), 0u8..=10).prop_map(|(d, p)| Change::TaskSchedule(d, p)),
            opt(nasty()).prop_map(Change::TaskOwner),
            nasty().prop_map(Change::TaskTitle),
            (opt(nasty()), day(), 0u8..=10, opt(nasty()))
                .prop_map(|(a, d, p, n)| Change::TaskMixed(a, d, p, n)),
            opt(instant()).prop_map(Change::TaskExpires),
        ]
        .boxed(),
        Target::Profile(..) => prop_oneof![
            nasty().prop_map(Change::ProfilePlan),
            day().prop_map(Change::ProfileSince),
            opt(day()).prop_map(Change::ProfileFeatured),
            Just(Change::ProfileUnfeature),
            nasty().prop_map(Change::ProfileDisplay),
        ]
        .boxed(),
        Target::Reading(..) => prop_oneof![
            kind().prop_map(Change::ReadingKind),
            (
                -1000i32..=1000,
                decimal(),
                instant(),
                nasty(),
                any::<bool>()
            )
                .prop_map(|(d, v, at, l, f)| Change::ReadingIndex(d, v, at, l, f)),
            opt(nasty()).prop_map(Change::ReadingNote),
        ]
        .boxed(),
        Target::Account(..) => prop_oneof![
            nasty().prop_map(Change::AccountTier),
            prop_oneof![
                Just(99_999_999i64),
                Just(-99_999_999),
                Just(100_000_000),
                any::<i32>().prop_map(i64::from)
            ]
            .prop_map(Change::AccountBalance),
            (0u32..1000).prop_map(Change::AccountVisits),
            instant().prop_map(Change::AccountExpires),
        ]
        .boxed(),
        Target::Shipment(..) => super::native::change().prop_map(Change::Ship).boxed(),
    }
}

fn upsert(t: &Target) -> BoxedStrategy<Upsert> {
    match t {
        Target::Task(..) => (day(), 0u8..=10, nasty(), opt(nasty()))
            .prop_map(|(d, p, title, o)| Upsert::Task(d, p, title, o))
            .boxed(),
        Target::Profile(..) => (day(), nasty(), nasty())
            .prop_map(|(d, p, s)| Upsert::Profile(d, p, s))
            .boxed(),
        Target::Reading(..) => (
            kind(),
            -1000i32..=1000,
            decimal(),
            instant(),
            nasty(),
            any::<bool>(),
        )
            .prop_map(|(k, d, v, at, l, f)| Upsert::Reading(k, d, v, at, l, f))
            .boxed(),
        Target::Account(..) => (nasty(), any::<i32>(), 0u32..1000, instant())
            .prop_map(|(t, b, v, e)| Upsert::Account(t, i64::from(b), v, e))
            .boxed(),
        Target::Shipment(id) => super::native::value(id.clone())
            .prop_map(Upsert::Shipment)
            .boxed(),
    }
}

/// A whole value at the target's key (its fields random).
fn value(t: &Target) -> BoxedStrategy<Value> {
    let base = t.blank();
    let changes = prop::collection::vec(change(t), 0..4);
    changes
        .prop_map(move |cs| {
            let mut v = base.clone();
            for c in &cs {
                c.apply(&mut v);
            }
            v
        })
        .boxed()
}

fn target_value() -> impl Strategy<Value = (Target, Value)> {
    target().prop_flat_map(|t| (Just(t.clone()), value(&t)))
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        2 => target_value().prop_map(|(_, v)| Action::Put(v)),
        1 => target().prop_map(Action::Delete),
        2 => target().prop_flat_map(|t| (Just(t.clone()), change(&t))).prop_map(|(t, c)| Action::Update(t, c)),
    ]
}

/// A target of the same entity, for moves (readings and accounts).
fn movable() -> impl Strategy<Value = (Target, Value)> {
    target()
        .prop_filter("readings and accounts move", |t| {
            matches!(t, Target::Reading(..) | Target::Account(..))
        })
        .prop_flat_map(|from| {
            let to = target().prop_filter("same entity", {
                let from = from.clone();
                move |t| std::mem::discriminant(t) == std::mem::discriminant(&from)
            });
            (Just(from), to.prop_flat_map(|t| value(&t)))
        })
}

pub fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (target_value(), prop::bool::weighted(0.15)).prop_map(|((_, v), stale)| Op::Put(v, stale)),
        5 => (target().prop_flat_map(|t| (Just(t.clone()), change(&t))), prop::bool::weighted(0.15))
            .prop_map(|((t, c), stale)| Op::Update(t, c, stale)),
        2 => target().prop_flat_map(|t| (Just(t.clone()), upsert(&t))).prop_map(|(t, u)| Op::Upsert(t, u)),
        2 => target().prop_map(Op::Delete),
        1 => prop::collection::vec(
            prop_oneof![
                target_value()
                    .prop_filter("no version", |(_, v)| !v.versioned())
                    .prop_map(|(_, v)| Action::Put(v)),
                target().prop_map(Action::Delete),
            ],
            1..6,
        )
        .prop_map(Op::Batch),
        1 => prop::collection::vec(action(), 1..4).prop_map(Op::Transact),
        1 => (movable(), prop::bool::weighted(0.15)).prop_map(|((from, to), stale)| Op::Move(from, to, stale)),
    ]
}
