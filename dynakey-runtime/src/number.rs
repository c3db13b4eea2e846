//! DynamoDB's numbers: the text it accepts, the magnitudes it stores, the
//! bytes it counts, and integers read from any form a client writes.
//!
//! DynamoDB stores up to 38 significant digits with a magnitude from 1E-130
//! to below 1E+126 (and zero). It counts a number as one byte per two
//! digits on each side of the decimal point, plus one, plus one for a
//! negative sign: `100.1` is 4 bytes, `-1.5` is 4. (This rule was measured
//! against DynamoDB by the dynoxide project, byte-exact at the 400 KB gate.)

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

/// Parses DynamoDB's number grammar: `sign? (digits ('.' digits?)? | '.'
/// digits) (('e'|'E') sign? digits)?`, no spaces.
pub(crate) fn parse(text: &str) -> Option<Decimal> {
    let b = text.as_bytes();
    let mut i = 0;
    let negative = match b.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let mut all = Vec::new();
    let mut int_len = 0usize;
    let mut seen_dot = false;
    let mut frac_len = 0usize;
    while i < b.len() {
        match b[i] {
            d @ b'0'..=b'9' => {
                all.push(d - b'0');
                if seen_dot {
                    frac_len += 1;
                } else {
                    int_len += 1;
                }
            }
            b'.' if !seen_dot => seen_dot = true,
            b'e' | b'E' => break,
            _ => return None,
        }
        i += 1;
    }
    if all.is_empty() {
        return None;
    }
    let written_exp: i64 = if i < b.len() {
        let e = &text[i + 1..];
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        e.parse().ok()?
    } else {
        0
    };
    let lead = all.iter().take_while(|d| **d == 0).count();
    let trail = all.iter().rev().take_while(|d| **d == 0).count();
    if lead == all.len() {
        return Some(Decimal {
            negative: false,
            digits: Vec::new(),
            exp: 0,
            zero_exp: written_exp
                .saturating_sub(frac_len as i64)
                .saturating_add(1),
        });
    }
    let digits = all[lead..all.len() - trail].to_vec();
    let exp = (int_len as i64 - lead as i64).saturating_add(written_exp);
    Some(Decimal {
        negative,
        digits,
        exp,
        zero_exp: 0,
    })
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
