//! Opaque page cursors: a `LastEvaluatedKey` as URL-safe text.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;
use crate::error::Error;

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

/// Encodes a `LastEvaluatedKey` (key attributes are S, N or B).
pub(crate) fn encode(key: &Item) -> String {
    let mut map = serde_json::Map::new();
    let mut names: Vec<&String> = key.keys().collect();
    names.sort();
    for k in names {
        let v = match &key[k] {
            AttributeValue::S(s) => serde_json::json!({ "S": s }),
            AttributeValue::N(n) => serde_json::json!({ "N": n }),
            AttributeValue::B(b) => serde_json::json!({ "B": hex(b.as_ref()) }),
            _ => continue,
        };
        map.insert(k.clone(), v);
    }
    b64(serde_json::Value::Object(map).to_string().as_bytes())
}

/// Decodes a cursor made by [`encode`].
pub(crate) fn decode(cursor: &str) -> Result<Item, Error> {
    let bad = || Error::Validation {
        message: format!("not a dynakey cursor: {cursor:?}"),
    };
    let bytes = unb64(cursor).ok_or_else(bad)?;
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    let obj = value.as_object().ok_or_else(bad)?;
    let mut out = HashMap::with_capacity(obj.len());
    for (k, v) in obj {
        let (t, x) = v
            .as_object()
            .and_then(|o| o.iter().next())
            .ok_or_else(bad)?;
        let x = x.as_str().ok_or_else(bad)?;
        let av = match t.as_str() {
            "S" => AttributeValue::S(x.to_owned()),
            "N" => AttributeValue::N(x.to_owned()),
            "B" => AttributeValue::B(Blob::new(unhex(x).ok_or_else(bad)?)),
            _ => return Err(bad()),
        };
        out.insert(k.clone(), av);
    }
    Ok(out)
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
        let c = encode(&key);
        assert!(c
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(decode(&c).unwrap(), key);
        assert!(decode("!!").is_err());
    }
}
