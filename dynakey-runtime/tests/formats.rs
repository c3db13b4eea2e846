//! Key formats: round trips, text order equal to value order, refusals,
//! the order of composite keys, and the bounds of sort-key conditions
//! checked against a model of DynamoDB's comparisons.
//!
//! Text is compared as Rust `str`, which is byte order of UTF-8, the order
//! DynamoDB uses for string sort keys.

use std::fmt::Debug;

use dynakey_runtime::{
    uuid7, KeyDecimal, KeyFormatReason, KeyPadded, KeyReverse, KeySigned, KeyText,
};
use proptest::prelude::*;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, Duration, OffsetDateTime, UtcOffset};
use uuid::Uuid;

// ---------------------------------------------------------------- helpers

type R = Result<String, KeyFormatReason>;

fn text<T: KeyText>(v: &T) -> R {
    let mut s = String::new();
    v.write_text(&mut s).map(|_| s).map_err(|e| e.reason)
}
fn padded<T: KeyPadded>(v: &T, w: u32) -> R {
    let mut s = String::new();
    v.write_padded(w, &mut s).map(|_| s).map_err(|e| e.reason)
}
fn signed<T: KeySigned>(v: &T, w: u32) -> R {
    let mut s = String::new();
    v.write_signed(w, &mut s).map(|_| s).map_err(|e| e.reason)
}
fn decimal<T: KeyDecimal>(v: &T, w: u32, p: u32) -> R {
    let mut s = String::new();
    v.write_decimal(w, p, &mut s)
        .map(|_| s)
        .map_err(|e| e.reason)
}
fn rev<T: KeyReverse>(v: &T) -> R {
    let mut s = String::new();
    v.write_reverse(&mut s).map(|_| s).map_err(|e| e.reason)
}

fn is_malformed<T: Debug>(r: Result<T, dynakey_runtime::KeyPartError>) -> bool {
    matches!(
        r,
        Err(dynakey_runtime::KeyPartError {
            reason: KeyFormatReason::Malformed { .. },
            ..
        })
    )
}

/// Every pair of `vals` orders the same way as its texts.
fn assert_order<T: Ord + Debug>(vals: &[(T, String)]) {
    for (a, ta) in vals {
        for (b, tb) in vals {
            assert_eq!(
                a.cmp(b),
                ta.as_str().cmp(tb.as_str()),
                "{a:?} ({ta:?}) vs {b:?} ({tb:?})"
            );
        }
    }
}

fn p10(w: u32) -> Option<i128> {
    10i128.checked_pow(w)
}

fn digits(v: i128) -> u32 {
    v.unsigned_abs().checked_ilog10().unwrap_or(0) + 1
}

/// Interesting values of one width within `lo..=hi`.
fn edges(w: u32, lo: i128, hi: i128) -> Vec<i128> {
    let mut c = vec![
        0,
        1,
        -1,
        2,
        -2,
        9,
        -9,
        10,
        -10,
        11,
        -11,
        lo,
        hi,
        lo / 2,
        hi / 2,
    ];
    c.extend([lo.saturating_add(1), hi.saturating_sub(1)]);
    if let Some(m) = p10(w) {
        c.extend([
            m - 1,
            m - 2,
            -(m - 1),
            -(m - 2),
            m / 10,
            -(m / 10),
            m / 2,
            -(m / 2),
        ]);
    }
    c.retain(|x| (lo..=hi).contains(x));
    c.sort();
    c.dedup();
    c
}

/// `lo..=hi` narrowed to what `w` digits hold (signed: ±(10^w − 1)).
fn width_range(w: u32, lo: i128, hi: i128, signed: bool) -> (i128, i128) {
    let m = p10(w).map_or(i128::MAX, |m| m - 1);
    let lo = if signed { lo.max(-m) } else { lo.max(0) };
    (lo, hi.min(m))
}

/// (width, a, b) with a and b fitting the width; b is often close to a.
fn width_pair(
    max_w: u32,
    lo: i128,
    hi: i128,
    signed: bool,
) -> impl Strategy<Value = (u32, i128, i128)> {
    (1..=max_w).prop_flat_map(move |w| {
        let (lo, hi) = width_range(w, lo, hi, signed);
        (Just(w), lo..=hi, lo..=hi, -3i128..=3, any::<bool>()).prop_map(
            move |(w, a, b, d, near)| {
                let b = if near {
                    a.saturating_add(d).clamp(lo, hi)
                } else {
                    b
                };
                (w, a, b)
            },
        )
    })
}

// ---------------------------------------------------------------- integers

macro_rules! int_tests {
    ($($m:ident: $t:ty),* $(,)?) => {$(
        mod $m {
            use super::*;

            const LO: i128 = <$t>::MIN as i128;
            const HI: i128 = <$t>::MAX as i128;

            fn max_padded() -> u32 {
                digits(HI) + 1
            }
            fn max_signed() -> u32 {
                (digits(HI).max(digits(LO)) + 1).min(38)
            }

            #[test]
            fn padded_edges_round_trip_and_order() {
                for w in 1..=max_padded() {
                    let (lo, hi) = width_range(w, LO, HI, false);
                    let vals: Vec<($t, String)> = edges(w, lo, hi)
                        .into_iter()
                        .map(|x| {
                            let v = x as $t;
                            let t = padded(&v, w).unwrap();
                            assert_eq!(t.len(), w as usize, "{v} d{w}");
                            assert_eq!(<$t>::parse_padded(&t, w).unwrap(), v);
                            (v, t)
                        })
                        .collect();
                    assert_order(&vals);
                }
            }

            #[test]
            fn padded_refusals() {
                for w in 1..=max_padded() {
                    if LO < 0 {
                        assert_eq!(padded(&(-1i128 as $t), w), Err(KeyFormatReason::Negative { width: w }));
                        assert_eq!(padded(&<$t>::MIN, w), Err(KeyFormatReason::Negative { width: w }));
                    }
                    if let Some(m) = p10(w).filter(|m| *m <= HI) {
                        assert_eq!(padded(&(m as $t), w), Err(KeyFormatReason::TooWide { width: w }));
                        assert_eq!(padded(&<$t>::MAX, w), Err(KeyFormatReason::TooWide { width: w }));
                    }
                }
            }

            #[test]
            fn signed_edges_round_trip_and_order() {
                for w in 1..=max_signed() {
                    let (lo, hi) = width_range(w, LO, HI, true);
                    let vals: Vec<($t, String)> = edges(w, lo, hi)
                        .into_iter()
                        .map(|x| {
                            let v = x as $t;
                            let t = signed(&v, w).unwrap();
                            assert_eq!(t.len(), w as usize + 1, "{v} n{w}");
                            assert_eq!(<$t>::parse_signed(&t, w).unwrap(), v);
                            (v, t)
                        })
                        .collect();
                    assert_order(&vals);
                }
            }

            #[test]
            fn signed_refusals() {
                for w in 1..=max_signed() {
                    if let Some(m) = p10(w) {
                        if m <= HI {
                            assert_eq!(signed(&(m as $t), w), Err(KeyFormatReason::TooWide { width: w }));
                        }
                        if -m >= LO {
                            assert_eq!(signed(&(-m as $t), w), Err(KeyFormatReason::TooWide { width: w }));
                        }
                    }
                }
            }

            #[test]
            fn text_and_reverse_edges() {
                for x in edges(39, LO, HI) {
                    let v = x as $t;
                    assert_eq!(<$t>::parse_text(&text(&v).unwrap()).unwrap(), v);
                }
                let rev_max = 9_999_999_999_999i128;
                let vals: Vec<($t, String)> = edges(13, 0, HI.min(rev_max))
                    .into_iter()
                    .map(|x| {
                        let v = x as $t;
                        let t = rev(&v).unwrap();
                        assert_eq!(t.len(), 13);
                        assert_eq!(<$t>::parse_reverse(&t).unwrap(), v);
                        (v, t)
                    })
                    .collect();
                for (a, ta) in &vals {
                    for (b, tb) in &vals {
                        assert_eq!(a.cmp(b), tb.cmp(ta), "rev {a} vs {b}");
                    }
                }
                if LO < 0 {
                    assert_eq!(rev(&(-1i128 as $t)), Err(KeyFormatReason::TooWide { width: 13 }));
                }
                if HI > rev_max {
                    assert_eq!(rev(&((rev_max + 1) as $t)), Err(KeyFormatReason::TooWide { width: 13 }));
                }
            }

            proptest! {
                #[test]
                fn padded_props((w, a, b) in width_pair(max_padded(), LO, HI, false)) {
                    let (a, b) = (a as $t, b as $t);
                    let (ta, tb) = (padded(&a, w).unwrap(), padded(&b, w).unwrap());
                    prop_assert_eq!(ta.len(), w as usize);
                    prop_assert_eq!(<$t>::parse_padded(&ta, w).unwrap(), a);
                    prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
                }

                #[test]
                fn signed_props((w, a, b) in width_pair(max_signed(), LO, HI, true)) {
                    let (a, b) = (a as $t, b as $t);
                    let (ta, tb) = (signed(&a, w).unwrap(), signed(&b, w).unwrap());
                    prop_assert_eq!(ta.len(), w as usize + 1);
                    prop_assert_eq!(<$t>::parse_signed(&ta, w).unwrap(), a);
                    prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
                }

                #[test]
                fn reverse_props(a in 0..=HI.min(9_999_999_999_999), b in 0..=HI.min(9_999_999_999_999)) {
                    let (a, b) = (a as $t, b as $t);
                    let (ta, tb) = (rev(&a).unwrap(), rev(&b).unwrap());
                    prop_assert_eq!(<$t>::parse_reverse(&ta).unwrap(), a);
                    prop_assert_eq!(a.cmp(&b), tb.cmp(&ta));
                }

                #[test]
                fn text_round_trip(a in LO..=HI) {
                    let a = a as $t;
                    prop_assert_eq!(<$t>::parse_text(&text(&a).unwrap()).unwrap(), a);
                }
            }
        }
    )*};
}

int_tests!(
    int_i8: i8,
    int_i16: i16,
    int_i32: i32,
    int_i64: i64,
    int_i128: i128,
    int_isize: isize,
    int_u8: u8,
    int_u16: u16,
    int_u32: u32,
    int_u64: u64,
    int_usize: usize,
);

#[test]
fn brief_integer_refusals() {
    assert_eq!(
        padded(&-1i32, 6),
        Err(KeyFormatReason::Negative { width: 6 })
    );
    assert_eq!(
        padded(&1_000_000u32, 6),
        Err(KeyFormatReason::TooWide { width: 6 })
    );
    assert_eq!(padded(&999_999u32, 6).unwrap(), "999999");
    assert_eq!(
        signed(&10_000i32, 4),
        Err(KeyFormatReason::TooWide { width: 4 })
    );
    assert_eq!(
        signed(&-10_000i32, 4),
        Err(KeyFormatReason::TooWide { width: 4 })
    );
    assert_eq!(signed(&9_999i32, 4).unwrap(), "09999");
    assert_eq!(signed(&-9_999i32, 4).unwrap(), "-0001");
    assert_eq!(signed(&-10i32, 4).unwrap(), "-9990");
    assert_eq!(signed(&0i32, 4).unwrap(), "00000");
}

#[test]
fn wide_widths_pad_instead_of_panicking() {
    // A width beyond the 39 digits of a u128 used to underflow an index.
    assert_eq!(padded(&42u8, 45).unwrap(), format!("{}42", "0".repeat(43)));
    assert_eq!(
        u8::parse_padded(&padded(&42u8, 45).unwrap(), 45).unwrap(),
        42
    );
    assert_eq!(padded(&u128::MAX, 41).unwrap(), format!("00{}", u128::MAX));
    assert_eq!(
        u128::parse_padded(&padded(&u128::MAX, 41).unwrap(), 41).unwrap(),
        u128::MAX
    );
}

#[test]
fn u128_padded_edges() {
    let mut vals = Vec::new();
    for w in [1u32, 2, 19, 20, 38, 39, 40] {
        let m = 10u128.checked_pow(w).map(|m| m - 1).unwrap_or(u128::MAX);
        for v in [0, 1, 9, 10, m / 2, m - 1, m]
            .into_iter()
            .filter(|v| *v <= m)
        {
            let t = padded(&v, w).unwrap();
            assert_eq!(t.len(), w as usize);
            assert_eq!(u128::parse_padded(&t, w).unwrap(), v);
            if w == 40 {
                vals.push((v, t));
            }
        }
        if let Some(over) = 10u128.checked_pow(w) {
            assert_eq!(padded(&over, w), Err(KeyFormatReason::TooWide { width: w }));
        }
    }
    vals.push((u128::MAX, padded(&u128::MAX, 40).unwrap()));
    assert_order(&vals);
    assert_eq!(
        u128::parse_text(&text(&u128::MAX).unwrap()).unwrap(),
        u128::MAX
    );
}

proptest! {
    #[test]
    fn u128_padded_props(w in 1u32..=40, a in any::<u128>(), b in any::<u128>()) {
        let m = 10u128.checked_pow(w).unwrap_or(0).wrapping_sub(1); // 10^w − 1, or u128::MAX
        let (a, b) = (if m == u128::MAX { a } else { a % (m + 1) }, if m == u128::MAX { b } else { b % (m + 1) });
        let (ta, tb) = (padded(&a, w).unwrap(), padded(&b, w).unwrap());
        prop_assert_eq!(u128::parse_padded(&ta, w).unwrap(), a);
        prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
    }
}

#[test]
fn integer_parse_refusals() {
    for s in [
        "42",
        "0000042",
        "00004a",
        "-00042",
        "+00042",
        " 00042",
        "００００４２",
        "",
    ] {
        assert!(is_malformed(u32::parse_padded(s, 6)), "d6 {s:?}");
        assert!(is_malformed(i64::parse_padded(s, 6)), "d6 {s:?}");
    }
    assert!(is_malformed(u8::parse_padded("256", 3)), "256 is no u8");
    for s in [
        "10000", "-0000", "+0001", "0001", "000001", "x0001", "é001", "-00a1", "", "-",
    ] {
        assert!(is_malformed(i32::parse_signed(s, 4)), "n4 {s:?}");
    }
    assert!(is_malformed(i8::parse_signed("00200", 4)), "200 is no i8");
    assert!(is_malformed(u8::parse_signed("-9999", 4)), "-1 is no u8");
    for s in ["", "abc", "1.5", "0x10", "1e3"] {
        assert!(is_malformed(i32::parse_text(s)), "text {s:?}");
    }
    assert!(is_malformed(u8::parse_text("256")));
    assert!(is_malformed(u8::parse_text("-1")));
    for s in [
        "",
        "123456789012",
        "12345678901234",
        "123456789012a",
        "-123456789012",
    ] {
        assert!(is_malformed(i64::parse_reverse(s)), "rev {s:?}");
        assert!(is_malformed(OffsetDateTime::parse_reverse(s)), "rev {s:?}");
    }
}

// ---------------------------------------------------------------- decimals

/// (w, p, a, b): two decimals with at most p places that fit n<w>.<p>, with
/// trailing zeros or normalized, so scales vary.
fn decimal_pair() -> impl Strategy<Value = (u32, u32, Decimal, Decimal)> {
    (1u32..=20, 0u32..=8)
        .prop_filter("mantissa fits", |(w, p)| w + p <= 28)
        .prop_flat_map(|(w, p)| {
            let m = p10(w + p).unwrap() - 1;
            let dec = move |x: i128, k: u32, norm: bool| {
                let k = k.min(28 - w - p);
                let d = Decimal::from_i128_with_scale(x * p10(k).unwrap(), p + k);
                if norm {
                    d.normalize()
                } else {
                    d
                }
            };
            (
                Just((w, p)),
                -m..=m,
                -m..=m,
                0u32..=3,
                any::<bool>(),
                -2i128..=2,
                any::<bool>(),
            )
                .prop_map(move |((w, p), a, b, k, norm, d, near)| {
                    let b = if near { (a + d).clamp(-m, m) } else { b };
                    (w, p, dec(a, k, norm), dec(b, 0, !norm))
                })
        })
}

proptest! {
    #[test]
    fn decimal_props((w, p, a, b) in decimal_pair()) {
        let (ta, tb) = (decimal(&a, w, p).unwrap(), decimal(&b, w, p).unwrap());
        prop_assert_eq!(ta.len(), (w + 1 + if p > 0 { p + 1 } else { 0 }) as usize);
        prop_assert_eq!(Decimal::parse_decimal(&ta, w, p).unwrap(), a);
        prop_assert_eq!(a.cmp(&b), ta.cmp(&tb), "{} vs {}: {} vs {}", a, b, ta, tb);
    }

    #[test]
    fn decimal_text_round_trip(m in any::<i64>(), s in 0u32..=28, zeros in 0u32..=3) {
        let a = Decimal::new(m, s);
        let t = text(&a).unwrap();
        prop_assert_eq!(Decimal::parse_text(&t).unwrap(), a);
        if s + zeros <= 28 {
            // One value, one key text, whatever its scale.
            let zeros = Decimal::from_i128_with_scale(m as i128 * 10i128.pow(zeros), s + zeros);
            prop_assert_eq!(text(&zeros).unwrap(), t);
        }
    }
}

proptest! {
    /// Formats wider than a Decimal's 28 digits (up to the 38 of an i128).
    #[test]
    fn decimal_wide_formats(w in 1u32..=20, p in 0u32..=30, a in any::<i64>(), b in any::<i64>(), sa in 0u32..=28, sb in 0u32..=28) {
        prop_assume!(w + p <= 38);
        let fit = |m: i64, s: u32| {
            let s = s.min(p);
            let limit = Decimal::from_i128_with_scale(p10(w.min(28)).unwrap(), 0);
            let v = Decimal::new(m, s);
            if v.abs() < limit { v } else { v % limit }
        };
        let (a, b) = (fit(a, sa), fit(b, sb));
        let (ta, tb) = (decimal(&a, w, p).unwrap(), decimal(&b, w, p).unwrap());
        prop_assert_eq!(Decimal::parse_decimal(&ta, w, p).unwrap(), a);
        prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
    }
}

#[test]
fn decimal_edges() {
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    assert_eq!(decimal(&d("40"), 8, 2).unwrap(), "000000040.00");
    assert_eq!(decimal(&d("-15.5"), 8, 2).unwrap(), "-99999984.50");
    assert_eq!(decimal(&d("1.200"), 8, 2).unwrap(), "000000001.20");
    assert_eq!(decimal(&d("-0"), 8, 2).unwrap(), "000000000.00");
    assert_eq!(
        decimal(&d("1.234"), 8, 2),
        Err(KeyFormatReason::TooPrecise { places: 2 })
    );
    assert_eq!(
        decimal(&d("100000000"), 8, 2),
        Err(KeyFormatReason::TooWide { width: 8 })
    );
    assert_eq!(
        decimal(&d("-100000000"), 8, 2),
        Err(KeyFormatReason::TooWide { width: 8 })
    );
    assert_eq!(decimal(&d("5"), 4, 0).unwrap(), "00005");

    // The limits of Decimal under n29.0, the smallest step under n1.28.
    let tiny = Decimal::from_i128_with_scale(1, 28);
    let big = [
        Decimal::MIN,
        Decimal::MAX,
        Decimal::ZERO,
        Decimal::ONE,
        -Decimal::ONE,
        d("12345"),
    ];
    let small = [
        tiny,
        -tiny,
        Decimal::ZERO,
        d("0.5"),
        d("-0.5"),
        d("9.999"),
        d("-9.999"),
        Decimal::from_i128_with_scale(1, 27),
    ];
    for (vals, w, p) in [(&big[..], 29, 0), (&small[..], 1, 28)] {
        let vals: Vec<(Decimal, String)> = vals
            .iter()
            .map(|v| {
                let t = decimal(v, w, p).unwrap();
                assert_eq!(
                    Decimal::parse_decimal(&t, w, p).unwrap(),
                    *v,
                    "{v} n{w}.{p}"
                );
                (*v, t)
            })
            .collect();
        assert_order(&vals);
    }
    assert_eq!(
        decimal(&Decimal::MAX, 28, 0),
        Err(KeyFormatReason::TooWide { width: 28 })
    );
    assert_eq!(
        decimal(&tiny, 1, 27),
        Err(KeyFormatReason::TooPrecise { places: 27 })
    );
    // Formats with more digits than a Decimal holds still read back.
    for (v, w, p) in [
        (d("999999999999.5"), 12, 18),
        (d("9.999"), 1, 28),
        (tiny, 1, 30),
        (d("-7.25"), 2, 36),
    ] {
        let t = decimal(&v, w, p).unwrap();
        assert_eq!(Decimal::parse_decimal(&t, w, p).unwrap(), v, "{v} n{w}.{p}");
    }
    // More digits than an i128 holds: refused as too wide, not a panic.
    assert_eq!(
        decimal(&Decimal::MAX, 29, 28),
        Err(KeyFormatReason::TooWide { width: 29 })
    );

    for s in [
        "000000040,00",
        "00000004000",
        "0000000040.0",
        "000000040.0a",
        "+00000040.00",
        "-00000000.00",
        "",
    ] {
        assert!(is_malformed(Decimal::parse_decimal(s, 8, 2)), "{s:?}");
    }
    assert!(is_malformed(Decimal::parse_text("abc")));
}

#[test]
fn decimal_text_is_normalized() {
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    assert_eq!(text(&d("1.50")).unwrap(), "1.5");
    assert_eq!(text(&d("1.5")).unwrap(), "1.5");
    assert_eq!(text(&d("-0.00")).unwrap(), "0");
    assert_eq!(text(&d("100")).unwrap(), "100");
}

// ---------------------------------------------------------------- floats

/// (w, p, m): an integer of w + p digits, the scaled value m / 10^p.
fn exact_scaled(max_digits: u32) -> impl Strategy<Value = (u32, u32, i64, i64)> {
    (1u32..=max_digits, 0u32..=5)
        .prop_filter("fits", move |(w, p)| w + p <= max_digits)
        .prop_flat_map(|(w, p)| {
            let m = 10i64.pow(w + p) - 1;
            (Just(w), Just(p), -m..=m, -m..=m)
        })
}

proptest! {
    #[test]
    fn f64_exact_values_round_trip_and_order((w, p, ma, mb) in exact_scaled(14)) {
        let f = |m: i64| m as f64 / 10f64.powi(p as i32);
        let (a, b) = (f(ma), f(mb));
        let (ta, tb) = (decimal(&a, w, p).unwrap(), decimal(&b, w, p).unwrap());
        prop_assert_eq!(f64::parse_decimal(&ta, w, p).unwrap(), a);
        prop_assert_eq!(a.partial_cmp(&b), Some(ta.cmp(&tb)));
        prop_assert_eq!(&ta, &decimal(&Decimal::new(ma, p), w, p).unwrap(), "float and Decimal agree");
    }

    #[test]
    fn f32_exact_values_round_trip_and_order((w, p, ma, mb) in exact_scaled(6)) {
        let f = |m: i64| (m as f64 / 10f64.powi(p as i32)) as f32;
        let (a, b) = (f(ma), f(mb));
        let (ta, tb) = (decimal(&a, w, p).unwrap(), decimal(&b, w, p).unwrap());
        prop_assert_eq!(f32::parse_decimal(&ta, w, p).unwrap(), a);
        prop_assert_eq!(a.partial_cmp(&b), Some(ta.cmp(&tb)));
    }

    #[test]
    fn f64_any_value_orders_and_rounds((w, p) in (1u32..=9, 0u32..=5), x in -1.0f64..1.0, y in -1.0f64..1.0) {
        let lim = 10f64.powi(w as i32) - 1.0;
        let (a, b) = (x * lim, y * lim);
        let (ta, tb) = (decimal(&a, w, p).unwrap(), decimal(&b, w, p).unwrap());
        // Rounding may make two values one text, never reverse them.
        if a < b { prop_assert!(ta <= tb, "{} {} -> {} {}", a, b, ta, tb); }
        if ta < tb { prop_assert!(a < b); }
        let back = f64::parse_decimal(&ta, w, p).unwrap();
        let tol = 0.5 * 10f64.powi(-(p as i32)) + a.abs() * 1e-14;
        prop_assert!((back - a).abs() <= tol, "{} -> {} -> {}", a, ta, back);
    }

    #[test]
    fn f32_any_value_orders_and_rounds((w, p) in (1u32..=5, 0u32..=2), x in -1.0f32..1.0, y in -1.0f32..1.0) {
        let lim = 10f32.powi(w as i32) - 1.0;
        let (a, b) = (x * lim, y * lim);
        let (ta, tb) = (decimal(&a, w, p).unwrap(), decimal(&b, w, p).unwrap());
        if a < b { prop_assert!(ta <= tb); }
        if ta < tb { prop_assert!(a < b); }
        let back = f32::parse_decimal(&ta, w, p).unwrap() as f64;
        let tol = 0.5 * 10f64.powi(-(p as i32)) + (a as f64).abs() * 1e-6;
        prop_assert!((back - a as f64).abs() <= tol, "{} -> {} -> {}", a, ta, back);
    }

    #[test]
    fn float_text_round_trip(a in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
        prop_assert_eq!(f64::parse_text(&text(&a).unwrap()).unwrap(), a);
    }
}

#[test]
fn float_refusals_and_edges() {
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(decimal(&v, 8, 2), Err(KeyFormatReason::NotFinite));
        assert_eq!(text(&v), Err(KeyFormatReason::NotFinite));
        assert_eq!(decimal(&(v as f32), 8, 2), Err(KeyFormatReason::NotFinite));
        assert_eq!(text(&(v as f32)), Err(KeyFormatReason::NotFinite));
    }
    assert_eq!(
        decimal(&1e8f64, 8, 2),
        Err(KeyFormatReason::TooWide { width: 8 })
    );
    assert_eq!(
        decimal(&-1e8f64, 8, 2),
        Err(KeyFormatReason::TooWide { width: 8 })
    );
    assert_eq!(
        decimal(&1e300f64, 8, 2),
        Err(KeyFormatReason::TooWide { width: 8 })
    );
    assert_eq!(decimal(&99_999_999.99f64, 8, 2).unwrap(), "099999999.99");
    assert_eq!(decimal(&-99_999_999.99f64, 8, 2).unwrap(), "-00000000.01");
    assert_eq!(
        decimal(&-0.0f64, 8, 2).unwrap(),
        decimal(&0.0f64, 8, 2).unwrap()
    );
    assert_eq!(decimal(&-0.004f64, 8, 2).unwrap(), "000000000.00");
    assert_eq!(decimal(&40.0f64, 8, 2).unwrap(), "000000040.00");
    assert_eq!(decimal(&-15.5f32, 8, 2).unwrap(), "-99999984.50");
    // -0.0 == 0.0: one value, one key text
    assert_eq!(text(&-0.0f64).unwrap(), text(&0.0f64).unwrap());
    assert_eq!(text(&-0.0f32).unwrap(), "0");
}

// ---------------------------------------------------------------- time

const REV_MAX_MS: i128 = 9_999_999_999_999;

fn first_ns() -> i128 {
    datetime!(0000-01-01 0:00 UTC).unix_timestamp_nanos()
}
fn last_ns() -> i128 {
    datetime!(9999-12-31 23:59:59.999_999_999 UTC).unix_timestamp_nanos()
}

fn offset() -> impl Strategy<Value = UtcOffset> {
    (-86_399i32..=86_399).prop_map(|s| UtcOffset::from_whole_seconds(s).unwrap())
}

/// An instant in the years 0000–9999 (UTC), shown in some offset when that
/// offset keeps it inside the supported years.
fn instant(ns: i128, off: UtcOffset) -> OffsetDateTime {
    let utc = OffsetDateTime::from_unix_timestamp_nanos(ns).unwrap();
    utc.checked_to_offset(off).unwrap_or(utc)
}

proptest! {
    #[test]
    fn instant_props(a in first_ns()..=last_ns(), b in first_ns()..=last_ns(), near in -2_000i128..=2_000,
                     use_near in any::<bool>(), oa in offset(), ob in offset()) {
        let b = if use_near { (a + near).clamp(first_ns(), last_ns()) } else { b };
        let (a, b) = (instant(a, oa), instant(b, ob));
        let (ta, tb) = (text(&a).unwrap(), text(&b).unwrap());
        prop_assert_eq!(ta.len(), 30);
        prop_assert!(ta.ends_with('Z'));
        let back = OffsetDateTime::parse_text(&ta).unwrap();
        prop_assert_eq!(back, a);
        prop_assert_eq!(back.offset(), UtcOffset::UTC);
        // Two offsets of one instant, one text.
        prop_assert_eq!(&ta, &text(&a.to_offset(UtcOffset::UTC)).unwrap());
        prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
    }

    #[test]
    fn reverse_instant_props(a in 0..=REV_MAX_MS, b in 0..=REV_MAX_MS, sub in 0i128..1_000_000,
                             near in -2i128..=2, use_near in any::<bool>(), off in offset()) {
        let b = if use_near { (a + near).clamp(0, REV_MAX_MS) } else { b };
        let at = |ms: i128, sub: i128| {
            OffsetDateTime::from_unix_timestamp_nanos(ms * 1_000_000 + sub).unwrap().to_offset(off)
        };
        let (ia, ib) = (at(a, sub), at(b, 999_999 - sub));
        let (ta, tb) = (rev(&ia).unwrap(), rev(&ib).unwrap());
        prop_assert_eq!(ta.len(), 13);
        // Round trip keeps milliseconds.
        prop_assert_eq!(OffsetDateTime::parse_reverse(&ta).unwrap(), at(a, 0));
        // Newest first.
        prop_assert_eq!(a.cmp(&b), tb.cmp(&ta));
    }

    #[test]
    fn date_props(a in date!(0000-01-01).to_julian_day()..=date!(9999-12-31).to_julian_day(),
                  b in date!(0000-01-01).to_julian_day()..=date!(9999-12-31).to_julian_day()) {
        let (a, b) = (Date::from_julian_day(a).unwrap(), Date::from_julian_day(b).unwrap());
        let (ta, tb) = (text(&a).unwrap(), text(&b).unwrap());
        prop_assert_eq!(ta.len(), 10);
        prop_assert_eq!(Date::parse_text(&ta).unwrap(), a);
        prop_assert_eq!(a.cmp(&b), ta.cmp(&tb));
    }
}

#[test]
fn instant_edges() {
    let vals: Vec<(OffsetDateTime, String)> = [
        datetime!(0000-01-01 0:00 UTC),
        datetime!(0000-01-01 0:00:00.000_000_001 UTC),
        datetime!(0000-01-01 1:00 +1),
        datetime!(1969-12-31 23:59:59.999_999_999 UTC),
        datetime!(1970-01-01 0:00 UTC),
        datetime!(2026-07-16 09:12:00.123 UTC),
        datetime!(2026-07-16 11:12:00.123 +2),
        datetime!(2026-07-16 09:12:00.123_000_001 UTC),
        datetime!(9999-12-31 23:59:59.999_999_999 UTC),
        datetime!(9999-12-31 18:59:59.999_999_999 -5),
    ]
    .into_iter()
    .map(|v| (v, text(&v).unwrap()))
    .collect();
    assert_eq!(vals[0].1, "0000-01-01T00:00:00.000000000Z");
    assert_eq!(vals[5].1, "2026-07-16T09:12:00.123000000Z");
    assert_eq!(vals[5].1, vals[6].1);
    assert_eq!(vals[8].1, "9999-12-31T23:59:59.999999999Z");
    assert_order(&vals);
}

#[test]
fn instant_out_of_range() {
    // Year 10000 in UTC (a valid local time in its own offset): refused, not a panic.
    assert_eq!(
        text(&datetime!(9999-12-31 23:00 -5)),
        Err(KeyFormatReason::OutOfRange)
    );
    assert_eq!(
        text(&datetime!(9999-12-31 23:59:59.999_999_999 -0:00:01)),
        Err(KeyFormatReason::OutOfRange)
    );
    // Year -1 in UTC.
    assert_eq!(
        text(&datetime!(0000-01-01 0:30 +1)),
        Err(KeyFormatReason::OutOfRange)
    );
    assert_eq!(
        text(&datetime!(-0001-06-01 0:00 UTC)),
        Err(KeyFormatReason::OutOfRange)
    );
    assert_eq!(
        text(&date!(-0001 - 12 - 31)),
        Err(KeyFormatReason::OutOfRange)
    );
    // `rev` holds 1970 up to 9999999999999 ms (year 2286).
    assert_eq!(
        rev(&datetime!(1969-12-31 23:59:59.999 UTC)),
        Err(KeyFormatReason::OutOfRange)
    );
    let last = OffsetDateTime::from_unix_timestamp_nanos(REV_MAX_MS * 1_000_000).unwrap();
    assert_eq!(rev(&last).unwrap(), "0000000000000");
    assert_eq!(
        rev(&datetime!(1970-01-01 0:00 UTC)).unwrap(),
        "9999999999999"
    );
    assert_eq!(
        rev(&(last + Duration::milliseconds(1))),
        Err(KeyFormatReason::OutOfRange)
    );
}

#[test]
fn time_parse_refusals() {
    for s in [
        "2026-02-30",
        "2026-13-01",
        "2026-00-10",
        "2026-7-16",
        "2026/07/16",
        "2026-07-16T",
        "+026-07-16",
        "2026-07-1x",
        "２026-07-16",
        "",
        "2026-07-16 ",
    ] {
        assert!(is_malformed(Date::parse_text(s)), "{s:?}");
    }
    for s in [
        "2026-07-16T09:12:00.123000000",
        "2026-07-16T09:12:00.123000000+",
        "2026-07-16T25:00:00.000000000Z",
        "2026-07-16T09:60:00.000000000Z",
        "2026-07-16T09:12:60.000000000Z",
        "2026-07-16 09:12:00.123000000Z",
        "2026-07-16T09:12:00.12300000Z",
        "2026-07-16T09:12:00,123000000Z",
        "2026-07-16T09:12:00.12300000aZ",
        "2026-02-30T09:12:00.123000000Z",
        "2026-07-16t09:12:00.123000000z",
    ] {
        assert!(is_malformed(OffsetDateTime::parse_text(s)), "{s:?}");
    }
}

// ---------------------------------------------------------------- uuid

proptest! {
    #[test]
    fn uuid_props(a in any::<u128>(), b in any::<u128>()) {
        let (ua, ub) = (Uuid::from_u128(a), Uuid::from_u128(b));
        let (ta, tb) = (text(&ua).unwrap(), text(&ub).unwrap());
        prop_assert_eq!(ta.len(), 36);
        prop_assert!(!ta.bytes().any(|c| c.is_ascii_uppercase()));
        prop_assert_eq!(Uuid::parse_text(&ta).unwrap(), ua);
        prop_assert_eq!(ua.cmp(&ub), ta.cmp(&tb));
    }

    #[test]
    fn uuid7_props(a in 0i128..=253_402_300_799_999, b in 0i128..=253_402_300_799_999,
                   near in -2i128..=2, use_near in any::<bool>(), sa in 0i128..1_000_000, sb in 0i128..1_000_000) {
        let b = if use_near { (a + near).clamp(0, 253_402_300_799_999) } else { b };
        let t = |ms: i128, sub: i128| OffsetDateTime::from_unix_timestamp_nanos(ms * 1_000_000 + sub).unwrap();
        let (ta, tb) = (t(a, sa), t(b, sb));
        let (ia, ib) = (uuid7::at(ta), uuid7::at(tb));
        prop_assert_eq!(ia.get_version_num(), 7);
        prop_assert_eq!(ia.get_variant(), uuid::Variant::RFC4122);
        prop_assert_eq!(uuid7::time_of(ia), Some(t(a, 0)));
        prop_assert!(uuid7::first(ta) <= ia && ia <= uuid7::last(ta));
        let (xa, xb) = (text(&ia).unwrap(), text(&ib).unwrap());
        prop_assert!(text(&uuid7::first(ta)).unwrap() <= xa && xa <= text(&uuid7::last(ta)).unwrap());
        if a != b {
            prop_assert_eq!(a.cmp(&b), xa.cmp(&xb));
        }
        // A millisecond's range ends below the next one's.
        let next = ta + Duration::milliseconds(1);
        prop_assert!(uuid7::last(ta) < uuid7::first(next));
        prop_assert!(text(&uuid7::last(ta)).unwrap() < text(&uuid7::first(next)).unwrap());
        for id in [uuid7::first(ta), uuid7::last(ta)] {
            prop_assert_eq!(id.get_version_num(), 7);
            prop_assert_eq!(id.get_variant(), uuid::Variant::RFC4122);
            prop_assert_eq!(uuid7::time_of(id), Some(t(a, 0)));
        }
    }
}

#[test]
fn uuid_edges_and_refusals() {
    let id = Uuid::from_u128(0xA1B2C3D4_E5F6_4A7B_8C9D_0E1F2A3B4C5D);
    let t = text(&id).unwrap();
    assert_eq!(t, "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d");
    assert_eq!(
        text(&Uuid::nil()).unwrap(),
        "00000000-0000-0000-0000-000000000000"
    );
    assert_eq!(
        text(&Uuid::max()).unwrap(),
        "ffffffff-ffff-ffff-ffff-ffffffffffff"
    );
    for s in [
        "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D",
        "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5D",
        "a1b2c3d4e5f64a7b8c9d0e1f2a3b4c5d",
        "{a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d}",
        "urn:uuid:a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
        "g1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
        "a1b2c3d4-e5f6-4a7b-8c9d_0e1f2a3b4c5d",
        "",
    ] {
        assert!(is_malformed(Uuid::parse_text(s)), "{s:?}");
    }
    // Before 1970 clamps to the first millisecond; v7 time order still holds after.
    let epoch = datetime!(1970-01-01 0:00 UTC);
    assert_eq!(uuid7::first(epoch - Duration::DAY), uuid7::first(epoch));
    assert_eq!(
        uuid7::time_of(Uuid::from_u128(0xA1B2C3D4_E5F6_4A7B_8C9D_0E1F2A3B4C5D)),
        None
    );
}

// ---------------------------------------------------------------- strings, bool

proptest! {
    #[test]
    fn string_round_trip_or_refusal(s in any::<String>()) {
        let forbidden = s.chars().find(|c| *c < ' ' || *c == '\u{10FFFF}');
        match (text(&s), forbidden) {
            (Ok(t), None) => {
                prop_assert_eq!(&t, &s);
                prop_assert_eq!(String::parse_text(&t).unwrap(), s);
            }
            (Err(r), Some(found)) => prop_assert_eq!(r, KeyFormatReason::ForbiddenChar { found }),
            (r, f) => prop_assert!(false, "{:?} with forbidden {:?}", r, f),
        }
    }

    #[test]
    fn str_order_is_byte_order(a in any::<String>(), b in any::<String>()) {
        // DynamoDB compares UTF-8 bytes; Rust's str order is the same (and is code point order).
        prop_assert_eq!(a.cmp(&b), a.as_bytes().cmp(b.as_bytes()));
        prop_assert_eq!(a.cmp(&b), a.chars().cmp(b.chars()));
    }
}

/// A string's text form is the string: the template's writer escapes it
/// (or, in raw text, refuses control characters); see `tests/conditions.rs`.
#[test]
fn string_text_is_the_string() {
    for s in [
        " ",
        "a b",
        "\u{7f}",
        "\u{80}",
        "\u{10FFFE}",
        "😀",
        "#",
        "",
        "a\0b",
    ] {
        assert_eq!(text(&s.to_owned()).unwrap(), s);
    }
}

#[test]
fn bool_text() {
    assert_eq!(text(&true).unwrap(), "true");
    assert_eq!(text(&false).unwrap(), "false");
    assert!(text(&false).unwrap() < text(&true).unwrap());
    assert!(bool::parse_text("true").unwrap());
    assert!(!bool::parse_text("false").unwrap());
    for s in ["True", "1", "", "yes", "false "] {
        assert!(is_malformed(bool::parse_text(s)), "{s:?}");
    }
}

mod ulid_bounds {
    use dynakey_runtime::key::ulid;
    use proptest::prelude::*;
    use time::OffsetDateTime;

    fn at(ms: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000).unwrap()
    }

    proptest! {
        /// ULID bounds sort by time: a millisecond's range lies below the
        /// next one's, and the time reads back.
        #[test]
        fn bounds_sort_by_time(a in 0i64..253_402_300_799_000, b in 0i64..253_402_300_799_000) {
            let (ta, tb) = (at(a), at(b));
            prop_assert!(ulid::first(ta) < ulid::last(ta));
            prop_assert_eq!(a < b, ulid::last(ta) < ulid::first(tb));
            prop_assert_eq!(ulid::time_of(&ulid::first(ta)), Some(ta));
        }
    }
}
