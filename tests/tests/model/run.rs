//! Runs one operation against the backend and against the model, and says
//! what the backend must answer.

use std::collections::{BTreeMap, BTreeSet};

use dynakey::{Db, Error, TransactWrite};

use super::entities::{Account, Profile, Reading, Shipment, Task};
use super::ops::{Action, Change, KeyText, Op, Target, Upsert, Value};

/// What the backend must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Refused before sending: a value no key format can hold.
    Refused,
    ConditionFailed,
    Canceled,
}

pub fn outcome_of(r: &Result<(), Error>) -> Outcome {
    match r {
        Ok(()) => Outcome::Ok,
        Err(Error::KeyFormat(_) | Error::Encode(_)) => Outcome::Refused,
        Err(Error::ConditionFailed { .. }) => Outcome::ConditionFailed,
        Err(Error::TransactionCanceled { .. }) => Outcome::Canceled,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

/// The model: every stored value by key.
#[derive(Debug, Default, Clone)]
pub struct Model {
    pub items: BTreeMap<KeyText, Value>,
}

fn version(v: &Value) -> u64 {
    match v {
        Value::Account(a) => a.version,
        _ => 0,
    }
}

fn with_version(mut v: Value, n: u64) -> Value {
    if let Value::Account(a) = &mut v {
        a.version = n;
    }
    v
}

/// `f` with every typed update of `change` at `target` (the compiler
/// decides which setter combinations exist, so each is spelled out).
macro_rules! with_update {
    ($target:expr, $change:expr, $lock:expr, |$u:ident| $body:expr) => {
        match ($target, $change) {
            (Target::Task(o, i), Change::TaskAssignee(a)) => {
                let $u = Task::update(o, i).set_assignee(a.clone());
                $body
            }
            (Target::Task(o, i), Change::TaskUnassign) => {
                let $u = Task::update(o, i).remove_assignee();
                $body
            }
            (Target::Task(o, i), Change::TaskSchedule(d, p)) => {
                let $u = Task::update(o, i).set_due(*d).set_priority(*p);
                $body
            }
            (Target::Task(o, i), Change::TaskOwner(w)) => {
                let $u = Task::update(o, i).set_owner(w.clone());
                $body
            }
            (Target::Task(o, i), Change::TaskTitle(s)) => {
                let $u = Task::update(o, i).set_title(s.clone());
                $body
            }
            (Target::Task(o, i), Change::TaskMixed(a, d, p, n)) => {
                let $u = Task::update(o, i)
                    .set_assignee(a.clone())
                    .set_due(*d)
                    .set_priority(*p)
                    .set_note(n.clone());
                $body
            }
            (Target::Task(o, i), Change::TaskExpires(e)) => {
                let $u = Task::update(o, i).set_expires(*e);
                $body
            }
            (Target::Profile(o, u), Change::ProfilePlan(s)) => {
                let $u = Profile::update(o, u).set_plan(s.clone());
                $body
            }
            (Target::Profile(o, u), Change::ProfileSince(d)) => {
                let $u = Profile::update(o, u).set_since(*d);
                $body
            }
            (Target::Profile(o, u), Change::ProfileFeatured(d)) => {
                let $u = Profile::update(o, u).set_featured_on(*d);
                $body
            }
            (Target::Profile(o, u), Change::ProfileUnfeature) => {
                let $u = Profile::update(o, u).remove_featured_on();
                $body
            }
            (Target::Profile(o, u), Change::ProfileDisplay(s)) => {
                let $u = Profile::update(o, u).set_display(s.clone());
                $body
            }
            (Target::Reading(s, d, n, id), Change::ReadingKind(k)) => {
                let $u = Reading::update(s, d, n, id).set_kind(*k);
                $body
            }
            (Target::Reading(s, d, n, id), Change::ReadingIndex(dl, v, at, l, f)) => {
                let $u = Reading::update(s, d, n, id)
                    .set_delta(*dl)
                    .set_value(*v)
                    .set_at(*at)
                    .set_label(l.clone())
                    .set_flag(*f);
                $body
            }
            (Target::Reading(s, d, n, id), Change::ReadingNote(x)) => {
                let $u = Reading::update(s, d, n, id).set_note(x.clone());
                $body
            }
            (Target::Account(i), Change::AccountTier(t)) => {
                let $u = Account::update(i).set_tier(t.clone()).if_version($lock);
                $body
            }
            (Target::Account(i), Change::AccountBalance(b)) => {
                let $u = Account::update(i).set_balance(*b).if_version($lock);
                $body
            }
            (Target::Account(i), Change::AccountVisits(n)) => {
                let $u = Account::update(i)
                    .increment_visits(i64::from(*n))
                    .if_version($lock);
                $body
            }
            (Target::Account(i), Change::AccountExpires(e)) => {
                let $u = Account::update(i).set_expires(*e).if_version($lock);
                $body
            }
            (Target::Shipment(i), Change::Ship(c)) => {
                super::native::with_ship_update!(i, c, |$u| $body)
            }
            (t, c) => panic!("{c:?} does not apply to {t:?}"),
        }
    };
}

/// Runs `op` on the backend and the model; the backend's answer must be
/// the model's. Returns the keys the step touched.
pub async fn step(db: &Db, model: &mut Model, op: &Op) -> Vec<KeyText> {
    let (got, expected, touched) = match op {
        Op::Put(v, stale) => put(db, model, v, *stale).await,
        Op::Update(t, c, stale) => update(db, model, t, c, *stale).await,
        Op::Upsert(t, u) => upsert(db, model, t, u).await,
        Op::Delete(t) => {
            let (got, expected) = match t.key() {
                Err(_) => (delete(db, t).await, Outcome::Refused),
                Ok(k) => {
                    let r = delete(db, t).await;
                    model.items.remove(&k);
                    (r, Outcome::Ok)
                }
            };
            (got, expected, t.key().into_iter().collect())
        }
        Op::Batch(actions) => batch(db, model, actions).await,
        Op::Transact(actions) => transact(db, model, actions).await,
        Op::Move(from, to, stale) => move_item(db, model, from, to, *stale).await,
    };
    assert_eq!(outcome_of(&got), expected, "{op:?} answered {got:?}");
    touched
}

async fn delete(db: &Db, t: &Target) -> Result<(), Error> {
    match t {
        Target::Task(o, i) => db.delete(Task::key(o, i)?).await.map(drop),
        Target::Profile(o, u) => db.delete(Profile::key(o, u)?).await.map(drop),
        Target::Reading(s, d, n, u) => db.delete(Reading::key(s, d, n, u)?).await.map(drop),
        Target::Account(i) => db.delete(Account::key(i)?).await.map(drop),
        Target::Shipment(i) => db.delete(Shipment::key(i)?).await.map(drop),
    }
}

async fn put_value(db: &Db, v: &Value) -> Result<(), Error> {
    match v {
        Value::Task(x) => db.put(x).await.map(drop),
        Value::Profile(x) => db.put(x).await.map(drop),
        Value::Reading(x) => db.put(x).await.map(drop),
        Value::Account(x) => db.put(x).await.map(drop),
        Value::Shipment(x) => db.put(x).await.map(drop),
    }
}

type Ran = (Result<(), Error>, Outcome, Vec<KeyText>);

async fn put(db: &Db, model: &mut Model, v: &Value, stale: bool) -> Ran {
    let (Ok(key), Ok(_)) = (v.key(), v.item()) else {
        return (put_value(db, v).await, Outcome::Refused, vec![]);
    };
    let stored = model.items.get(&key).map_or(0, version);
    let stale = stale && v.versioned();
    // A versioned put sends the version it read; a stale one another.
    let sent = with_version(v.clone(), if stale { stored + 1 } else { stored });
    let got = put_value(db, &sent).await;
    let expected = if stale {
        Outcome::ConditionFailed
    } else {
        model
            .items
            .insert(key.clone(), with_version(sent, stored + 1));
        Outcome::Ok
    };
    (got, expected, vec![key])
}

async fn update(db: &Db, model: &mut Model, t: &Target, c: &Change, stale: bool) -> Ran {
    let key = t.key();
    let stored = key.as_ref().ok().and_then(|k| model.items.get(k)).cloned();
    let lock = stored.as_ref().map_or(0, version) + u64::from(stale);
    let got = with_update!(t, c, lock, |u| db.update(u).await.map(drop));
    let Ok(key) = key else {
        return (got, Outcome::Refused, vec![]);
    };
    let mut new = stored.clone().unwrap_or_else(|| t.blank());
    c.apply(&mut new);
    let expected = if new.item().is_err() {
        Outcome::Refused
    } else if stored.is_none() || (stale && new.versioned()) {
        Outcome::ConditionFailed
    } else {
        let n = version(&new) + u64::from(new.versioned());
        model.items.insert(key.clone(), with_version(new, n));
        Outcome::Ok
    };
    (got, expected, vec![key])
}

async fn upsert(db: &Db, model: &mut Model, t: &Target, up: &Upsert) -> Ran {
    let got = match (t, up) {
        (Target::Task(o, i), Upsert::Task(d, p, title, owner)) => {
            let u = Task::upsert(o, i)
                .set_due(*d)
                .set_priority(*p)
                .set_title(title.clone());
            match owner {
                Some(w) => db.update(u.set_owner(w.clone())).await,
                None => db.update(u).await,
            }
            .map(drop)
        }
        (Target::Profile(o, u), Upsert::Profile(since, plan, display)) => db
            .update(
                Profile::upsert(o, u)
                    .set_since(*since)
                    .set_plan(plan.clone())
                    .set_display(display.clone()),
            )
            .await
            .map(drop),
        (Target::Reading(s, d, n, id), Upsert::Reading(k, dl, v, at, l, f)) => db
            .update(
                Reading::upsert(s, d, n, id)
                    .set_kind(*k)
                    .set_delta(*dl)
                    .set_value(*v)
                    .set_at(*at)
                    .set_label(l.clone())
                    .set_flag(*f),
            )
            .await
            .map(drop),
        (Target::Account(i), Upsert::Account(tier, bal, visits, exp)) => db
            .update(
                Account::upsert(i)
                    .set_tier(tier.clone())
                    .set_balance(*bal)
                    .increment_visits(i64::from(*visits))
                    .set_expires(*exp),
            )
            .await
            .map(drop),
        (Target::Shipment(i), Upsert::Shipment(n)) => db
            .update(
                Shipment::upsert(i)
                    .set_lane(n.lane.clone())
                    .set_kind(n.kind)
                    .set_day(n.day)
                    .set_delta(n.delta)
                    .set_at(n.at)
                    .set_tag(n.tag.clone())
                    .set_cost(n.cost),
            )
            .await
            .map(drop),
        (t, u) => panic!("{u:?} does not apply to {t:?}"),
    };
    let Ok(key) = t.key() else {
        return (got, Outcome::Refused, vec![]);
    };
    let stored = model.items.get(&key).cloned();
    let new = up.apply(t, stored.as_ref());
    if new.item().is_err() {
        return (got, Outcome::Refused, vec![key]);
    }
    let n = stored.as_ref().map_or(0, version) + u64::from(new.versioned());
    model.items.insert(key.clone(), with_version(new, n));
    (got, Outcome::Ok, vec![key])
}

/// The distinct keys of some actions (later actions on a key are dropped:
/// one request may address an item once).
fn distinct(actions: &[Action]) -> Vec<Action> {
    let mut seen = BTreeSet::new();
    actions
        .iter()
        .filter(|a| {
            let k = match a {
                Action::Put(v) => v.key(),
                Action::Delete(t) | Action::Update(t, _) => t.key(),
            };
            k.map_or(true, |k| seen.insert(k))
        })
        .cloned()
        .collect()
}

async fn batch(db: &Db, model: &mut Model, actions: &[Action]) -> Ran {
    let actions = distinct(actions);
    let mut b = db.batch_write();
    let mut next = model.clone();
    let mut refused = false;
    // A key this test cannot build is not sent at all.
    let mut unsent: Option<Error> = None;
    let mut touched = Vec::new();
    for a in &actions {
        match a {
            Action::Put(v) => {
                b = match v {
                    Value::Task(x) => b.put(x),
                    Value::Profile(x) => b.put(x),
                    Value::Reading(x) => b.put(x),
                    Value::Shipment(x) => b.put(x),
                    Value::Account(_) => panic!("the generator puts no versioned value in a batch"),
                };
                match (v.key(), v.item()) {
                    (Ok(k), Ok(_)) => {
                        next.items.insert(k.clone(), v.clone());
                        touched.push(k);
                    }
                    _ => refused = true,
                }
            }
            Action::Delete(t) => {
                b = match t {
                    Target::Task(o, i) => del(b, Task::key(o, i), &mut unsent),
                    Target::Profile(o, u) => del(b, Profile::key(o, u), &mut unsent),
                    Target::Reading(s, d, n, u) => del(b, Reading::key(s, d, n, u), &mut unsent),
                    Target::Account(i) => del(b, Account::key(i), &mut unsent),
                    Target::Shipment(i) => del(b, Shipment::key(i), &mut unsent),
                };
                if let Ok(k) = t.key() {
                    next.items.remove(&k);
                    touched.push(k);
                }
            }
            Action::Update(..) => panic!("batches hold puts and deletes"),
        }
    }
    let refused = refused || unsent.is_some();
    let got = match unsent {
        Some(e) => Err(e),
        None => b.send().await.map(drop),
    };
    if refused {
        return (got, Outcome::Refused, vec![]);
    }
    *model = next;
    (got, Outcome::Ok, touched)
}

fn del<E: dynakey::Entity>(
    b: dynakey::BatchWrite,
    k: Result<dynakey::Key<E>, dynakey::KeyFormatError>,
    unsent: &mut Option<Error>,
) -> dynakey::BatchWrite {
    match k {
        Ok(k) => b.delete(k),
        Err(e) => {
            unsent.get_or_insert(e.into());
            b
        }
    }
}

async fn transact(db: &Db, model: &mut Model, actions: &[Action]) -> Ran {
    let actions = distinct(actions);
    let mut tx: TransactWrite = db.transact_write();
    let mut next = model.clone();
    let mut refused = false;
    let mut canceled = false;
    let mut unsent: Option<Error> = None;
    let mut touched = Vec::new();
    for a in &actions {
        match a {
            Action::Put(v) => {
                let (Ok(key), Ok(_)) = (v.key(), v.item()) else {
                    refused = true;
                    tx = tx_put(tx, v);
                    continue;
                };
                let stored = model.items.get(&key).map_or(0, version);
                let sent = with_version(v.clone(), stored);
                tx = tx_put(tx, &sent);
                next.items.insert(
                    key.clone(),
                    with_version(sent, stored + u64::from(v.versioned())),
                );
                touched.push(key);
            }
            Action::Delete(t) => {
                tx = match t {
                    Target::Task(o, i) => tx_del(tx, Task::key(o, i), &mut unsent),
                    Target::Profile(o, u) => tx_del(tx, Profile::key(o, u), &mut unsent),
                    Target::Reading(s, d, n, u) => {
                        tx_del(tx, Reading::key(s, d, n, u), &mut unsent)
                    }
                    Target::Account(i) => tx_del(tx, Account::key(i), &mut unsent),
                    Target::Shipment(i) => tx_del(tx, Shipment::key(i), &mut unsent),
                };
                if let Ok(k) = t.key() {
                    next.items.remove(&k);
                    touched.push(k);
                }
            }
            Action::Update(t, c) => {
                let key = t.key();
                let stored = key.as_ref().ok().and_then(|k| model.items.get(k)).cloned();
                let lock = stored.as_ref().map_or(0, version);
                tx = with_update!(t, c, lock, |u| tx.update(u));
                let Ok(key) = key else {
                    refused = true;
                    continue;
                };
                let mut new = stored.clone().unwrap_or_else(|| t.blank());
                c.apply(&mut new);
                if new.item().is_err() {
                    refused = true;
                } else if stored.is_none() {
                    canceled = true;
                } else {
                    let n = version(&new) + u64::from(new.versioned());
                    next.items.insert(key.clone(), with_version(new, n));
                    touched.push(key);
                }
            }
        }
    }
    let refused = refused || unsent.is_some();
    let got = match unsent {
        Some(e) => Err(e),
        None => tx.send().await,
    };
    if refused {
        return (got, Outcome::Refused, vec![]);
    }
    if canceled {
        return (got, Outcome::Canceled, vec![]);
    }
    *model = next;
    (got, Outcome::Ok, touched)
}

fn tx_del<E: dynakey::Entity>(
    tx: TransactWrite,
    k: Result<dynakey::Key<E>, dynakey::KeyFormatError>,
    unsent: &mut Option<Error>,
) -> TransactWrite {
    match k {
        Ok(k) => tx.delete(k),
        Err(e) => {
            unsent.get_or_insert(e.into());
            tx
        }
    }
}

fn tx_put(tx: TransactWrite, v: &Value) -> TransactWrite {
    match v {
        Value::Task(x) => tx.put(x),
        Value::Profile(x) => tx.put(x),
        Value::Reading(x) => tx.put(x),
        Value::Account(x) => tx.put(x),
        Value::Shipment(x) => tx.put(x),
    }
}

async fn move_item(db: &Db, model: &mut Model, from: &Target, to: &Value, stale: bool) -> Ran {
    let from_key = from.key();
    let to_key = to.key();
    let source = from_key
        .as_ref()
        .ok()
        .and_then(|k| model.items.get(k))
        .cloned();
    let lock = source.as_ref().map_or(0, version) + u64::from(stale && to.versioned());
    let sent = with_version(to.clone(), lock);
    let got = match (from, &sent) {
        (Target::Reading(s, d, n, u), Value::Reading(r)) => match Reading::key(s, d, n, u) {
            Ok(k) => db.move_item(k, r).await,
            Err(e) => Err(e.into()),
        },
        (Target::Account(i), Value::Account(a)) => match Account::key(i) {
            Ok(k) => db.move_item(k, a).await,
            Err(e) => Err(e.into()),
        },
        (f, t) => panic!("cannot move {f:?} to {t:?}"),
    };
    let (Ok(from_key), Ok(to_key), Ok(_)) = (from_key, to_key, to.item()) else {
        return (got, Outcome::Refused, vec![]);
    };
    let same = from_key == to_key;
    let fails = source.is_none()
        || (stale && to.versioned())
        || (!same && model.items.contains_key(&to_key));
    let expected = match (fails, same) {
        (true, true) => Outcome::ConditionFailed,
        (true, false) => Outcome::Canceled,
        (false, _) => {
            let n = lock + u64::from(to.versioned());
            model.items.remove(&from_key);
            model
                .items
                .insert(to_key.clone(), with_version(to.clone(), n));
            Outcome::Ok
        }
    };
    (got, expected, vec![from_key, to_key])
}
