//! Records delivered at least once and out of order (Kinesis Data Streams
//! for DynamoDB) made into each change once, every item's changes in the
//! order they were made.
//!
//! AWS's advice for Kinesis (developerguide/kds.html): records may appear
//! in another sequence than the changes were made, and more than once;
//! `ApproximateCreationDateTime` gives the approximate order and identifies
//! duplicates.

use std::collections::{HashMap, HashSet};
use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::record::ChangeRecord;
use super::value::same_item;
use crate::codec::Item;

/// Drops duplicate records and orders every item's changes by the time
/// they were made (`ApproximateCreationDateTime`), as AWS advises for
/// Kinesis Data Streams, which delivers at least once and may reorder.
///
/// - **Duplicates**: two records with the same event id, or of the same
///   item, table, operation and time with the same images (compared by
///   value: `1E+2` is `100`) are one change; the first delivered is kept.
/// - **Order**: the result is in time order, so each item's changes are in
///   the order they were made. Changes of one item at the same time (a
///   millisecond-precision stream can stamp two writes alike) are put in
///   the order their images chain: the one whose old image is another's
///   new image comes after it (an insert first); where nothing tells, the
///   order delivered. Changes of different items at the same time keep the
///   order their items were first delivered in. Records without a time
///   (no source AWS documents leaves it out) come last, as delivered.
///
/// It orders one batch; across batches, apply a change only if it is newer
/// than what the target holds (a condition on the stored time), as with any
/// at-least-once source.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use aws_sdk_dynamodb::types::AttributeValue::{N, S};
/// use dynakey_runtime::changes::{dedupe_and_order, ChangeRecord, Operation};
/// let item = |v: &str| -> dynakey_runtime::Item {
///     [("pk".to_owned(), S("A".into())), ("v".to_owned(), N(v.into()))].into()
/// };
/// let keys: dynakey_runtime::Item = [("pk".to_owned(), S("A".into()))].into();
/// let at = |ms| UNIX_EPOCH + Duration::from_millis(ms);
/// let insert = ChangeRecord::new(Operation::Insert, keys.clone()).with_new(item("1")).with_created_at(at(10));
/// let modify = ChangeRecord::new(Operation::Modify, keys.clone())
///     .with_old(item("1")).with_new(item("2")).with_created_at(at(20));
/// let remove = ChangeRecord::new(Operation::Remove, keys).with_old(item("2")).with_created_at(at(20));
/// // Shuffled, with the insert delivered twice (once with `1E0` for `1`).
/// let dup = ChangeRecord::new(Operation::Insert, insert.keys.clone()).with_new(item("1E0")).with_created_at(at(10));
/// let delivered = vec![remove.clone(), modify.clone(), insert.clone(), dup];
/// let ops: Vec<Operation> = dedupe_and_order(delivered).iter().map(|r| r.op).collect();
/// assert_eq!(ops, [Operation::Insert, Operation::Modify, Operation::Remove]);
/// ```
pub fn dedupe_and_order(records: impl IntoIterator<Item = ChangeRecord>) -> Vec<ChangeRecord> {
    let mut kept: Vec<ChangeRecord> = Vec::new();
    let mut ids: HashSet<String> = HashSet::new();
    // Each item (by its identity) as a group of kept records, in the order
    // delivered; groups by first delivery.
    let mut group_of: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for r in records {
        if r.event_id.as_ref().is_some_and(|id| ids.contains(id)) {
            continue;
        }
        let next = groups.len();
        let g = *group_of.entry(identity(&r)).or_insert(next);
        if g == next {
            groups.push(Vec::new());
        }
        // A duplicate by content is of the same item at the same time.
        let same = |&i: &usize| kept[i].created_at == r.created_at && same_change(&kept[i], &r);
        if groups[g].iter().any(same) {
            continue;
        }
        ids.extend(r.event_id.clone());
        groups[g].push(kept.len());
        kept.push(r);
    }
    // (no time, time, item, rank within the item) for every record.
    let mut rank: Vec<(bool, Option<SystemTime>, usize, usize)> =
        vec![(true, None, 0, 0); kept.len()];
    for (g, members) in groups.iter().enumerate() {
        for (pos, i) in in_item_order(&kept, members).into_iter().enumerate() {
            rank[i] = (kept[i].created_at.is_none(), kept[i].created_at, g, pos);
        }
    }
    let mut order: Vec<usize> = (0..kept.len()).collect();
    order.sort_by_key(|&i| rank[i]);
    let mut slots: Vec<Option<ChangeRecord>> = kept.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// One item's records (indexes into `all`, as delivered) in the order made:
/// by time (untimed last), and at one time by how their images chain.
fn in_item_order(all: &[ChangeRecord], members: &[usize]) -> Vec<usize> {
    let mut sorted = members.to_vec();
    sorted.sort_by_key(|&i| (all[i].created_at.is_none(), all[i].created_at));
    let mut out = Vec::with_capacity(sorted.len());
    let mut start = 0;
    while start < sorted.len() {
        let t = all[sorted[start]].created_at;
        let end = start
            + sorted[start..]
                .iter()
                .take_while(|&&i| all[i].created_at == t)
                .count();
        out.extend(chained(all, &sorted[start..end]));
        start = end;
    }
    out
}

/// Records of one item at one time, each after the one whose new image is
/// its old image: repeatedly the first (as delivered) that no remaining
/// record leads to.
fn chained(all: &[ChangeRecord], tie: &[usize]) -> Vec<usize> {
    if tie.len() < 2 {
        return tie.to_vec();
    }
    let leads_to = |a: usize, b: usize| match (&all[a].new, &all[b].old) {
        (Some(n), Some(o)) => same_item(n, o),
        _ => false,
    };
    let mut left = tie.to_vec();
    let mut out = Vec::with_capacity(tie.len());
    while !left.is_empty() {
        let pick = left
            .iter()
            .position(|&b| !left.iter().any(|&a| a != b && leads_to(a, b)))
            // A cycle (A→B→A): nothing tells; keep the delivered order.
            .unwrap_or(0);
        out.push(left.remove(pick));
    }
    out
}

/// Whether two records of one item at one time are the same change.
fn same_change(a: &ChangeRecord, b: &ChangeRecord) -> bool {
    let same_image = |x: &Option<Item>, y: &Option<Item>| match (x, y) {
        (Some(x), Some(y)) => same_item(x, y),
        (None, None) => true,
        _ => false,
    };
    a.op == b.op
        && same_item(&a.keys, &b.keys)
        && same_image(&a.old, &b.old)
        && same_image(&a.new, &b.new)
}

/// The item a record is of, as text: its table and key attributes, numbers
/// by value.
fn identity(r: &ChangeRecord) -> String {
    item_identity(r.table.as_deref(), &r.keys)
}

/// An item's identity as text from its table and key attributes.
pub(crate) fn item_identity(table: Option<&str>, keys: &Item) -> String {
    use std::fmt::Write;
    let mut names: Vec<&String> = keys.keys().collect();
    names.sort_unstable();
    let table = table.unwrap_or("");
    let mut out = String::with_capacity(64);
    // Every part prefixed by its length, so no two identities run together.
    let _ = write!(out, "{}:{table}", table.len());
    for k in names {
        let number;
        let (tag, v): (&str, &[u8]) = match &keys[k] {
            AttributeValue::S(s) => ("S", s.as_bytes()),
            AttributeValue::N(n) => {
                number = crate::number::canonical(n);
                ("N", number.as_bytes())
            }
            AttributeValue::B(b) => ("B", b.as_ref()),
            // Not a key type: its debug text, still one identity per value.
            other => {
                let _ = write!(out, "{}:{k}?{other:?}", k.len());
                continue;
            }
        };
        let _ = write!(out, "{}:{k}{tag}{}:", k.len(), v.len());
        match std::str::from_utf8(v) {
            Ok(text) => out.push_str(text),
            Err(_) => v.iter().for_each(|b| {
                let _ = write!(out, "{b:02x}");
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changes::Operation;
    use aws_sdk_dynamodb::types::AttributeValue::{N, S};
    use std::time::{Duration, UNIX_EPOCH};

    fn keys(pk: &str) -> Item {
        [("pk".to_owned(), S(pk.into()))].into()
    }

    #[test]
    fn numbers_in_keys_are_one_item_by_value() {
        let a = ChangeRecord::new(
            Operation::Insert,
            [("pk".to_owned(), N("100".into()))].into(),
        );
        let b = ChangeRecord::new(
            Operation::Insert,
            [("pk".to_owned(), N("1E+2".into()))].into(),
        );
        assert_eq!(identity(&a), identity(&b));
        let mut other_table = b.clone();
        other_table.table = Some("t2".into());
        assert_ne!(identity(&a), identity(&other_table));
    }

    #[test]
    fn a_chain_at_one_time_is_put_in_order_and_untimed_records_last() {
        let at = UNIX_EPOCH + Duration::from_millis(5);
        let v = |x: &str| -> Item {
            [
                ("pk".to_owned(), S("A".into())),
                ("v".to_owned(), S(x.into())),
            ]
            .into()
        };
        let m = |a: &str, b: &str| {
            ChangeRecord::new(Operation::Modify, keys("A"))
                .with_old(v(a))
                .with_new(v(b))
                .with_created_at(at)
        };
        let untimed = ChangeRecord::new(Operation::Remove, keys("A")).with_old(v("z"));
        let out = dedupe_and_order(vec![untimed, m("b", "c"), m("c", "d"), m("a", "b")]);
        let news: Vec<_> = out
            .iter()
            .map(|r| r.new.as_ref().map(|n| n["v"].as_s().unwrap().clone()))
            .collect();
        assert_eq!(
            news,
            [Some("b".into()), Some("c".into()), Some("d".into()), None]
        );
    }

    #[test]
    fn the_same_event_id_is_one_change() {
        let r = ChangeRecord::new(Operation::Remove, keys("A")).with_event_id("e");
        let mut again = r.clone();
        again.created_at = Some(UNIX_EPOCH + Duration::from_secs(1));
        assert_eq!(dedupe_and_order(vec![r, again]).len(), 1);
    }
}
