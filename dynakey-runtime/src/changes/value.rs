//! Two stored values compared as DynamoDB means them: numbers by value at
//! full precision, sets as sets. What `changed`, the index moves, the live
//! view's drift check and migrations' backfill decide "differs" by.

#[cfg(feature = "changes")]
use std::cmp::Ordering;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;

/// Compares two DynamoDB numbers by value, exactly: all 38 significant
/// digits and the whole exponent range (−130 to +125), in every form
/// DynamoDB accepts (`1E+30`, `1e30`, `10E29`, `0.1E31`,
/// `1000000000000000000000000000000`, `+5`, `-0`, leading zeros, trailing
/// zeros after the point). No float and no 28-digit decimal on the way, so
/// a 38-digit number and its exponent form are equal and differ from
/// their neighbours. `None` when either text is not a number.
///
/// ```
/// use std::cmp::Ordering;
/// use dynakey_runtime::changes::compare_numbers;
/// let big = format!("1{}", "0".repeat(30));
/// assert_eq!(compare_numbers(&big, "1E+30"), Some(Ordering::Equal));
/// assert_eq!(compare_numbers("0.1E31", "10E29"), Some(Ordering::Equal));
/// assert_eq!(compare_numbers("-0", "0.000"), Some(Ordering::Equal));
/// let d38 = "9".repeat(38);                                  // DynamoDB's widest
/// let as_exp = format!("9.{}E+37", "9".repeat(37));
/// assert_eq!(compare_numbers(&d38, &as_exp), Some(Ordering::Equal));
/// let one_less = format!("{}8", "9".repeat(37));
/// assert_eq!(compare_numbers(&one_less, &as_exp), Some(Ordering::Less));
/// assert_eq!(compare_numbers("-2.5", "-2.45"), Some(Ordering::Less));
/// assert_eq!(compare_numbers("1", "one"), None);
/// ```
// Public with `changes`; the design views and the runner compare values only.
#[cfg(feature = "changes")]
pub fn compare_numbers(a: &str, b: &str) -> Option<Ordering> {
    crate::number::compare(a, b)
}

/// Whether two stored values mean the same, as DynamoDB compares them:
/// numbers by value ([`compare_numbers`]), number sets, string sets and
/// binary sets as sets (their order is not part of the value, and a
/// record may list them in another order than the write did), lists in
/// order and maps by key, recursively; everything else as it is.
///
/// ```
/// use aws_sdk_dynamodb::types::AttributeValue as V;
/// use dynakey_runtime::changes::same_value;
/// let big = format!("1{}", "0".repeat(30));
/// assert!(same_value(&V::N(big.clone()), &V::N("1E+30".into())));
/// assert!(same_value(
///     &V::Ns(vec!["1".into(), "2.50".into()]),
///     &V::Ns(vec!["2.5".into(), "1E0".into()]),
/// ));
/// assert!(!same_value(&V::N("1".into()), &V::S("1".into())));
/// assert!(!same_value(&V::N(big), &V::N("1E+31".into())));
/// ```
pub fn same_value(a: &AttributeValue, b: &AttributeValue) -> bool {
    use AttributeValue as V;
    match (a, b) {
        (V::N(x), V::N(y)) => crate::number::same(x, y),
        (V::Ss(x), V::Ss(y)) => {
            same_members(x.iter().map(String::as_str), y.iter().map(String::as_str))
        }
        (V::Ns(x), V::Ns(y)) => same_members(
            x.iter().map(|n| crate::number::canonical(n)),
            y.iter().map(|n| crate::number::canonical(n)),
        ),
        (V::Bs(x), V::Bs(y)) => {
            same_members(x.iter().map(|b| b.as_ref()), y.iter().map(|b| b.as_ref()))
        }
        (V::L(x), V::L(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
        (V::M(x), V::M(y)) => same_item(x, y),
        _ => a == b,
    }
}

/// The same members, each as often (a set holds no duplicates, but a
/// record written by hand may, and `[1, 1]` is not `[1, 2]`): sorted and
/// compared, so a large set costs n log n, not n².
fn same_members<E: Ord>(x: impl Iterator<Item = E>, y: impl Iterator<Item = E>) -> bool {
    let (mut x, mut y): (Vec<E>, Vec<E>) = (x.collect(), y.collect());
    if x.len() != y.len() {
        return false;
    }
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// Two items (or maps) attribute by attribute, by [`same_value`].
pub(crate) fn same_item(x: &Item, y: &Item) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|(k, a)| y.get(k).is_some_and(|b| same_value(a, b)))
}

/// Two optional attributes: both absent, or both present and the same.
#[cfg(any(feature = "changes", feature = "design"))]
pub(crate) fn same_opt(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same_value(a, b),
        (None, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttributeValue as V;

    #[test]
    fn sets_compare_as_sets_and_numbers_by_value() {
        let ab = V::Ss(vec!["a".into(), "b".into()]);
        let ba = V::Ss(vec!["b".into(), "a".into()]);
        assert!(same_value(&ab, &ba));
        assert!(!same_value(&ab, &V::Ss(vec!["a".into()])));
        assert!(same_value(&V::N("100".into()), &V::N("1E+2".into())));
        assert!(same_value(
            &V::Ns(vec!["1".into(), "2.0".into()]),
            &V::Ns(vec!["2".into(), "1".into()])
        ));
        assert!(!same_value(
            &V::Ns(vec!["1".into(), "1.0".into()]),
            &V::Ns(vec!["1".into(), "2".into()])
        ));
        assert!(!same_value(&V::N("1".into()), &V::S("1".into())));
        let m = |v: V| V::M([("x".to_owned(), v)].into());
        assert!(same_value(&m(ab.clone()), &m(ba)));
        assert!(!same_value(&m(ab), &m(V::Null(true))));
        assert!(same_value(
            &V::L(vec![V::N("1.50".into())]),
            &V::L(vec![V::N("1.5".into())])
        ));
    }

    #[test]
    fn past_28_digits_numbers_still_compare_by_value() {
        let n = |s: &str| V::N(s.to_owned());
        let d38 = "9".repeat(38);
        assert!(same_value(
            &n(&d38),
            &n(&format!("9.{}E+37", "9".repeat(37)))
        ));
        assert!(!same_value(&n(&d38), &n(&format!("{}8", "9".repeat(37)))));
        assert!(same_value(
            &n("1E-130"),
            &n(&format!("0.{}1", "0".repeat(129)))
        ));
        assert!(!same_value(&n("1E-130"), &n("1E-129")));
    }
}
