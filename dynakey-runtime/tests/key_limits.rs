//! Sort-key bounds fitted to DynamoDB's key limit select the same keys.
//!
//! A condition's bounds extend a key text with U+10FFFF ("everything under
//! it") or U+0001 ("just above it"), which can pass the 1,024-byte limit
//! while the text fits. `SortKeyOp::fit` replaces such a bound with one
//! inside the limit; among every key that fits (a key longer than the limit
//! cannot be stored), the fitted comparison must select exactly what the
//! original selects. Checked with a small limit over texts of one- to
//! four-byte characters, the highest character of each UTF-8 length among
//! them, against keys near the bounds and random ones.

use dynakey_runtime::SortKeyOp;
use proptest::prelude::*;

const HIGH: char = '\u{10FFFF}';

fn text(max: usize) -> impl Strategy<Value = String> {
    let c = prop::sample::select(vec![
        ' ',
        'a',
        'b',
        '\u{7F}',
        'é',
        '\u{7FF}',
        '中',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFF}',
        '😀',
        '\u{10FFFE}',
    ]);
    prop::collection::vec(c, 0..=max).prop_map(move |cs| {
        let mut s = String::new();
        for c in cs {
            if s.len() + c.len_utf8() <= max {
                s.push(c);
            }
        }
        s
    })
}

fn with(s: &str, c: char) -> String {
    format!("{s}{c}")
}

/// Keys of at most `limit` bytes near `x` and `y`: each, each with a
/// character added or the last one changed, and their prefixes.
fn near(x: &str, limit: usize) -> Vec<String> {
    let mut out = vec![x.to_owned()];
    for c in [
        'a',
        '\u{7F}',
        '\u{80}',
        '\u{7FF}',
        '\u{800}',
        '\u{FFFF}',
        '\u{10000}',
        '\u{10FFFE}',
    ] {
        out.push(with(x, c));
        let mut t = x.to_owned();
        if t.pop().is_some() {
            out.push(with(&t, c));
        }
    }
    let mut t = x.to_owned();
    while t.pop().is_some() {
        out.push(t.clone());
    }
    out.retain(|k| k.len() <= limit && !k.is_empty());
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn fitted_bounds_select_what_the_bounds_select(
        limit in 4usize..12,
        x in text(12),
        y in text(12),
        random in prop::collection::vec(text(12), 0..40),
    ) {
        let (x, y) = (&x, &y);
        let ops = [
            SortKeyOp::Le(with(x, HIGH)),
            SortKeyOp::Gt(with(x, HIGH)),
            SortKeyOp::Between(x.clone(), with(y, HIGH)),
            SortKeyOp::Between(with(x, '\u{1}'), with(y, HIGH)),
            SortKeyOp::Between(with(x, '\u{1}'), y.clone()),
        ];
        let mut keys: Vec<String> = near(x, limit);
        keys.extend(near(y, limit));
        keys.extend(random.into_iter().filter(|k| k.len() <= limit && !k.is_empty()));
        for op in ops {
            // Bounds whose text does not fit are refused before `fit`.
            let texts_fit = match &op {
                SortKeyOp::Le(b) | SortKeyOp::Gt(b) => b.len() - 4 <= limit,
                SortKeyOp::Between(a, b) => {
                    a.trim_end_matches('\u{1}').len() <= limit
                        && b.trim_end_matches(HIGH).len() <= limit
                }
                _ => true,
            };
            if !texts_fit {
                continue;
            }
            let fitted = op.clone().fit(limit);
            match &fitted {
                SortKeyOp::Le(b) | SortKeyOp::Gt(b) => prop_assert!(b.len() <= limit, "{:?}", fitted),
                SortKeyOp::Between(a, b) => {
                    prop_assert!(a.len() <= limit && b.len() <= limit && a <= b, "{:?}", fitted)
                }
                _ => {}
            }
            for k in &keys {
                prop_assert_eq!(
                    op.matches(k),
                    fitted.matches(k),
                    "key {:?} under {:?} fitted to {:?}",
                    k,
                    op,
                    fitted
                );
            }
        }
    }
}
