//! DynamoDB's numbers: the text it accepts, the magnitudes it stores, the
//! bytes it counts, and integers read from any form a client writes.
//!
//! DynamoDB stores up to 38 significant digits with a magnitude from 1E-130
//! to below 1E+126 (and zero). It counts a number as one byte per two
//! digits on each side of the decimal point, plus one, plus one for a
//! negative sign: `100.1` is 4 bytes, `-1.5` is 4. (This rule was measured
//! against DynamoDB by the dynoxide project, byte-exact at the 400 KB gate.)

use std::cmp::Ordering;

/// A number's decimal digits without leading or trailing zeros, and its
/// exponent: the value is `0.d1d2d3… × 10^exp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decimal {
    pub negative: bool,
    pub digits: Vec<u8>,
    pub exp: i64,
    /// For zero, where DynamoDB range-checks it: the written exponent less
    /// the written fraction digits, plus one.
    zero_exp: i64,
}

/// A number's text as written, scanned without allocating: its digits
/// (before and after the point), sign and written exponent.
struct Scan<'a> {
    negative: bool,
    int: &'a [u8],
    frac: &'a [u8],
    written_exp: i64,
}

impl<'a> Scan<'a> {
    /// DynamoDB's number grammar: `sign? (digits ('.' digits?)? | '.'
    /// digits) (('e'|'E') sign? digits)?`, no spaces.
    fn new(text: &'a str) -> Option<Self> {
        let b = text.as_bytes();
        let (negative, rest) = match b.first() {
            Some(b'-') => (true, &b[1..]),
            Some(b'+') => (false, &b[1..]),
            _ => (false, b),
        };
        let mantissa_end = rest
            .iter()
            .position(|c| matches!(c, b'e' | b'E'))
            .unwrap_or(rest.len());
        let (mantissa, exp) = rest.split_at(mantissa_end);
        let (int, frac) = match mantissa.iter().position(|c| *c == b'.') {
            Some(dot) => (&mantissa[..dot], &mantissa[dot + 1..]),
            None => (mantissa, &mantissa[mantissa.len()..]),
        };
        let digits = |d: &[u8]| d.iter().all(u8::is_ascii_digit);
        if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
            return None;
        }
        let written_exp = match exp.split_first() {
            None => 0,
            Some((_, e)) => {
                let unsigned = e
                    .strip_prefix(b"+")
                    .or_else(|| e.strip_prefix(b"-"))
                    .unwrap_or(e);
                if unsigned.is_empty() || !digits(unsigned) {
                    return None;
                }
                std::str::from_utf8(e).ok()?.parse().ok()?
            }
        };
        Some(Self {
            negative,
            int,
            frac,
            written_exp,
        })
    }

    /// Every digit written, as ASCII (which orders as the values do).
    fn all(&self) -> impl DoubleEndedIterator<Item = u8> + Clone + 'a {
        self.int.iter().chain(self.frac).copied()
    }

    /// The significant digits (no leading or trailing zeros) and the
    /// exponent of `0.d1d2… × 10^exp`; `None` for zero.
    fn significant(&self) -> Option<(impl Iterator<Item = u8> + Clone + 'a, i64)> {
        let n = self.int.len() + self.frac.len();
        let lead = self.all().take_while(|d| *d == b'0').count();
        if lead == n {
            return None;
        }
        let trail = self.all().rev().take_while(|d| *d == b'0').count();
        let exp = (self.int.len() as i64 - lead as i64).saturating_add(self.written_exp);
        Some((self.all().skip(lead).take(n - lead - trail), exp))
    }
}

/// Parses DynamoDB's number grammar (see [`Scan::new`]).
pub(crate) fn parse(text: &str) -> Option<Decimal> {
    let s = Scan::new(text)?;
    Some(match s.significant() {
        None => Decimal {
            negative: false,
            digits: Vec::new(),
            exp: 0,
            zero_exp: s
                .written_exp
                .saturating_sub(s.frac.len() as i64)
                .saturating_add(1),
        },
        Some((digits, exp)) => Decimal {
            negative: s.negative,
            digits: digits.map(|d| d - b'0').collect(),
            exp,
            zero_exp: 0,
        },
    })
}

/// Two numbers by value, as DynamoDB compares them: exactly, at any
/// precision (no float, no 28-digit decimal), in any form a client writes
/// (`1E+30`, `1000…0`, `0.1E31`, `+5`, `-0`, leading and trailing zeros).
/// `None` when either is not a number. Nothing is allocated.
pub(crate) fn compare(a: &str, b: &str) -> Option<Ordering> {
    let (a, b) = (Scan::new(a)?, Scan::new(b)?);
    // Zero is never negative (`-0` is zero).
    let sign = |s: &Scan, sig: bool| match (sig, s.negative) {
        (false, _) => 0,
        (true, true) => -1,
        (true, false) => 1,
    };
    let (da, db) = (a.significant(), b.significant());
    let (sa, sb) = (sign(&a, da.is_some()), sign(&b, db.is_some()));
    let (Some((da, ea)), Some((db, eb))) = (da, db) else {
        return Some(sa.cmp(&sb));
    };
    if sa != sb {
        return Some(sa.cmp(&sb));
    }
    // Both `0.d1d2… × 10^exp` with d1 ≠ 0: the exponent decides, then the
    // digits (a prefix is the smaller: no trailing zeros are kept).
    let magnitude = ea.cmp(&eb).then_with(|| da.cmp(db));
    Some(if sa < 0 {
        magnitude.reverse()
    } else {
        magnitude
    })
}

/// Whether two number texts hold the same value (see [`compare`]); text
/// that is not a number equals only itself.
#[cfg(any(feature = "changes", feature = "design", feature = "migrate"))]
pub(crate) fn same(a: &str, b: &str) -> bool {
    a == b || compare(a, b) == Some(Ordering::Equal)
}

/// One text per value (`1E+2`, `100` and `100.0` give the same), for
/// keying maps by number; text that is not a number is kept as it is,
/// marked so that it cannot collide with a number's.
#[cfg(any(feature = "changes", feature = "design", feature = "migrate"))]
pub(crate) fn canonical(text: &str) -> String {
    match parse(text) {
        None => format!("?{text}"),
        Some(d) if d.digits.is_empty() => "0".to_owned(),
        Some(d) => {
            let digits: String = d.digits.iter().map(|x| char::from(b'0' + x)).collect();
            format!("{}0.{digits}e{}", if d.negative { "-" } else { "" }, d.exp)
        }
    }
}

/// Why DynamoDB would refuse this number text, if it would.
///
/// ```
/// # use dynakey_runtime::__private::number_problem;
/// assert_eq!(number_problem("12.5"), None);
/// assert!(number_problem("1e200").unwrap().contains("magnitude"));
/// assert!(number_problem("5e-324").unwrap().contains("magnitude"));
/// assert!(number_problem("NaN").is_some());
/// assert!(number_problem(&"1".repeat(39)).unwrap().contains("38"));
/// ```
pub fn number_problem(text: &str) -> Option<&'static str> {
    let Some(d) = parse(text) else {
        return Some("is not a number DynamoDB can read (NaN and infinities are not numbers)");
    };
    let exp = if d.digits.is_empty() {
        d.zero_exp
    } else {
        d.exp
    };
    if d.digits.len() > 38 {
        Some("has more than 38 significant digits")
    } else if exp > 126 {
        Some("has a magnitude of 1E+126 or more, above DynamoDB's range")
    } else if exp < -129 {
        Some("has a magnitude below 1E-130, under DynamoDB's range")
    } else {
        None
    }
}

/// The bytes DynamoDB counts for a number (see the module docs). Text it
/// cannot read counts its length.
pub(crate) fn size(text: &str) -> usize {
    let Some(d) = parse(text) else {
        return text.len();
    };
    let int = d.exp.clamp(0, d.digits.len() as i64) as usize;
    let frac = d.digits.len() - int;
    int.div_ceil(2) + frac.div_ceil(2) + 1 + usize::from(d.negative && !d.digits.is_empty())
}

/// The integer a number text holds, in any form a client writes (`100`,
/// `1E+2`, `100.0`); `None` when it has a fraction or does not fit.
pub(crate) fn integer(text: &str) -> Option<i128> {
    let d = parse(text)?;
    if d.digits.is_empty() {
        return Some(0);
    }
    let len = d.digits.len() as i64;
    if d.exp < len || d.exp > 39 {
        return None;
    }
    let mut v: i128 = 0;
    for digit in &d.digits {
        v = v.checked_mul(10)?.checked_add(i128::from(*digit))?;
    }
    for _ in 0..(d.exp - len) {
        v = v.checked_mul(10)?;
    }
    Some(if d.negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        for ok in [
            "5", "+5", "-7", ".5", "5.", "1e+2", "1.5E+3", "1E-130", "00042", "0", "-0",
        ] {
            assert!(parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "", "+e2", "1+2", "1.2.3", "++5", "1e", ".", "NaN", "inf", "1_000", " 5", "e5",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn range() {
        assert_eq!(number_problem("1E-130"), None);
        assert!(number_problem("1E-131").is_some());
        assert_eq!(number_problem(&format!("9.{}E+125", "9".repeat(37))), None);
        assert!(number_problem("1E+126").is_some());
        assert!(number_problem(&f64::MAX.to_string()).is_some());
        assert!(
            number_problem("0e126").is_some(),
            "DynamoDB range-checks zero too"
        );
        assert_eq!(number_problem("0.000"), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(size("0"), 1);
        assert_eq!(size("100"), 2);
        assert_eq!(size("-12.5"), 4);
        assert_eq!(size("100.1"), 4);
        assert_eq!(size("-1.5"), 4);
        assert_eq!(size("12345.678"), 6);
        assert_eq!(size("1E+2"), size("100"));
    }

    #[test]
    fn integers_in_any_form() {
        assert_eq!(integer("1E+2"), Some(100));
        assert_eq!(integer("100.0"), Some(100));
        assert_eq!(integer("-2.5e1"), Some(-25));
        assert_eq!(integer("1.5"), None);
        assert_eq!(integer("1e40"), None);
        assert_eq!(integer("-0"), Some(0));
    }
}

/// `compare` against a reference that shares nothing with it: each value
/// built as mantissa digits × 10^e, written in every form DynamoDB
/// accepts, and compared as fixed-point integers on digit strings.
#[cfg(test)]
mod compare_props {
    use super::*;
    use proptest::prelude::*;

    /// A DynamoDB number: `mant × 10^e`, at most 38 significant digits,
    /// leading digit's exponent in −130..=125; zero has an empty mantissa.
    #[derive(Debug, Clone)]
    struct Num {
        negative: bool,
        mant: String,
        e: i64,
    }

    fn num() -> impl Strategy<Value = Num> {
        let nonzero = (any::<bool>(), "[1-9][0-9]{0,37}", -130i64..=125).prop_map(
            |(negative, mant, lead)| {
                let e = lead - (mant.len() as i64 - 1);
                Num { negative, mant, e }
            },
        );
        let zero = any::<bool>().prop_map(|negative| Num {
            negative,
            mant: String::new(),
            e: 0,
        });
        prop_oneof![9 => nonzero, 1 => zero]
    }

    /// A value next to `n` (equal, one unit in its last digit away, a digit
    /// longer, ten times larger or smaller), for near ties.
    fn near(n: Num) -> impl Strategy<Value = Num> {
        let m = n.clone();
        (0..6u8).prop_map(move |k| {
            let mut x = m.clone();
            if x.mant.is_empty() {
                return x;
            }
            match k {
                0 => {}
                1 if !x.mant.ends_with('9') => {
                    let last = x.mant.pop().unwrap();
                    x.mant.push(char::from(last as u8 + 1));
                }
                2 if !x.mant.ends_with('0') || x.mant.len() > 1 => {
                    let last = x.mant.pop().unwrap();
                    if last == '0' {
                        x.mant.push('0');
                        x.mant.push('1');
                        x.e -= 1;
                    } else {
                        x.mant.push(char::from(last as u8 - 1));
                    }
                }
                3 if x.mant.len() < 38 => {
                    x.mant.push('1');
                    x.e -= 1;
                }
                4 => x.e += 1,
                5 => x.negative = !x.negative,
                _ => {}
            }
            x
        })
    }

    /// Fixed-point digits of |n| at scale 10^-300 without leading zeros.
    fn fixed(n: &Num) -> String {
        if n.mant.is_empty() {
            return String::new();
        }
        let s = format!("{}{}", n.mant, "0".repeat((n.e + 300) as usize));
        s.trim_start_matches('0').to_owned()
    }

    fn reference(a: &Num, b: &Num) -> Ordering {
        let sign = |n: &Num| {
            if n.mant.is_empty() {
                0
            } else if n.negative {
                -1
            } else {
                1
            }
        };
        let (sa, sb) = (sign(a), sign(b));
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        let (x, y) = (fixed(a), fixed(b));
        let m = x.len().cmp(&y.len()).then_with(|| x.cmp(&y));
        if sa < 0 {
            m.reverse()
        } else {
            m
        }
    }

    /// `n` written in form `form` (of 10), as some client writes numbers.
    fn render(n: &Num, form: u8) -> String {
        if n.mant.is_empty() {
            let zeros = [
                "0", "-0", "0.0", "-0E5", "+0", "0e-3", "00.000", "-.0", "0.", "+0E+0",
            ];
            return zeros[form as usize % zeros.len()].to_owned();
        }
        let len = n.mant.len() as i64;
        let lead = n.e + len - 1;
        let plain = || {
            if n.e >= 0 {
                format!("{}{}", n.mant, "0".repeat(n.e as usize))
            } else if -n.e < len {
                let (i, f) = n.mant.split_at((len + n.e) as usize);
                format!("{i}.{f}")
            } else {
                format!("0.{}{}", "0".repeat((-n.e - len) as usize), n.mant)
            }
        };
        let exp = |e: i64, upper: bool, plus: bool| {
            let tag = if upper { "E" } else { "e" };
            if e >= 0 && plus {
                format!("{tag}+{e}")
            } else {
                format!("{tag}{e}")
            }
        };
        let body = match form % 8 {
            0 => plain(),
            1 => format!("000{}", plain()),
            2 => {
                let p = plain();
                if p.contains('.') {
                    format!("{p}000")
                } else {
                    format!("{p}.000")
                }
            }
            3 => format!("{}{}", n.mant, exp(n.e, true, true)),
            4 => format!("{}{}", n.mant, exp(n.e, false, false)),
            5 => {
                let (d, rest) = n.mant.split_at(1);
                let dot = if rest.is_empty() {
                    String::new()
                } else {
                    format!(".{rest}")
                };
                format!("{d}{dot}{}", exp(lead, true, form % 2 == 1))
            }
            6 => format!("0.{}{}", n.mant, exp(lead + 1, true, false)),
            _ => format!("{}0{}", n.mant, exp(n.e - 1, true, true)),
        };
        let sign = match (n.negative, form >= 8) {
            (true, _) => "-",
            // DynamoDB accepts a leading `+` (measured by the dynoxide
            // project against AWS: its tests/number_validation.rs, issue
            // 109); AWS's documentation does not say.
            (false, true) => "+",
            (false, false) => "",
        };
        format!("{sign}{body}")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn compare_is_the_value_order_in_every_form(a in num(), b in num(), fa in 0u8..10, fb in 0u8..10) {
            let (x, y) = (render(&a, fa), render(&b, fb));
            prop_assert_eq!(compare(&x, &y), Some(reference(&a, &b)), "{} vs {}", x, y);
        }

        #[test]
        fn near_values_are_told_apart_and_equal_ones_are_equal(
            (a, b) in num().prop_flat_map(|a| (Just(a.clone()), near(a))),
            fa in 0u8..10,
            fb in 0u8..10,
        ) {
            let (x, y) = (render(&a, fa), render(&b, fb));
            let want = reference(&a, &b);
            prop_assert_eq!(compare(&x, &y), Some(want), "{} vs {}", x, y);
            prop_assert_eq!(same(&x, &y), want == Ordering::Equal, "{} vs {}", x, y);
            prop_assert_eq!(canonical(&x) == canonical(&y), want == Ordering::Equal, "{} vs {}", x, y);
        }

        #[test]
        fn every_form_of_a_number_is_the_same_number(a in num()) {
            let forms: Vec<String> = (0..10).map(|f| render(&a, f)).collect();
            for x in &forms {
                prop_assert_eq!(number_problem(x), None, "{} is a DynamoDB number", x);
                for y in &forms {
                    prop_assert!(same(x, y), "{} vs {}", x, y);
                }
            }
        }
    }

    #[test]
    fn the_issue_s_u128_and_38_digit_cases() {
        let d31 = format!("1{}", "0".repeat(30));
        assert!(same(&d31, "1E+30"));
        assert!(!same(&d31, "1E+31"));
        let d38 = "9".repeat(38);
        assert!(same(&d38, &format!("9.{}E37", "9".repeat(37))));
        assert_eq!(compare(&d38, "1E+38"), Some(Ordering::Less));
        assert_eq!(compare("1", "x"), None);
        assert!(same("x", "x") && !same("x", "y"));
    }
}
