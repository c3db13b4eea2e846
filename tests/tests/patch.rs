//! `db.patch(key, |e| ..)`, the one-call PATCH of an item (read, change,
//! one UpdateItem under its version or its key inputs as read), and a put
//! that returns the version it wrote, on every backend (the embedded
//! engine, and the server at `DYNAKEY_ENDPOINT`). A concurrent writer is
//! injected between a patch's read and its write at the HTTP layer: the
//! patch's client runs it just before sending its UpdateItem.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use dynakey::local::{self, Backend};
use dynakey::spy::Recorder;
use dynakey::{BoxFuture, Db, DynamoEntity, Entity, Error, Item};
use uuid::Uuid;

/// Stock in a warehouse, versioned; its pick path is `<zone>#<aisle>`.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "STOCK")]
#[pk("SHOP#<shop>")]
#[sk("SKU#<sku>")]
#[gsi("GSI1", pk = "SHOP#<shop>", sk = "<zone>#<aisle:d3>")]
struct Stock {
    shop: String,
    sku: String,
    zone: String,
    aisle: u32,
    qty: u32,
    note: Option<String>,
    #[dynamo(version)]
    version: u64,
}

/// A bin, not versioned, in a sparse index while it has both a zone and
/// an aisle.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "BIN")]
#[pk("SHOP#<shop>")]
#[sk("BIN#<id>")]
#[gsi("GSI1", pk = "SHOP#<shop>", sk = "<zone>#<aisle>", sparse)]
struct Bin {
    shop: String,
    id: String,
    zone: Option<String>,
    aisle: Option<String>,
    label: String,
}

/// A PATCH request's body.
#[derive(Default)]
struct StockPatch {
    zone: Option<String>,
    aisle: Option<u32>,
    qty: Option<u32>,
}

impl StockPatch {
    fn apply(&self, s: &mut Stock) {
        if let Some(z) = &self.zone {
            s.zone = z.clone();
        }
        if let Some(a) = self.aisle {
            s.aisle = a;
        }
        if let Some(q) = self.qty {
            s.qty = q;
        }
    }
}

struct Fixture {
    local: Backend,
    db: Db,
}

async fn fixture() -> Fixture {
    let local = local::from_env().expect("backend");
    let db = local.db(format!("p_{}", Uuid::new_v4().simple()));
    db.create_table(&[Stock::META, Bin::META])
        .await
        .expect("create table");
    Fixture { local, db }
}

fn stock() -> Stock {
    Stock {
        shop: "acme".into(),
        sku: "k1".into(),
        zone: "A".into(),
        aisle: 7,
        qty: 5,
        note: Some("fragile".into()),
        version: 0,
    }
}

fn bin(zone: Option<&str>, aisle: Option<&str>) -> Bin {
    Bin {
        shop: "acme".into(),
        id: "b1".into(),
        zone: zone.map(Into::into),
        aisle: aisle.map(Into::into),
        label: "top shelf".into(),
    }
}

/// The stored attributes of the item at `pk`/`sk`.
async fn raw(db: &Db, pk: &str, sk: &str) -> Item {
    let out = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .key("pk", AttributeValue::S(pk.into()))
        .key("sk", AttributeValue::S(sk.into()))
        .consistent_read(true)
        .send()
        .await
        .expect("get");
    out.item().cloned().expect("item exists")
}

/// `text` with its `#n` placeholders replaced by the names they stand for.
fn named(text: &str, names: &std::collections::BTreeMap<String, String>) -> String {
    let mut by_length: Vec<(&String, &String)> = names.iter().collect();
    by_length.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    by_length
        .into_iter()
        .fold(text.to_owned(), |t, (p, n)| t.replace(p.as_str(), n))
}

/// Writes queued by a test, each run just before the next UpdateItem the
/// hooked client sends: a writer that wins the race between a patch's read
/// and its write.
#[derive(Clone, Default)]
struct Interleave(Arc<Mutex<Vec<BoxFuture<'static, ()>>>>);

impl Interleave {
    fn before_next_update(&self, write: impl std::future::Future<Output = ()> + Send + 'static) {
        self.0.lock().unwrap().push(Box::pin(write));
    }

    /// `f`'s table through a client that runs the queued writes.
    fn db(&self, f: &Fixture) -> Db {
        let client = HookedClient {
            inner: SharedHttpClient::new(f.local.http_client()),
            queued: self.clone(),
        };
        let conf = f
            .local
            .config_builder()
            .http_client(SharedHttpClient::new(client))
            .build();
        Db::new(Client::from_conf(conf), f.db.table_name())
    }
}

impl std::fmt::Debug for Interleave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Interleave")
    }
}

#[derive(Debug)]
struct HookedClient {
    inner: SharedHttpClient,
    queued: Interleave,
}

impl HttpClient for HookedClient {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(HookedConnector {
            inner: self.inner.http_connector(settings, components),
            queued: self.queued.clone(),
        })
    }
}

#[derive(Debug)]
struct HookedConnector {
    inner: SharedHttpConnector,
    queued: Interleave,
}

impl HttpConnector for HookedConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let op = request.headers().get("x-amz-target").unwrap_or("");
        let first = if op.ends_with(".UpdateItem") {
            let mut q = self.queued.0.lock().unwrap();
            (!q.is_empty()).then(|| q.remove(0))
        } else {
            None
        };
        let inner = self.inner.clone();
        HttpConnectorFuture::new(async move {
            if let Some(write) = first {
                write.await;
            }
            inner.call(request).await
        })
    }
}

#[tokio::test]
async fn patch_of_one_input_of_a_two_input_key_rebuilds_that_key_only() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db);
    db.put(&stock()).await.unwrap();
    spy.clear();

    let p = StockPatch {
        zone: Some("B".into()),
        ..StockPatch::default()
    };
    let after = db
        .patch(Stock::key("acme", "k1").unwrap(), |s| p.apply(s))
        .await
        .unwrap()
        .expect("the item exists");
    let want = Stock {
        zone: "B".into(),
        version: 2,
        ..stock()
    };
    assert_eq!(after, want);

    // One read, one UpdateItem: it sets the zone, the index key and the
    // version, and nothing it did not change.
    assert_eq!(spy.operations(), ["GetItem", "UpdateItem"]);
    let sent = &spy.of("UpdateItem")[0].explain;
    let mut names: Vec<&str> = sent.names.values().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["gsi1sk", "pk", "version", "zone"]);
    // On the version read, and that the item exists.
    let cond = named(sent.condition.as_deref().unwrap(), &sent.names);
    assert!(
        cond.starts_with("(attribute_exists(pk)) AND (version = :v"),
        "{cond}"
    );

    // The index finds it under its new key, and no longer under the old.
    for (zone, found) in [("B", vec![want.clone()]), ("A", vec![])] {
        let sk = Stock::gsi1_sk().zone(zone).begins_with().unwrap();
        let q = db.query(Stock::gsi1_pk("acme").unwrap()).sk(sk);
        assert_eq!(q.all().await.unwrap(), found, "zone {zone}");
    }
    let item = raw(&db, "SHOP#acme", "SKU#k1").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), "B#007");
    assert_eq!(item["qty"].as_n().unwrap(), "5");
    assert_eq!(item["note"].as_s().unwrap(), "fragile");

    // The aisle alone, then both: the key follows each time.
    let p = StockPatch {
        aisle: Some(12),
        qty: Some(4),
        ..StockPatch::default()
    };
    let after = db
        .patch(Stock::key("acme", "k1").unwrap(), |s| p.apply(s))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((after.aisle, after.qty, after.version), (12, 4, 3));
    let item = raw(&db, "SHOP#acme", "SKU#k1").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), "B#012");
}

#[tokio::test]
async fn patch_of_a_missing_item_is_none_and_creates_nothing() {
    let f = fixture().await;
    let key = Stock::key("acme", "nope").unwrap();
    let mut ran = 0;
    let out = f.db.patch(key.clone(), |s| {
        ran += 1;
        s.qty = 1;
    });
    assert_eq!(out.await.unwrap(), None);
    assert_eq!(ran, 0);
    assert_eq!(f.db.get(key).consistent().await.unwrap(), None);
}

#[tokio::test]
async fn patch_that_changes_nothing_writes_nothing() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db);
    db.put(&stock()).await.unwrap();
    spy.clear();
    let same = db
        .patch(Stock::key("acme", "k1").unwrap(), |s| s.zone = "A".into())
        .await
        .unwrap();
    assert_eq!(
        same,
        Some(Stock {
            version: 1,
            ..stock()
        })
    );
    assert_eq!(spy.operations(), ["GetItem"]);
}

#[tokio::test]
async fn versioned_patch_retries_a_race_and_keeps_the_key_right() {
    let f = fixture().await;
    f.db.put(&stock()).await.unwrap();
    let race = Interleave::default();
    let db = race.db(&f);
    // Between the patch's read and its write, another writer moves the
    // item to aisle 9 (and bumps the version).
    let other = f.db.clone();
    race.before_next_update(async move {
        other
            .update(Stock::update("acme", "k1").set_gsi1_sk("A", 9u32))
            .await
            .unwrap();
    });
    let runs = AtomicU32::new(0);
    let after = db
        .patch(Stock::key("acme", "k1").unwrap(), |s| {
            runs.fetch_add(1, Ordering::Relaxed);
            s.zone = "B".into();
        })
        .await
        .unwrap()
        .unwrap();
    // The first write was refused; the second ran on the item as it had
    // become, so both changes hold and the index key is built from both.
    assert_eq!(runs.load(Ordering::Relaxed), 2);
    assert_eq!(
        (after.zone.as_str(), after.aisle, after.version),
        ("B", 9, 3)
    );
    let item = raw(&f.db, "SHOP#acme", "SKU#k1").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), "B#009");
}

#[tokio::test]
async fn versioned_patch_with_one_attempt_fails_on_a_race_and_writes_nothing() {
    let f = fixture().await;
    f.db.put(&stock()).await.unwrap();
    let race = Interleave::default();
    let db = race.db(&f);
    let other = f.db.clone();
    race.before_next_update(async move {
        other
            .update(Stock::update("acme", "k1").set_qty(9u32))
            .await
            .unwrap();
    });
    let err = db
        .patch(Stock::key("acme", "k1").unwrap(), |s| s.zone = "B".into())
        .attempts(1)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }), "{err:?}");
    let now = f.db.get(Stock::key("acme", "k1").unwrap()).consistent();
    let now = now.await.unwrap().unwrap();
    assert_eq!((now.zone.as_str(), now.qty, now.version), ("A", 9, 2));
    let item = raw(&f.db, "SHOP#acme", "SKU#k1").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), "A#007");
}

#[tokio::test]
async fn unversioned_patch_detects_a_change_of_the_keys_other_input() {
    let f = fixture().await;
    // No aisle yet: the bin is out of the sparse index.
    f.db.put(&bin(Some("A"), None)).await.unwrap();
    let race = Interleave::default();
    let db = race.db(&f);
    // Between the read and the write, another writer gives it an aisle:
    // the key "A#3" appears. A patch that wrote only its zone would leave
    // "A#3" where "B#3" belongs.
    let other = f.db.clone();
    race.before_next_update(async move {
        other
            .update(Bin::update("acme", "b1").set_gsi1_sk("A", "3"))
            .await
            .unwrap();
    });
    let runs = AtomicU32::new(0);
    let after = db
        .patch(Bin::key("acme", "b1").unwrap(), |b| {
            runs.fetch_add(1, Ordering::Relaxed);
            b.zone = Some("B".into());
        })
        .attempts(1)
        .await;
    assert!(
        matches!(after, Err(Error::ConditionFailed { .. })),
        "{after:?}"
    );
    assert_eq!(runs.load(Ordering::Relaxed), 1);
    let item = raw(&f.db, "SHOP#acme", "BIN#b1").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), "A#3");

    // With retries (the default) it runs again on the item as it is now.
    let other = f.db.clone();
    race.before_next_update(async move {
        other
            .update(Bin::update("acme", "b1").set_gsi1_sk("A", "4"))
            .await
            .unwrap();
    });
    let after = db
        .patch(Bin::key("acme", "b1").unwrap(), |b| {
            b.zone = Some("B".into())
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after, bin(Some("B"), Some("4")));
    let item = raw(&f.db, "SHOP#acme", "BIN#b1").await;
    assert_eq!(item["gsi1sk"].as_s().unwrap(), "B#4");
    let found =
        f.db.query(Bin::gsi1_pk("acme").unwrap())
            .all()
            .await
            .unwrap();
    assert_eq!(found, [after]);
}

#[tokio::test]
async fn unversioned_patch_leaves_what_it_did_not_change_to_other_writers() {
    let f = fixture().await;
    f.db.put(&bin(Some("A"), Some("1"))).await.unwrap();
    let race = Interleave::default();
    let db = race.db(&f);
    // A concurrent relabel touches no key input: no race, and the patch
    // does not write the label it read back over it.
    let other = f.db.clone();
    race.before_next_update(async move {
        other
            .update(Bin::update("acme", "b1").set_label("bottom shelf"))
            .await
            .unwrap();
    });
    let runs = AtomicU32::new(0);
    let after = db
        .patch(Bin::key("acme", "b1").unwrap(), |b| {
            runs.fetch_add(1, Ordering::Relaxed);
            b.aisle = None;
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(runs.load(Ordering::Relaxed), 1);
    assert_eq!(
        after,
        Bin {
            label: "bottom shelf".into(),
            ..bin(Some("A"), None)
        }
    );
    // The aisle gone, the bin left the sparse index.
    let item = raw(&f.db, "SHOP#acme", "BIN#b1").await;
    assert!(!item.contains_key("gsi1sk") && !item.contains_key("aisle"));
    assert_eq!(
        f.db.query(Bin::gsi1_pk("acme").unwrap())
            .count()
            .await
            .unwrap(),
        0
    );
}

#[tokio::test]
async fn patch_refuses_a_table_key_change_and_its_own_failed_condition() {
    let f = fixture().await;
    f.db.put(&stock()).await.unwrap();
    let err =
        f.db.patch(Stock::key("acme", "k1").unwrap(), |s| s.sku = "k2".into())
            .await
            .unwrap_err();
    let Error::Refused {
        reason: dynakey::RefusedReason::TableKeyChanged,
        message,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert!(message.contains("table key `sk`"), "{message}");
    assert!(message.contains("\"SKU#k1\" to \"SKU#k2\""), "{message}");

    // An If-Match on a stale version fails at once: the item did not
    // change since the read, so running the closure again would not help.
    let runs = AtomicU32::new(0);
    let err =
        f.db.patch(Stock::key("acme", "k1").unwrap(), |s| {
            runs.fetch_add(1, Ordering::Relaxed);
            s.qty = 0;
        })
        .condition(Stock::attrs().version.eq(7u64))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ConditionFailed { .. }), "{err:?}");
    assert_eq!(runs.load(Ordering::Relaxed), 1);
    let now = f.db.get(Stock::key("acme", "k1").unwrap()).await.unwrap();
    assert_eq!(now.unwrap().version, 1);
}

#[tokio::test]
async fn versioned_put_returns_the_version_it_wrote() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db);
    let first = db.put(&stock()).return_new().await.unwrap().unwrap();
    assert_eq!(first.version, 1);
    // The next write starts from what the put returned: no read between.
    let edited = Stock { qty: 6, ..first };
    let second = db.put(&edited).return_new().await.unwrap().unwrap();
    assert_eq!((second.qty, second.version), (6, 2));
    assert_eq!(spy.operations(), ["PutItem", "PutItem"]);
    let stored = db.get(Stock::key("acme", "k1").unwrap()).consistent();
    assert_eq!(stored.await.unwrap(), Some(second));
    // A put not asked for it still resolves to nothing, and `return_old`
    // to the item replaced.
    assert_eq!(db.put(&bin(None, None)).await.unwrap(), None);
    let relabelled = Bin {
        label: "x".into(),
        ..bin(None, None)
    };
    assert_eq!(
        db.put(&relabelled).return_old().await.unwrap(),
        Some(bin(None, None))
    );
    assert_eq!(
        db.put(&bin(None, None)).return_new().await.unwrap(),
        Some(bin(None, None))
    );
}

#[tokio::test]
async fn patch_refuses_an_item_a_put_would_refuse() {
    let f = fixture().await;
    let spy = Recorder::new();
    let db = spy.db(&f.db);
    db.put(&stock()).await.unwrap();
    spy.clear();
    let err = db
        .patch(Stock::key("acme", "k1").unwrap(), |s| {
            s.note = Some("x".repeat(410_000));
        })
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ItemTooLarge { .. }), "{err:?}");
    assert_eq!(spy.operations(), ["GetItem"], "nothing written");
}
