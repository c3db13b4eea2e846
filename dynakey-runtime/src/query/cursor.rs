//! Page cursors: opaque, URL-safe text that says where each partition (or
//! scan segment) of a read resumes — after the key of the last item
//! returned, at its start, or nowhere when it is exhausted — and how many
//! items the read returned so far (for its `limit`).
//!
//! A cursor comes back from whoever it was handed to, so nothing in it is
//! trusted: it carries an HMAC tag (see `cursor_key.rs`) over its contents
//! and over the read it was made by, so a cursor of another read (another
//! table, index, partition, sort-key condition, direction, filter or
//! segmenting of a scan) or an altered one is refused; and every field is
//! checked again after the tag (a count within the read's limit, start keys
//! of exactly the read's key attributes, inside its partition and its
//! sort-key range), so even a cursor signed by mistake cannot widen a read.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{json, Value};

use super::page::Position;
use crate::codec::Item;
use crate::cursor_key::{CursorKey, TAG_BYTES};
use crate::entity::KeyAttrType;
use crate::error::{Error, RefusedReason, MAX_PARTITION_KEY_BYTES};
use crate::expr::Placeholders;
use crate::key::{compare_key_values, NativeRange, SortKeyOp};

/// What the tag of a cursor starts with: its format, so a later format's
/// cursors never read as this one's.
const DOMAIN: &[u8] = b"dynakey page cursor v1";

/// What one lane of a read is, for its cursors: the canonical form of its
/// request (what the tag covers) and what its start keys must look like.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    /// The request's identity, canonically encoded.
    binding: Vec<u8>,
    /// The key attributes of an `ExclusiveStartKey` of the lane.
    pub(crate) key_attrs: Vec<&'static str>,
    /// A query's partition: every partition attribute and its value.
    partition: Vec<(&'static str, AttributeValue)>,
    /// A query's sort-key condition: its attribute and comparison.
    sort: Option<(&'static str, SortKeyOp)>,
}

/// A query lane's request, as its cursors are bound to it.
pub(crate) struct QueryScope<'a> {
    pub table: &'a str,
    pub index: Option<&'a str>,
    pub key_condition: &'a str,
    pub filter: Option<&'a str>,
    pub projection: Option<&'a str>,
    pub forward: bool,
    pub partition: &'a [(&'static str, AttributeValue)],
    pub sort: Option<(&'static str, &'a SortKeyOp)>,
}

/// A scan segment's request, as its cursors are bound to it.
pub(crate) struct ScanScope<'a> {
    pub table: &'a str,
    pub filter: Option<&'a str>,
    pub projection: Option<&'a str>,
    /// This segment, of how many.
    pub segment: (u32, u32),
}

impl Scope {
    /// The scope of a query: `cx` holds the names and values of its key
    /// condition, filter and projection.
    pub(crate) fn query(
        q: QueryScope<'_>,
        cx: &Placeholders,
        key_attrs: Vec<&'static str>,
    ) -> Self {
        let mut c = Canon::default();
        c.str("query");
        c.str(q.table);
        c.opt(q.index);
        c.str(q.key_condition);
        c.opt(q.filter);
        c.opt(q.projection);
        c.str(if q.forward { "forward" } else { "backward" });
        c.placeholders(cx);
        Scope {
            binding: c.0,
            key_attrs,
            partition: q.partition.to_vec(),
            sort: q.sort.map(|(a, op)| (a, op.clone())),
        }
    }

    /// The scope of a segment of a scan.
    pub(crate) fn scan(s: ScanScope<'_>, cx: &Placeholders, key_attrs: Vec<&'static str>) -> Self {
        let mut c = Canon::default();
        c.str("scan");
        c.str(s.table);
        c.opt(s.filter);
        c.opt(s.projection);
        c.str(&format!("{}/{}", s.segment.0, s.segment.1));
        c.placeholders(cx);
        Scope {
            binding: c.0,
            key_attrs,
            partition: Vec::new(),
            sort: None,
        }
    }

    /// Why `key` cannot be where this lane resumes, if it cannot.
    fn refuse_start(&self, key: &Item) -> Option<String> {
        let fits = |v: &AttributeValue| match v {
            AttributeValue::S(s) => !s.is_empty() && s.len() <= MAX_PARTITION_KEY_BYTES,
            AttributeValue::N(n) => crate::number::number_problem(n).is_none(),
            AttributeValue::B(b) => {
                !b.as_ref().is_empty() && b.as_ref().len() <= MAX_PARTITION_KEY_BYTES
            }
            _ => false,
        };
        let shaped = key.len() == self.key_attrs.len()
            && self.key_attrs.iter().all(|a| key.get(*a).is_some_and(fits));
        if !shaped {
            return Some(format!(
                "its start key is not a key of this read (attributes {})",
                self.key_attrs.join(", ")
            ));
        }
        let same = |a: &str, v: &AttributeValue| {
            key.get(a).is_some_and(|k| {
                KeyAttrType::of(k) == KeyAttrType::of(v) && compare_key_values(k, v).is_eq()
            })
        };
        if !self.partition.iter().all(|(a, v)| same(a, v)) {
            return Some("its start key is outside the read's partition".into());
        }
        // Each kind of condition is checked for what it is: `All` names a
        // native index's first sort attribute too, whose type may be N or
        // B, so only the template comparisons ask for an S sort key.
        let inside = match &self.sort {
            // No condition, or every key of the partition (shape and
            // partition are checked above).
            None | Some((_, SortKeyOp::All)) => true,
            // A read that selects nothing sends nothing and hands out no
            // cursor to resume.
            Some((_, SortKeyOp::Empty)) => false,
            Some((_, SortKeyOp::Native(op))) => {
                op.eq.iter().all(|(a, v)| same(a, v))
                    && op
                        .range
                        .as_ref()
                        .is_none_or(|(a, r)| key.get(*a).is_some_and(|k| in_range(r, k)))
            }
            Some((
                attr,
                op @ (SortKeyOp::Eq(_)
                | SortKeyOp::Lt(_)
                | SortKeyOp::Le(_)
                | SortKeyOp::Gt(_)
                | SortKeyOp::Ge(_)
                | SortKeyOp::Between(..)
                | SortKeyOp::BeginsWith(_)),
            )) => {
                matches!(key.get(*attr), Some(AttributeValue::S(s)) if op.matches(s))
            }
        };
        if !inside {
            return Some("its start key is outside the read's sort-key range".into());
        }
        None
    }
}

/// Whether `v` satisfies a native sort attribute's range.
fn in_range(r: &NativeRange, v: &AttributeValue) -> bool {
    let cmp = |b: &AttributeValue| {
        (KeyAttrType::of(v) == KeyAttrType::of(b)).then(|| compare_key_values(v, b))
    };
    match r {
        NativeRange::Lt(b) => cmp(b).is_some_and(|o| o.is_lt()),
        NativeRange::Le(b) => cmp(b).is_some_and(|o| o.is_le()),
        NativeRange::Gt(b) => cmp(b).is_some_and(|o| o.is_gt()),
        NativeRange::Ge(b) => cmp(b).is_some_and(|o| o.is_ge()),
        NativeRange::Between(lo, hi) => {
            cmp(lo).is_some_and(|o| o.is_ge()) && cmp(hi).is_some_and(|o| o.is_le())
        }
        NativeRange::BeginsWith(p) => match (v, p) {
            (AttributeValue::S(s), AttributeValue::S(p)) => s.starts_with(p.as_str()),
            (AttributeValue::B(b), AttributeValue::B(p)) => b.as_ref().starts_with(p.as_ref()),
            _ => false,
        },
    }
}

/// A length-prefixed, order-independent encoding of a request's parts: two
/// different requests never encode alike.
#[derive(Default)]
struct Canon(Vec<u8>);

impl Canon {
    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(&(b.len() as u64).to_be_bytes());
        self.0.extend_from_slice(b);
    }

    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    fn opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.0.push(1);
                self.str(s);
            }
            None => self.0.push(0),
        }
    }

    fn count(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_be_bytes());
    }

    /// The names and values, sorted by placeholder.
    fn placeholders(&mut self, cx: &Placeholders) {
        let mut names: Vec<(String, String)> = cx.names().unwrap_or_default().into_iter().collect();
        names.sort();
        self.count(names.len());
        for (p, n) in &names {
            self.str(p);
            self.str(n);
        }
        let values = cx.values().unwrap_or_default();
        let mut keys: Vec<&String> = values.keys().collect();
        keys.sort();
        self.count(keys.len());
        for k in keys {
            self.str(k);
            self.value(&values[k]);
        }
    }

    /// A set's members, in order.
    fn members(&mut self, items: &[String]) {
        let mut v: Vec<&String> = items.iter().collect();
        v.sort();
        self.count(v.len());
        v.into_iter().for_each(|s| self.str(s));
    }

    fn value(&mut self, v: &AttributeValue) {
        match v {
            AttributeValue::S(s) => {
                self.0.push(b's');
                self.str(s);
            }
            AttributeValue::N(n) => {
                self.0.push(b'n');
                self.str(n);
            }
            AttributeValue::B(b) => {
                self.0.push(b'b');
                self.bytes(b.as_ref());
            }
            AttributeValue::Bool(b) => self.0.push(if *b { b't' } else { b'f' }),
            AttributeValue::Null(_) => self.0.push(b'z'),
            AttributeValue::L(l) => {
                self.0.push(b'l');
                self.count(l.len());
                for x in l {
                    self.value(x);
                }
            }
            AttributeValue::M(m) => {
                self.0.push(b'm');
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                self.count(keys.len());
                for k in keys {
                    self.str(k);
                    self.value(&m[k]);
                }
            }
            AttributeValue::Ss(ss) => {
                self.0.push(b'S');
                self.members(ss);
            }
            AttributeValue::Ns(ns) => {
                self.0.push(b'N');
                self.members(ns);
            }
            AttributeValue::Bs(bs) => {
                self.0.push(b'B');
                let mut bs: Vec<&[u8]> = bs.iter().map(|b| b.as_ref()).collect();
                bs.sort();
                self.count(bs.len());
                bs.into_iter().for_each(|b| self.bytes(b));
            }
            other => {
                self.0.push(b'?');
                self.str(&format!("{other:?}"));
            }
        }
    }
}

/// The parts the tag of a cursor of `scopes` holding `payload` covers.
fn tagged<'a>(scopes: &'a [&'a Scope], payload: &'a [u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::with_capacity(scopes.len() + 2);
    parts.push(DOMAIN);
    parts.extend(scopes.iter().map(|s| s.binding.as_slice()));
    parts.push(payload);
    parts
}

/// The cursor of a read of `scopes` at `lanes`, having returned `returned`
/// items.
pub(crate) fn encode_cursor(
    key: &CursorKey,
    scopes: &[&Scope],
    lanes: &[Position],
    returned: usize,
) -> String {
    let lanes: Vec<Value> = lanes
        .iter()
        .map(|p| match p {
            Position::At(None) => Value::Null,
            Position::At(Some(k)) => key_json(k),
            Position::Done => Value::Bool(false),
        })
        .collect();
    let payload = json!({ "n": returned, "l": lanes })
        .to_string()
        .into_bytes();
    let tag = key.tag(&tagged(scopes, &payload));
    let mut bytes = Vec::with_capacity(TAG_BYTES + payload.len());
    bytes.extend_from_slice(&tag);
    bytes.extend_from_slice(&payload);
    b64(&bytes)
}

/// Reads a cursor of a read of `scopes` whose `limit` caps the items it
/// returns: every lane's position, and the items returned so far. Anything
/// but a cursor this read made under `key` is [`Error::Refused`].
pub(crate) fn decode_cursor(
    key: &CursorKey,
    scopes: &[&Scope],
    limit: Option<usize>,
    cursor: &str,
) -> Result<(Vec<Position>, usize), Error> {
    let shown = || {
        let head: String = cursor.chars().take(24).collect();
        if head.len() < cursor.len() {
            format!("{head:?}…")
        } else {
            format!("{head:?}")
        }
    };
    let bad = |why: &str| {
        Error::refused(
            RefusedReason::ForeignCursor,
            format!("the cursor {} {why}", shown()),
        )
    };
    let bytes = unb64(cursor).ok_or_else(|| bad("is not a dynakey cursor"))?;
    if bytes.len() <= TAG_BYTES {
        return Err(bad("is not a dynakey cursor"));
    }
    let (tag, payload) = bytes.split_at(TAG_BYTES);
    if !key.verify(&tagged(scopes, payload), tag) {
        return Err(bad(
            "was not made by this read (another table, index, partition, sort-key condition, direction, filter, projection or scan), or was altered, or made under another cursor key",
        ));
    }
    let malformed = || bad("is malformed");
    let value: Value = serde_json::from_slice(payload).map_err(|_| malformed())?;
    let returned = value
        .get("n")
        .and_then(Value::as_u64)
        .ok_or_else(malformed)?;
    let returned = usize::try_from(returned).map_err(|_| malformed())?;
    if let Some(limit) = limit.filter(|l| returned > *l) {
        return Err(bad(&format!(
            "says {returned} items were returned, more than the read's limit of {limit}"
        )));
    }
    let list = value
        .get("l")
        .and_then(Value::as_array)
        .ok_or_else(malformed)?;
    if list.len() != scopes.len() {
        return Err(bad(&format!(
            "is of a read of {} partition(s) or segment(s), this one reads {}",
            list.len(),
            scopes.len()
        )));
    }
    list.iter()
        .zip(scopes)
        .map(|(v, scope)| match v {
            Value::Null => Ok(Position::At(None)),
            Value::Bool(false) => Ok(Position::Done),
            Value::Object(_) => {
                let k = json_key(v).ok_or_else(malformed)?;
                match scope.refuse_start(&k) {
                    Some(why) => Err(bad(&why)),
                    None => Ok(Position::At(Some(k))),
                }
            }
            _ => Err(malformed()),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|p| (p, returned))
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn b64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn unb64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.as_bytes().chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = ALPHABET.iter().position(|a| a == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        // The bits past the last byte must be zero: one text per cursor.
        if n & ((1 << (24 - 8 * (chunk.len() - 1))) - 1) != 0 {
            return None;
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A key (attributes S, N or B) as JSON.
fn key_json(key: &Item) -> Value {
    let mut map = serde_json::Map::new();
    let mut names: Vec<&String> = key.keys().collect();
    names.sort();
    for k in names {
        let v = match &key[k] {
            AttributeValue::S(s) => json!({ "S": s }),
            AttributeValue::N(n) => json!({ "N": n }),
            AttributeValue::B(b) => json!({ "B": hex(b.as_ref()) }),
            _ => continue,
        };
        map.insert(k.clone(), v);
    }
    Value::Object(map)
}

/// A key read back from [`key_json`].
fn json_key(v: &Value) -> Option<Item> {
    let obj = v.as_object()?;
    let mut out = HashMap::with_capacity(obj.len());
    for (k, v) in obj {
        let o = v.as_object().filter(|o| o.len() == 1)?;
        let (t, x) = o.iter().next()?;
        let x = x.as_str()?;
        let av = match t.as_str() {
            "S" => AttributeValue::S(x.to_owned()),
            "N" => AttributeValue::N(x.to_owned()),
            "B" => AttributeValue::B(Blob::new(unhex(x)?)),
            _ => return None,
        };
        out.insert(k.clone(), av);
    }
    Some(out)
}

#[cfg(test)]
#[path = "cursor_tests.rs"]
mod tests;
