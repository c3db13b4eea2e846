//! Random writes (put, typed update, delete, transaction; on the embedded
//! engine also TTL expiry and cancelled transactions) against a model:
//! the feed hands out every change exactly once and in per-item order,
//! each equal to what the model says happened, through a restart from a
//! checkpoint; and the example's Lambda handler, fed the same stream as
//! Lambda events, keeps per-org counts equal to a full scan.
//!
//! 1,000 writes on the embedded engine, 150 on an endpoint (moto is about
//! five times slower); `DYNAKEY_CHANGES_STEPS` overrides, `DYNAKEY_SEED`
//! picks the seed.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use aws_lambda_events::event::dynamodb::Event;
use dynakey::changes::{
    Change, ChangeDecoder, ChangeKind, Checkpoint, IndexChange, IndexTransition, StreamView,
};
use dynakey::local::{self, ManualClock};
use dynakey::{Db, Entity, TransactWrite, UpdateItem};
use dynakey_examples::stream_capture::StreamCapture;
use dynakey_examples::task_counts::{handle, Org, OrgItem, Task, TaskCounts};
use time::OffsetDateTime;

use super::{backend, backend_name, done, table};

const ORGS: [&str; 3] = ["acme", "globex", "initech"];
const START: u64 = 1_700_000_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

type ItemKey = (String, String);

/// What the stream says of one item, change by change.
type History = Vec<(ChangeKind<OrgItem>, Vec<IndexChange>)>;

fn key_of(t: &Task) -> ItemKey {
    let k = t.item_key().unwrap();
    (k.pk().to_owned(), k.sk().unwrap_or_default().to_owned())
}

#[derive(Default)]
struct Model {
    tasks: BTreeMap<ItemKey, Task>,
    orgs: BTreeMap<String, Org>,
    /// Per item, every change the stream must hand out, in order.
    expected: HashMap<ItemKey, History>,
    expired: BTreeMap<String, i64>,
    changes: usize,
}

/// The fields of a task that differ, in declaration order (from the
/// values, independently of the decoder's attribute comparison).
fn changed(a: &Task, b: &Task) -> Vec<&'static str> {
    let mut out = Vec::new();
    if a.title != b.title {
        out.push("title");
    }
    if a.flagged_by != b.flagged_by {
        out.push("flagged_by");
    }
    if a.expires_at != b.expires_at {
        out.push("expires_at");
    }
    out
}

fn flag_move(old: Option<&Task>, new: Option<&Task>) -> Vec<IndexChange> {
    let f = |t: Option<&Task>| t.and_then(|t| t.flagged_by.clone());
    let transition = match (f(old), f(new)) {
        (None, Some(_)) => IndexTransition::Entered,
        (Some(_), None) => IndexTransition::Left,
        (Some(a), Some(b)) if a != b => IndexTransition::Moved,
        _ => return vec![],
    };
    vec![IndexChange {
        index: "GSI1",
        transition,
    }]
}

impl Model {
    fn expect(&mut self, key: ItemKey, kind: ChangeKind<OrgItem>, ix: Vec<IndexChange>) {
        self.changes += 1;
        self.expected.entry(key).or_default().push((kind, ix));
    }

    /// A task written whole (put) or as a patch's result.
    fn write(&mut self, t: Task) {
        let key = key_of(&t);
        let old = self.tasks.insert(key.clone(), t.clone());
        let ix = flag_move(old.as_ref(), Some(&t));
        let kind = match old {
            None => ChangeKind::Inserted(OrgItem::Task(t)),
            Some(o) => ChangeKind::Modified {
                changed: changed(&o, &t),
                old: OrgItem::Task(o),
                new: OrgItem::Task(t),
            },
        };
        self.expect(key, kind, ix);
    }

    fn delete(&mut self, key: &ItemKey, expired: bool) {
        if let Some(o) = self.tasks.remove(key) {
            let ix = flag_move(Some(&o), None);
            if expired {
                *self.expired.entry(o.org.clone()).or_default() += 1;
            }
            let kind = if expired {
                ChangeKind::Expired(OrgItem::Task(o))
            } else {
                ChangeKind::Removed(OrgItem::Task(o))
            };
            self.expect(key.clone(), kind, ix);
        }
    }

    fn put_org(&mut self, o: Org) {
        let k = o.item_key().unwrap();
        let key = (k.pk().to_owned(), k.sk().unwrap_or_default().to_owned());
        let kind = match self.orgs.insert(o.org.clone(), o.clone()) {
            None => ChangeKind::Inserted(OrgItem::Org(o)),
            Some(old) => ChangeKind::Modified {
                changed: if old.name != o.name {
                    vec!["name"]
                } else {
                    vec![]
                },
                old: OrgItem::Org(old),
                new: OrgItem::Org(o),
            },
        };
        self.expect(key, kind, vec![]);
    }
}

/// One random write, applied to the table and the model.
struct Writer<'a> {
    db: &'a Db,
    rng: Rng,
    model: Model,
    now: u64,
    /// TTL and cancelled transactions (the embedded engine only).
    full: bool,
    step: usize,
}

impl Writer<'_> {
    fn pick(&mut self) -> (String, String) {
        let org = ORGS[self.rng.below(3) as usize].to_owned();
        (org, format!("t{}", self.rng.below(12)))
    }

    fn flag(&mut self) -> Option<String> {
        match self.rng.below(4) {
            0 => Some("ann".into()),
            1 => Some("bob".into()),
            _ => None,
        }
    }

    fn new_task(&mut self, org: String, id: String) -> Task {
        let expires_at = (self.full && self.rng.chance(25)).then(|| {
            let at = self.now + 1 + self.rng.below(90);
            OffsetDateTime::from_unix_timestamp(at as i64).unwrap()
        });
        Task {
            org,
            id,
            title: format!("v{}", self.step),
            flagged_by: self.flag(),
            expires_at,
        }
    }

    /// The task a patch of title (and maybe flag) makes of `old`.
    fn patched(&mut self, old: &Task) -> (Task, bool) {
        let mut t = old.clone();
        t.title = format!("v{}", self.step);
        let reflag = self.rng.chance(50);
        if reflag {
            t.flagged_by = self.flag();
        }
        (t, reflag)
    }

    /// Sends the patch that makes `t` (title, and the flag when `reflag`).
    fn update(db: &Db, t: &Task, reflag: bool) -> UpdateItem<Task> {
        let u = Task::update(t.org.as_str(), t.id.as_str()).set_title(t.title.as_str());
        if reflag {
            db.update(u.set_flagged_by(t.flagged_by.clone()))
        } else {
            db.update(u)
        }
    }

    /// The same patch as an action of `tx`.
    fn tx_update(tx: TransactWrite, t: &Task, reflag: bool) -> TransactWrite {
        let u = Task::update(t.org.as_str(), t.id.as_str()).set_title(t.title.as_str());
        if reflag {
            tx.update(u.set_flagged_by(t.flagged_by.clone()))
        } else {
            tx.update(u)
        }
    }

    async fn step(&mut self) {
        self.step += 1;
        let roll = self.rng.below(100);
        let (org, id) = self.pick();
        let key = key_of(&Task::from_parts(&org, &id));
        let present = self.model.tasks.get(&key).cloned();
        match roll {
            0..35 => {
                let t = self.new_task(org, id);
                self.db.put(&t).await.unwrap();
                self.model.write(t);
            }
            35..60 => {
                let base = present
                    .clone()
                    .unwrap_or_else(|| Task::from_parts(&org, &id));
                let (t, reflag) = self.patched(&base);
                let r = Self::update(self.db, &t, reflag).await;
                match present {
                    Some(_) => {
                        r.unwrap();
                        self.model.write(t);
                    }
                    // A patch never creates: no item, no record.
                    None => assert!(r.unwrap_err().is_condition_failed()),
                }
            }
            60..75 => {
                self.db
                    .delete(Task::key(org.as_str(), id.as_str()).unwrap())
                    .await
                    .unwrap();
                self.model.delete(&key, false);
            }
            75..95 => self.transaction().await,
            _ => {
                let o = Org {
                    org,
                    name: format!("n{}", self.rng.below(3)),
                };
                self.db.put(&o).await.unwrap();
                self.model.put_org(o);
            }
        }
    }

    async fn transaction(&mut self) {
        let mut tx = self.db.transact_write();
        let mut after: Vec<(ItemKey, Option<Task>)> = Vec::new();
        let n = 2 + self.rng.below(3);
        for _ in 0..n {
            let (org, id) = self.pick();
            let key = key_of(&Task::from_parts(&org, &id));
            if after.iter().any(|(k, _)| *k == key) {
                continue; // one action per item in a transaction
            }
            match self.model.tasks.get(&key).cloned() {
                Some(old) if self.rng.chance(50) => {
                    let (t, reflag) = self.patched(&old);
                    tx = Self::tx_update(tx, &t, reflag);
                    after.push((key, Some(t)));
                }
                Some(_) if self.rng.chance(50) => {
                    tx = tx.delete(Task::key(org.as_str(), id.as_str()).unwrap());
                    after.push((key, None));
                }
                _ => {
                    let t = self.new_task(org, id);
                    tx = tx.put(&t);
                    after.push((key, Some(t)));
                }
            }
        }
        // Sometimes a patch of an absent item: the whole transaction is
        // cancelled and writes nothing (not on moto: a cancelled
        // transaction there swaps the table's stream shard for a copy,
        // which open iterators no longer see).
        if self.full && self.rng.chance(15) {
            let (org, id) = self.pick();
            let key = key_of(&Task::from_parts(&org, &id));
            if !self.model.tasks.contains_key(&key) && !after.iter().any(|(k, _)| *k == key) {
                let ghost = Task::from_parts(&org, &id);
                tx = Self::tx_update(tx, &ghost, false);
                let err = tx.send().await.unwrap_err();
                assert!(err.is_condition_failed(), "{err}");
                return;
            }
        }
        tx.send().await.unwrap();
        for (key, t) in after {
            match t {
                Some(t) => self.model.write(t),
                None => self.model.delete(&key, false),
            }
        }
    }
}

trait FromParts {
    fn from_parts(org: &str, id: &str) -> Self;
}

impl FromParts for Task {
    fn from_parts(org: &str, id: &str) -> Self {
        Task {
            org: org.into(),
            id: id.into(),
            title: String::new(),
            flagged_by: None,
            expires_at: None,
        }
    }
}

fn received_key(c: &Change<OrgItem>) -> ItemKey {
    let s = |a: &str| c.keys[a].as_s().unwrap().clone();
    (s("pk"), s("sk"))
}

#[tokio::test]
async fn every_change_once_in_item_order_and_the_counts_equal_a_scan() {
    let b = backend();
    let embedded = b.is_embedded();
    let clock = ManualClock::new(START);
    let engine = if embedded {
        local::memory_with_clock(&clock).unwrap()
    } else {
        println!(
            "{}: no TTL sweep on demand and no cancelled transactions (see the comment in transaction())",
            backend_name(&b)
        );
        b
    };
    let steps: usize = std::env::var("DYNAKEY_CHANGES_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if embedded { 1000 } else { 150 });
    let seed: u64 = std::env::var("DYNAKEY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_c4a9);
    println!("{steps} writes, seed {seed}");
    let db = table(&engine, StreamView::NewAndOldImages).await;
    let decoder = ChangeDecoder::<OrgItem>::union().strict();
    let mut feed = db.changes(decoder.clone()).page_size(100);
    let mut got: Vec<Change<OrgItem>> = Vec::new();
    let mut w = Writer {
        db: &db,
        rng: Rng(seed.max(1)),
        model: Model::default(),
        now: START,
        full: embedded,
        step: 0,
    };
    let started = Instant::now();
    let mut sweeps = 0;
    for i in 1..=steps {
        w.step().await;
        if i % 37 == 0 {
            got.extend(feed.poll().await.unwrap());
        }
        if i == steps / 2 {
            // A restart: the new feed knows only the stored checkpoint.
            let saved = feed.checkpoint().to_json();
            feed = db
                .changes(decoder.clone())
                .page_size(100)
                .resume(Checkpoint::from_json(&saved).unwrap());
        }
        if embedded && i % 100 == 0 {
            clock.tick(Duration::from_secs(30));
            w.now += 30;
            let swept = engine.sweep_ttl().await.unwrap();
            let due: Vec<ItemKey> = w
                .model
                .tasks
                .iter()
                .filter(|(_, t)| {
                    t.expires_at
                        .is_some_and(|e| (e.unix_timestamp() as u64) < w.now)
                })
                .map(|(k, _)| k.clone())
                .collect();
            assert_eq!(
                swept,
                due.len(),
                "the sweep removes exactly the expired tasks"
            );
            sweeps += swept;
            for k in due {
                w.model.delete(&k, true);
            }
        }
    }
    let writing = started.elapsed();
    got.extend(feed.catch_up().await.unwrap());
    let model = w.model;
    println!(
        "{steps} writes in {writing:.2?} ({:.0}/s), {} changes ({sweeps} expiries) read in all in {:.2?}",
        steps as f64 / writing.as_secs_f64(),
        got.len(),
        started.elapsed()
    );

    // Exactly once, in order per item, each what the model says.
    assert_eq!(got.len(), model.changes, "as many changes as writes made");
    let mut per_item: HashMap<ItemKey, History> = HashMap::new();
    for c in &got {
        per_item
            .entry(received_key(c))
            .or_default()
            .push((c.kind.clone(), c.indexes.clone()));
    }
    let mut keys: Vec<_> = model.expected.keys().collect();
    keys.sort();
    for k in keys {
        assert_eq!(per_item.get(k), model.expected.get(k), "item {k:?}");
    }
    assert_eq!(per_item.len(), model.expected.len());

    // The Lambda handler, fed the same stream in batches of 100 records.
    let mut capture = StreamCapture::new(&db, engine.streams_client())
        .await
        .unwrap();
    let captured = capture.next_batch().await.unwrap();
    assert_eq!(captured.records.len(), got.len());
    let mut counts = TaskCounts::default();
    for chunk in captured.json.chunks(100) {
        let batch = dynakey_examples::stream_capture::Captured {
            records: vec![],
            json: chunk.to_vec(),
        };
        let event: Event =
            serde_json::from_value(batch.lambda_event_json(&capture.stream_arn)).unwrap();
        let response = handle(&event, &mut counts);
        assert!(response.batch_item_failures.is_empty());
    }
    let scanned: Vec<Task> = db.scan::<Task>().all().await.unwrap();
    let truth = TaskCounts::of_tasks(&scanned);
    assert_eq!(counts.tasks, truth.tasks, "tasks per org");
    assert_eq!(counts.flagged, truth.flagged, "flagged tasks per org");
    assert_eq!(counts.expired, model.expired, "expired tasks per org");
    assert_eq!(scanned.len(), model.tasks.len());
    println!(
        "per-org counts from the handler equal a full scan: {:?}",
        counts.tasks
    );
    done(&engine, &db).await;
}
