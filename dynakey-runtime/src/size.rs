//! DynamoDB's item size rules, to refuse an item over 400 KB before it is
//! sent.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;

/// DynamoDB's largest item: 400 KB, names and values included.
pub const MAX_ITEM_SIZE: usize = 400 * 1024;

/// The size DynamoDB counts for an item: for each attribute the UTF-8 bytes
/// of its name plus the size of its value.
///
/// Values: a string counts its UTF-8 bytes, binary its bytes, a number one
/// byte per two digits on each side of its decimal point, plus one (and one
/// for a minus sign), `BOOL` and `NULL` one
/// byte, a list or map 3 bytes plus one byte per element (and the member
/// names of a map), a set the sum of its members.
///
/// An entity's item is measured as it is stored (`to_item()`, keys and
/// index keys included): what a put is refused over ([`MAX_ITEM_SIZE`],
/// `Error::ItemTooLarge`) and what its write units are counted from (the
/// same number as `explain().cost.item_bytes`).
///
/// ```
/// use dynakey_runtime::{item_size, Item, MAX_ITEM_SIZE};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let mut item = Item::new();
/// item.insert("pk".to_string(), AttributeValue::S("USER#a".into())); // 2 + 6
/// item.insert("n".to_string(), AttributeValue::N("12345".into()));   // 1 + 3 + 1
/// assert_eq!(item_size(&item), 13);
/// assert!(item_size(&item) <= MAX_ITEM_SIZE);
/// ```
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
/// # #[pk("USER#<user>")] #[sk("NOTE#<id>")]
/// # struct Note { user: String, id: String, body: String }
/// use dynakey_runtime::{item_size, Entity};
/// let note = Note { user: "ann".into(), id: "n1".into(), body: "x".repeat(1000) };
/// let bytes = item_size(&note.to_item().unwrap());
/// assert!(bytes > 1000 && bytes < 1100, "{bytes}");
/// ```
pub fn item_size(item: &Item) -> usize {
    item.iter().map(|(k, v)| k.len() + value_size(v)).sum()
}

/// The size DynamoDB counts for one value (without its name).
///
/// ```
/// use dynakey_runtime::__private::value_size;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// assert_eq!(value_size(&AttributeValue::Bool(true)), 1);
/// assert_eq!(value_size(&AttributeValue::L(vec![AttributeValue::S("ab".into())])), 6);
/// ```
pub fn value_size(v: &AttributeValue) -> usize {
    match v {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::L(l) => 3 + l.iter().map(|e| 1 + value_size(e)).sum::<usize>(),
        AttributeValue::M(m) => {
            3 + m
                .iter()
                .map(|(k, e)| k.len() + 1 + value_size(e))
                .sum::<usize>()
        }
        AttributeValue::Ss(ss) => ss.iter().map(String::len).sum(),
        AttributeValue::Ns(ns) => ns.iter().map(|n| number_size(n)).sum(),
        AttributeValue::Bs(bs) => bs.iter().map(|b| b.as_ref().len()).sum(),
        _ => 0,
    }
}

/// DynamoDB's count for a number: see [`crate::number`].
fn number_size(n: &str) -> usize {
    crate::number::size(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_count_significant_digits() {
        assert_eq!(number_size("0"), 1);
        assert_eq!(number_size("100"), 2);
        assert_eq!(number_size("-12.5"), 4);
        assert_eq!(number_size("100.1"), 4);
        assert_eq!(number_size("1234567"), 5);
    }

    #[test]
    fn maps_count_member_names() {
        let mut m = std::collections::HashMap::new();
        m.insert("ab".to_string(), AttributeValue::S("xyz".into()));
        assert_eq!(value_size(&AttributeValue::M(m)), 3 + 2 + 1 + 3);
    }
}
