//! Pages and their cursors. A cursor is opaque, URL-safe text: where each
//! partition (or scan segment) of the read resumes — after the key of the
//! last item returned, at its start, or nowhere when it is exhausted — and
//! how many items the read returned so far (for its `limit`).

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{json, Value};

use crate::codec::Item;
use crate::error::Error;

/// One page of results and the cursor of the next (`None` on the last).
///
/// A page holds `page_size` items unless the read ends (or reaches its
/// `limit`) first, and its cursor resumes right after its last item. The
/// last page may be empty when the one before it was exactly full: only a
/// read tells that nothing follows.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32 }
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 1..=5 {
///     db.put(&Note { user: "ann".into(), id }).await.unwrap();
/// }
/// let q = db.query(Note::pk("ann").unwrap()).page_size(2);
/// let first = q.page(None).await.unwrap();
/// assert_eq!(first.items.len(), 2);
/// assert!(!first.is_last());
/// let second = q.page(first.cursor.as_deref()).await.unwrap();
/// assert_eq!(second.items[0].id, 3);
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Page<T> {
    /// The items.
    pub items: Vec<T>,
    /// An opaque cursor for the next `page(..)` of the same read; `None`
    /// when nothing follows.
    pub cursor: Option<String>,
}

impl<T> Page<T> {
    /// Whether this is the last page.
    pub fn is_last(&self) -> bool {
        self.cursor.is_none()
    }
}

/// Where one partition or segment of a read resumes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Position {
    /// After this key (`ExclusiveStartKey`); `None` at the start.
    At(Option<Item>),
    /// Nothing is left.
    Done,
}

/// A cursor: every lane's position, and the items returned so far.
pub(crate) fn encode_cursor(lanes: &[Position], returned: usize) -> String {
    let lanes: Vec<Value> = lanes
        .iter()
        .map(|p| match p {
            Position::At(None) => Value::Null,
            Position::At(Some(k)) => key_json(k),
            Position::Done => Value::Bool(false),
        })
        .collect();
    b64(json!({ "n": returned, "l": lanes }).to_string().as_bytes())
}

/// Reads a cursor of a read of `lanes` partitions or segments.
pub(crate) fn decode_cursor(cursor: &str, lanes: usize) -> Result<(Vec<Position>, usize), Error> {
    let bad = || Error::refused(format!("not a dynakey cursor: {cursor:?}"));
    let bytes = unb64(cursor).ok_or_else(bad)?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    let returned = value.get("n").and_then(Value::as_u64).ok_or_else(bad)? as usize;
    let list = value.get("l").and_then(Value::as_array).ok_or_else(bad)?;
    if list.len() != lanes {
        return Err(Error::refused(format!(
            "the cursor is of a read of {} partition(s) or segment(s), this one reads {lanes}",
            list.len()
        )));
    }
    let positions = list
        .iter()
        .map(|v| match v {
            Value::Null => Ok(Position::At(None)),
            Value::Bool(false) => Ok(Position::Done),
            Value::Object(_) => json_key(v).map(|k| Position::At(Some(k))).ok_or_else(bad),
            _ => Err(bad()),
        })
        .collect::<Result<_, _>>()?;
    Ok((positions, returned))
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
        let (t, x) = v.as_object().and_then(|o| o.iter().next())?;
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
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in ["", "a", "ab", "abc", "abcd", "USER#älice/ü"] {
            assert_eq!(unb64(&b64(s.as_bytes())).unwrap(), s.as_bytes());
        }
        let mut key = Item::new();
        key.insert("pk".into(), AttributeValue::S("USER#a".into()));
        key.insert("n".into(), AttributeValue::N("12".into()));
        key.insert("b".into(), AttributeValue::B(Blob::new(vec![0, 255])));
        let lanes = [Position::At(Some(key)), Position::At(None), Position::Done];
        let c = encode_cursor(&lanes, 12);
        assert!(c
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(decode_cursor(&c, 3).unwrap(), (lanes.to_vec(), 12));
        assert!(matches!(decode_cursor(&c, 2), Err(Error::Refused { .. })));
        assert!(decode_cursor("!!", 1).is_err());
    }
}
