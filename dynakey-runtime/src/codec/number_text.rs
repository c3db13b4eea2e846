//! Numbers between their DynamoDB text and their Rust values: reading
//! every form a client writes (`1E+2`, `100.0`, `+5`) into an integer or
//! an exact `Decimal`, and writing integers and floats as `to_string`
//! would, without its formatting machinery (the codec's hot path).

use rust_decimal::Decimal;

/// An integer from any form of number a client writes: `100`, and also
/// `1E+2` or `100.0` (boto3 and others write these; DynamoDB keeps them).
pub(super) fn int<T: std::str::FromStr + TryFrom<i128>>(n: &str) -> Option<T> {
    n.parse()
        .ok()
        .or_else(|| crate::number::integer(n).and_then(|v| T::try_from(v).ok()))
}

/// A decimal in plain or scientific notation, only where `Decimal` holds it
/// exactly: DynamoDB keeps 38 significant digits (boto3 writes that many),
/// `Decimal` 28, and its parser rounds what does not fit, so a longer
/// number is refused rather than read as another value.
pub(super) fn decimal(n: &str) -> Option<Decimal> {
    let unsigned = n.strip_prefix('+').unwrap_or(n);
    let d = unsigned
        .parse::<Decimal>()
        .ok()
        .or_else(|| Decimal::from_scientific(unsigned).ok())?;
    // Plain text of at most 28 characters has at most 28 digits: exact.
    let plain = !unsigned.contains(['e', 'E']);
    if plain && unsigned.len() <= 28 {
        return Some(d);
    }
    let same = crate::number::compare(&d.to_string(), n) == Some(std::cmp::Ordering::Equal);
    same.then_some(d)
}

/// Integer text without the formatting machinery: the codec's hot path
/// (`to_string` goes through `Formatter` and costs several times more;
/// itoa, which the SDK's own number writing uses, writes two digits a step).
pub(super) fn int_text<I: itoa::Integer>(v: I) -> String {
    itoa::Buffer::new().format(v).to_owned()
}

/// A string of ASCII bytes (digits, sign, point), copied in one go.
fn ascii(bytes: &[u8]) -> String {
    // The bytes are ASCII by construction; the check is a few compares.
    std::str::from_utf8(bytes).map_or_else(|_| String::new(), str::to_owned)
}

/// `f64` text, the same string `to_string` gives. Most stored numbers are
/// short decimals (`98.25`, `0.1`, `3`): those are written here without
/// `Formatter`'s shortest-digits search, which costs ~900 instructions.
pub(super) fn f64_text(v: f64) -> String {
    short_decimal(v).unwrap_or_else(|| v.to_string())
}

/// `v` as the decimal `m / 10^k` with the smallest `k <= 15` such that `m`
/// is an integer below 2^52 and `m / 10^k` rounds back to exactly `v`.
///
/// That decimal is what `Display` prints: below 2^52 an ulp of `v` is
/// smaller than `10^-k`, so no other number with `k` or fewer decimals
/// rounds to `v`, and `Display` prints the shortest such number (trailing
/// zeros of the fraction stripped, no exponent). `None` for everything
/// else (`-0.0`, NaN, infinities, long fractions), which goes through
/// `to_string`.
fn short_decimal(v: f64) -> Option<String> {
    const LIMIT: f64 = 4_503_599_627_370_496.0; // 2^52
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    if !v.is_finite() || (v == 0.0 && v.is_sign_negative()) {
        return None;
    }
    for (k, &p) in POW10.iter().enumerate() {
        let scaled = v * p;
        if scaled.abs() >= LIMIT {
            return None;
        }
        let m = scaled as i64;
        // `p` is exact (10^15 < 2^53), so the division rounds once: equal
        // means the decimal `m / 10^k` rounds to `v`.
        if m as f64 == scaled && scaled / p == v {
            return Some(decimal_text(m, k));
        }
    }
    None
}

/// `m / 10^k` in plain decimal notation, without trailing fraction zeros.
fn decimal_text(m: i64, k: usize) -> String {
    let negative = m < 0;
    let mut mag = m.unsigned_abs();
    let mut k = k;
    while k > 0 && mag.is_multiple_of(10) {
        mag /= 10;
        k -= 1;
    }
    // At most 16 digits (m < 2^52), a leading "0." and a sign.
    let mut buf = [b'0'; 20];
    let mut i = buf.len();
    let mut written = 0;
    while mag > 0 || written <= k {
        if written == k && k > 0 {
            i -= 1;
            buf[i] = b'.';
        }
        i -= 1;
        buf[i] = b'0' + (mag % 10) as u8;
        mag /= 10;
        written += 1;
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    ascii(&buf[i..])
}

#[cfg(test)]
mod tests {
    use super::{decimal, f64_text, int_text};

    #[test]
    fn a_decimal_is_read_exactly_or_refused() {
        let d = |n: &str| decimal(n).map(|d| d.to_string());
        for (text, value) in [
            ("98.25", "98.25"),
            ("1E+2", "100"),
            ("+5", "5"),
            ("-0", "0"),
            ("0.000", "0.000"),
            ("1.5e-3", "0.0015"),
            // 28 significant digits: what Decimal holds.
            (
                "0.3333333333333333333333333333",
                "0.3333333333333333333333333333",
            ),
            (
                "7922816251426433759354395033.5",
                "7922816251426433759354395033.5",
            ),
        ] {
            assert_eq!(d(text).as_deref(), Some(value), "{text}");
        }
        // 38 digits (boto3's Decimal(1) / Decimal(3)), and a value past
        // Decimal's range: refused, not rounded.
        assert_eq!(d("0.33333333333333333333333333333333333333"), None);
        assert_eq!(d("1E+40"), None);
        assert_eq!(d("1E-40"), None);
        assert_eq!(d("x"), None);
    }

    #[test]
    fn int_text_matches_to_string() {
        for v in [
            0i64,
            1,
            -1,
            9,
            10,
            -10,
            37,
            1_752_657_120,
            i64::MIN,
            i64::MAX,
        ] {
            assert_eq!(int_text(v), v.to_string());
        }
        assert_eq!(int_text(u64::MAX), u64::MAX.to_string());
        assert_eq!(int_text(i8::MIN), "-128");
    }

    /// A small deterministic generator (xorshift64*), so the test needs no crate.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    #[test]
    fn f64_text_matches_to_string() {
        let fixed = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.2,
            0.3,
            0.1 + 0.2,
            98.25,
            -98.25,
            1e-7,
            1e-16,
            1e15,
            1e16,
            1e21,
            1e22,
            4_503_599_627_370_495.0,
            4_503_599_627_370_496.0,
            4_503_599_627_370_497.0,
            9_007_199_254_740_993.0,
            123_456_789.123_456_79,
            0.000_123_4,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            std::f64::consts::PI,
        ];
        for v in fixed {
            assert_eq!(f64_text(v), v.to_string(), "{v:?}");
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            let r = next(&mut state);
            // Decimals with up to 17 digits and up to 17 places, raw bit
            // patterns, and integers around 2^52.
            let digits = r % 100_000_000_000_000_000;
            let places = (next(&mut state) % 18) as i32;
            let sign = if r & 1 == 0 { 1.0 } else { -1.0 };
            let dec = sign * digits as f64 / 10f64.powi(places);
            let parsed: f64 = format!("{digits}e-{places}").parse().unwrap();
            let raw = f64::from_bits(next(&mut state));
            let near =
                (4_503_599_627_370_496i64 + (r % 64) as i64 - 32) as f64 / 10f64.powi(places);
            for v in [dec, parsed, -parsed, raw, near, (r % 10_000) as f64 / 100.0] {
                assert_eq!(f64_text(v), v.to_string(), "{v:?} ({:#x})", v.to_bits());
            }
        }
    }
}
