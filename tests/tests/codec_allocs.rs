//! Heap allocations of the item codec, counted by a global allocator, on
//! the codec benchmark's item: `to_item` makes exactly the allocations
//! the item it returns holds (the map's table, every name, every text
//! and every non-empty list, map and set: nothing grown, nothing thrown
//! away), and `from_item` exactly those of the struct it returns.
//! `--nocapture` prints them beside serde_dynamo's (whose item lacks the
//! three key attributes, and whose decoder consumes the item, moving its
//! strings instead of copying them). Beside them, `from_item` (which finds
//! attributes in a list of the item's entries) against lookups by name in
//! the map, on broken and on wide items.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use aws_sdk_dynamodb::types::AttributeValue;
use dynakey::{Entity, Item};
use dynakey_tests::codec_sample::{from_item_by_name, sample, Profile};

/// The system allocator, counting the allocations of the thread that
/// asks (tests run on threads of their own).
struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is an allocation the first one did not foresee.
        ALLOCS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread, and its result.
fn count<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCS.with(Cell::get);
    let out = f();
    (ALLOCS.with(Cell::get) - before, out)
}

/// The heap blocks a value holds: one per non-empty string, list, set
/// and map (a map: one table), and those of what they hold.
fn value_blocks(v: &AttributeValue) -> usize {
    let text = |s: &str| usize::from(!s.is_empty());
    match v {
        AttributeValue::S(s) | AttributeValue::N(s) => text(s),
        AttributeValue::B(b) => usize::from(!b.as_ref().is_empty()),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 0,
        AttributeValue::Ss(l) | AttributeValue::Ns(l) => {
            usize::from(!l.is_empty()) + l.iter().map(|s| text(s)).sum::<usize>()
        }
        AttributeValue::L(l) => {
            usize::from(!l.is_empty()) + l.iter().map(value_blocks).sum::<usize>()
        }
        AttributeValue::M(m) => item_blocks(m),
        other => panic!("not in the sample: {other:?}"),
    }
}

/// The heap blocks of an item: its table, its names and its values.
fn item_blocks(item: &Item) -> usize {
    usize::from(!item.is_empty())
        + item
            .iter()
            .map(|(k, v)| usize::from(!k.is_empty()) + value_blocks(v))
            .sum::<usize>()
}

/// The heap blocks of a decoded profile.
fn profile_blocks(p: &Profile) -> usize {
    let text = |s: &str| usize::from(!s.is_empty());
    text(&p.id)
        + text(&p.name)
        + text(&p.email)
        + p.nickname.as_deref().map_or(0, text)
        + usize::from(!p.tags.is_empty())
        + p.tags.iter().map(|t| text(t)).sum::<usize>()
        + usize::from(!p.counts.is_empty())
        + p.counts.keys().map(|k| text(k)).sum::<usize>()
}

#[test]
fn the_codec_allocates_only_what_its_result_holds() {
    let p = sample();
    // The first call makes the per-type template; count a later one.
    let _ = p.to_item().unwrap();
    let (encode, item) = count(|| p.to_item().unwrap());
    let (decode, back) = count(|| Profile::from_item(&item).unwrap());
    assert_eq!(back, p);
    let (serde_encode, theirs) = count(|| serde_dynamo::to_item::<_, Item>(&p).unwrap());
    let owned = theirs.clone();
    let (serde_decode, _) = count(|| serde_dynamo::from_item::<_, Profile>(owned).unwrap());

    println!(
        "allocations per item: to_item {encode} (its item holds {}), serde_dynamo {serde_encode}; \
         from_item {decode} (the struct holds {}), serde_dynamo {serde_decode}",
        item_blocks(&item),
        profile_blocks(&back)
    );
    assert_eq!(encode, item_blocks(&item), "to_item");
    assert_eq!(decode, profile_blocks(&back), "from_item");
}

#[test]
fn from_item_reads_what_lookups_by_name_read() {
    let item = sample().to_item().unwrap();
    let mut cases: Vec<Item> = vec![item.clone()];
    for name in ["name", "tags", "created", "_type", "nickname", "counts"] {
        let mut broken = item.clone();
        broken.remove(name);
        cases.push(broken);
    }
    for (name, v) in [
        ("age", AttributeValue::S("37".into())),
        ("age", AttributeValue::N("-1".into())),
        ("age", AttributeValue::N("4294967296".into())),
        ("score", AttributeValue::N("1e400x".into())),
        ("created", AttributeValue::N("9223372036854775808".into())),
        (
            "tags",
            AttributeValue::L(vec![AttributeValue::N("1".into())]),
        ),
        ("tags", AttributeValue::Ss(vec!["a b".into(), "#".into()])),
        (
            "counts",
            AttributeValue::M([("k".to_owned(), AttributeValue::S("x".into()))].into()),
        ),
        ("counts", AttributeValue::M(Item::new())),
        ("_type", AttributeValue::S("OTHER".into())),
        ("_type", AttributeValue::N("1".into())),
        ("nickname", AttributeValue::Null(true)),
        ("nickname", AttributeValue::S(String::new())),
        ("", AttributeValue::S("an empty name".into())),
        ("nick name", AttributeValue::S("a near miss".into())),
    ] {
        let mut broken = item.clone();
        broken.insert(name.into(), v);
        cases.push(broken);
    }
    // Items of more attributes than the reader lists (other writers'
    // extras), good and broken.
    for extra in [3, 4, 100] {
        let mut wide = item.clone();
        for i in 0..extra {
            wide.insert(format!("extra {i}"), AttributeValue::Bool(true));
        }
        cases.push(wide.clone());
        wide.insert("age".into(), AttributeValue::S("x".into()));
        cases.push(wide);
    }
    for case in &cases {
        assert_eq!(
            Profile::from_item(case),
            from_item_by_name(case),
            "{case:?}"
        );
    }
}
